/**
 * What a declaration's row of `question_view` costs PostgreSQL, index by index (issue #29, "the
 * search vector's upkeep off the declaration's path if the A/B shows it matters"): for the table as
 * the migrations make it and for variants without one index or with another setting, each on a
 * fresh database, the projector's insert of 3,000 rows one per statement and 20,000 in statements of
 * 50, then the answer's update of 3,000 of them, with the CPU of the backend that ran them (from
 * /proc). A command, not a test:
 * `npm run build && node dist/test/bench/micro/declaration-indexes.js [variant words]`.
 */
import '../../../tools/register-paths';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { openDatabase } from '@openq/persistence';
import { createTestDatabase } from '@openq/testing';
import { QUESTIONS_MIGRATIONS } from '../../../services/questions/src/questions/migrations';
import { askBands, askKey } from '../../../services/questions/src/questions/domain/same-question';

/** utime + stime of a process, ms. */
const cpuOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const words =
  'retention archive policy customer invoice deploy release schema migration database cache queue token session review'.split(
    ' ',
  );
const text = (i: number) =>
  `Which ${words[i % 15]} ${words[(i * 7) % 15]} applies to the ${words[(i * 3) % 15]} of task T-${i}, and should the ${words[(i * 5) % 15]} keep ${i % 90} days?`;

/** Variants of the table, each on a fresh database: their DDL after the migrations. */
const VARIANTS: [string, string[]][] = [
  ['as deployed', []],
  ['no search column (nor its GIN)', ['ALTER TABLE question_view DROP COLUMN search']],
  ['no question_view_declared', ['DROP INDEX question_view_declared']],
  ['no question_view_ask', ['DROP INDEX question_view_ask']],
  [
    'ask_bands under an English ICU collation (a database made with one)',
    ['ALTER TABLE question_view ALTER COLUMN ask_bands TYPE text[] COLLATE "en-x-icu"'],
  ],
  [
    "ask_bands under the database's collation",
    ['ALTER TABLE question_view ALTER COLUMN ask_bands TYPE text[] COLLATE "default"'],
  ],
  [
    'question_view_ask with a 64 kB pending list',
    ['ALTER INDEX question_view_ask SET (fastupdate = on, gin_pending_list_limit = 64)'],
  ],
];

async function main() {
  const only = process.argv[2];
  for (const [label, ddl] of VARIANTS) {
    if (only && !label.includes(only)) continue;
    const db = await createTestDatabase('openq_scratch_decl');
    const ds = await openDatabase({ url: db.url, schema: 'questions', migrations: QUESTIONS_MIGRATIONS });
    const runner = ds.createQueryRunner();
    for (const statement of ddl) await runner.query(statement);
    const [{ pid }] = await runner.query('SELECT pg_backend_pid() AS pid');
    const sql = `INSERT INTO question_view (question_id, project_id, declared_position, status, declared, answered, last_position, ask_key, ask_bands)
       SELECT q, p, pos, 'open', d, NULL, pos, k, ARRAY(SELECT jsonb_array_elements_text(b))
         FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::jsonb[], $5::text[], $6::jsonb[]) AS t(q, p, pos, d, k, b)`;
    let pos = 0;
    const run = async (what: string, rows: number, batch: number, print = true) => {
      const c0 = cpuOf(pid);
      const t0 = Date.now();
      for (let done = 0; done < rows; done += batch) {
        const ids: string[] = [],
          ps: string[] = [],
          poss: number[] = [],
          decls: string[] = [],
          ks: string[] = [],
          bs: string[] = [];
        for (let i = 0; i < batch; i++) {
          pos++;
          const pergunta = text(pos);
          const k = askKey(pergunta);
          ids.push(randomUUID());
          ps.push(`p${pos % 8}`);
          poss.push(pos);
          decls.push(
            JSON.stringify({
              pergunta,
              sugestao: `${pos % 90} days`,
              afeta: { regras: [`R-${pos % 40}`], historias: [], tarefas: [`T-${pos}`] },
              autor: 'arquiteto',
              sessionAuthorId: 'ana',
              questionId: ids[i],
            }),
          );
          ks.push(k);
          bs.push(JSON.stringify(askBands(`p${pos % 8}`, k)));
        }
        await runner.query(sql, [ids, ps, poss, decls, ks, bs]);
      }
      await runner.query('SELECT 1');
      if (print)
        console.log(
          `| ${label} | ${what} | ${((cpuOf(pid) - c0) / rows).toFixed(3)} | ${((Date.now() - t0) / rows).toFixed(3)} |`,
        );
    };
    await run('warm-up', 2000, 50, false);
    await run('1 per statement', 3000, 1);
    await run('50 per statement', 20000, 50);
    // The answer's update of a declared row, one per statement (the projector's closing, counts aside).
    const open: { question_id: string }[] = await runner.query(
      `SELECT question_id FROM question_view ORDER BY declared_position DESC LIMIT 3000`,
    );
    const c0 = cpuOf(pid);
    const t0 = Date.now();
    for (const { question_id } of open)
      await runner.query(
        `UPDATE question_view v SET status = t.s, answered = t.d, last_position = t.pos
           FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::jsonb[]) AS t(q, pos, s, d)
          WHERE v.question_id = t.q AND v.status = 'open'`,
        [[question_id], [++pos], ['answered'], [JSON.stringify({ resposta: 'yes', answeredBy: 'ana' })]],
      );
    console.log(
      `| ${label} | an answer's update, 1 per statement | ${((cpuOf(pid) - c0) / open.length).toFixed(3)} | ${((Date.now() - t0) / open.length).toFixed(3)} |`,
    );
    await runner.release();
    await ds.destroy();
    await db.drop();
  }
}

console.log('| table | rows | PostgreSQL CPU per row (ms) | wall per row (ms) |');
console.log('|---|---|---:|---:|');
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
