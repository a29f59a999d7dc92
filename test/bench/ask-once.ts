import '../../tools/register-paths';
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { newId, type Afeta } from '@openq/contracts';
import { OutboxWriter } from '@openq/messaging';
import { openDatabase } from '@openq/persistence';
import { createTestDatabase } from '@openq/testing';
import { QUESTIONS_MIGRATIONS } from '../../services/questions/src/questions/migrations';
import {
  declareQuestion,
  type DeclareResult,
} from '../../services/questions/src/questions/commands/declare-question/declare-question.handler';
import { answerQuestion } from '../../services/questions/src/questions/commands/answer-question/answer-question.handler';
import { askBands, askKey } from '../../services/questions/src/questions/domain/same-question';
import type { DeclarationInput as DeclareInput } from '../../services/questions/src/questions/commands/declare-question/declare-question.handler';
import { REPO_ROOT } from './support/processes';

/**
 * `npm run bench:ask-once` (SPEC §12.3, issue #32; a command, never a test). Two measurements on a
 * throwaway database with the questions service's schema, through the service's own declare
 * handler (the path both doors take):
 *
 * - quality: every labelled pair of `test/data/ask-once/pairs.json` — A declared, then B; for
 *   joins A is open, for precedents A was answered — and the precision and recall of "B joined A"
 *   and "B met A's precedent" against the label (targets: precision ≥ 0.95, recall ≥ 0.6);
 * - cost: declare p50 in a project holding 100,000 questions against an empty project (target:
 *   ≤ 2 ms more), each declaration its own transaction, one after the other.
 *
 * `-- --quality` or `-- --cost` runs one; `--questions N` sizes the big project.
 */
interface Pair {
  id: number;
  lang: string;
  kind: string;
  same: boolean;
  a: { pergunta: string; afeta?: Afeta };
  b: { pergunta: string; afeta?: Afeta };
}

const NONE: Afeta = { regras: [], historias: [], tarefas: [] };
let calls = 0;

const input = (pergunta: string, afeta: Afeta = NONE, autor: DeclareInput['autor'] = 'po'): DeclareInput => ({
  sessionId: `s-${autor}`,
  sessionAuthorId: 'ana',
  autor,
  pergunta,
  sugestao: 'Yes',
  afeta,
  origin: 'tool',
  toolCallId: `bench-${++calls}`,
});

async function declare(ds: DataSource, projectId: string, i: DeclareInput): Promise<DeclareResult> {
  return ds.transaction(async (m: EntityManager) => {
    const outbox = new OutboxWriter(m);
    const result = await declareQuestion(m, outbox, projectId, i, new Date());
    await outbox.flush();
    return result;
  });
}

interface Score {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  misses: string[];
}
const score = (): Score => ({ tp: 0, fp: 0, fn: 0, tn: 0, misses: [] });
const precision = (s: Score) => (s.tp + s.fp === 0 ? 1 : s.tp / (s.tp + s.fp));
const recall = (s: Score) => (s.tp + s.fn === 0 ? 1 : s.tp / (s.tp + s.fn));

async function quality(ds: DataSource): Promise<boolean> {
  const { pairs } = JSON.parse(readFileSync(join(REPO_ROOT, 'test/data/ask-once/pairs.json'), 'utf8')) as {
    pairs: Pair[];
  };
  const joins = score();
  const precedents = score();
  const byKind = new Map<string, { n: number; wrong: number }>();
  for (const pair of pairs) {
    for (const mode of ['join', 'precedent'] as const) {
      const projectId = `pair-${pair.id}-${mode}`;
      const a = await declare(ds, projectId, input(pair.a.pergunta, pair.a.afeta));
      if (mode === 'precedent')
        await ds.transaction(async (m) => {
          const outbox = new OutboxWriter(m);
          await answerQuestion(
            m,
            outbox,
            projectId,
            a.questionId,
            { by: 'user', userId: 'ana', aceitarSugestao: true },
            new Date(),
          );
          await outbox.flush();
        });
      const b = await declare(ds, projectId, input(pair.b.pergunta, pair.b.afeta, 'arquiteto'));
      const said = mode === 'join' ? b.joined === true : b.precedent !== undefined;
      const s = mode === 'join' ? joins : precedents;
      if (said && pair.same) s.tp += 1;
      else if (said) s.fp += 1;
      else if (pair.same) s.fn += 1;
      else s.tn += 1;
      if (said !== pair.same)
        s.misses.push(
          `#${pair.id} ${pair.kind} ${said ? 'FP' : 'FN'}: ${pair.a.pergunta} | ${pair.b.pergunta}`,
        );
      const k = byKind.get(`${pair.lang}/${pair.kind}`) ?? { n: 0, wrong: 0 };
      k.n += 1;
      if (said !== pair.same) k.wrong += 1;
      byKind.set(`${pair.lang}/${pair.kind}`, k);
    }
  }
  const same = pairs.filter((p) => p.same).length;
  out(`ask once, labelled pairs: ${pairs.length} (${same} same, ${pairs.length - same} different)`);
  out('| outcome | TP | FP | FN | TN | precision | recall |');
  out('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, s] of [
    ['joins', joins],
    ['precedents', precedents],
  ] as const)
    out(
      `| ${name} | ${s.tp} | ${s.fp} | ${s.fn} | ${s.tn} | ${precision(s).toFixed(3)} | ${recall(s).toFixed(3)} |`,
    );
  out(`wrong by kind (of both modes): ${[...byKind].map(([k, v]) => `${k} ${v.wrong}/${v.n}`).join(', ')}`);
  if (process.argv.includes('--misses')) for (const m of joins.misses) out(`  ${m}`);
  const met = [joins, precedents].every((s) => precision(s) >= 0.95 && recall(s) >= 0.6);
  out(`${met ? 'met   ' : 'MISSED'} precision ≥ 0.95 and recall ≥ 0.6, for joins and for precedents`);
  return met;
}

const SYLLABLES = 'ka lo mi ner tos vu ban dri fel gor hup jin kre lam mor nix pal quo ril sev'.split(' ');
const VERBS = 'show export validate archive notify sync price rank filter audit lock merge'.split(' ');

/**
 * Texts of the big project: 95% made of random words of a vocabulary of 8,000 (four of them in one
 * of twelve sentence shapes, so near questions are as rare as in a real project), 5% the labelled
 * set's questions with a word of their own (near the probes). Never the same question twice.
 */
function bulkTexts(n: number): string[] {
  const { pairs } = JSON.parse(readFileSync(join(REPO_ROOT, 'test/data/ask-once/pairs.json'), 'utf8')) as {
    pairs: Pair[];
  };
  const bases = [...new Set(pairs.flatMap((p) => [p.a.pergunta, p.b.pergunta]))];
  let seed = 20261203;
  const rnd = (k: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % k;
  };
  const word = () => `${SYLLABLES[rnd(20)]}${SYLLABLES[rnd(20)]}${SYLLABLES[rnd(20)]}`;
  return Array.from({ length: n }, (_, i) =>
    i % 20 === 0
      ? `${bases[rnd(bases.length)]!.replace(/\?$/, '')} for the ${word()} ${word()}?`
      : `Should the ${word()} ${word()} ${VERBS[rnd(VERBS.length)]} the ${word()} of ${word()}?`,
  );
}

/** The declarations timed: the labelled set's questions, each with an order number of its own. */
function probes(n: number, tag: string): string[] {
  const { pairs } = JSON.parse(readFileSync(join(REPO_ROOT, 'test/data/ask-once/pairs.json'), 'utf8')) as {
    pairs: Pair[];
  };
  const bases = [...new Set(pairs.flatMap((p) => [p.a.pergunta, p.b.pergunta]))];
  return Array.from(
    { length: n },
    (_, i) => `${bases[i % bases.length]!.replace(/\?$/, '')} (${tag} ${900000 + i})?`,
  );
}

async function fill(ds: DataSource, projectId: string, n: number): Promise<void> {
  const texts = bulkTexts(n);
  for (let i = 0; i < n; i += 5000) {
    const chunk = texts.slice(i, i + 5000).map((pergunta, j) => ({
      questionId: newId(),
      sessionId: 's-bulk',
      sessionAuthorId: 'ana',
      autor: 'po',
      pergunta,
      sugestao: null,
      afeta: NONE,
      origin: 'tool',
      toolCallId: `bulk-${i + j}`,
      declaredAt: new Date().toISOString(),
    }));
    await ds.query(
      `WITH log AS (
         INSERT INTO question_log (event_id, project_id, question_id, type, data)
         SELECT gen_random_uuid(), $1, q, 'question.declared', d FROM unnest($2::uuid[], $3::jsonb[]) AS t(q, d)
         RETURNING question_id, position, data)
       INSERT INTO question_view (question_id, project_id, declared_position, status, declared, last_position,
                                  ask_key, ask_bands)
       SELECT log.question_id, $1, log.position, 'open', log.data, log.position, k.key,
              ARRAY(SELECT jsonb_array_elements_text(k.b))
         FROM log JOIN unnest($2::uuid[], $4::text[], $5::jsonb[]) AS k(q, key, b) ON k.q = log.question_id`,
      [
        projectId,
        chunk.map((c) => c.questionId),
        chunk.map((c) => JSON.stringify(c)),
        chunk.map((c) => askKey(c.pergunta)),
        chunk.map((c) => JSON.stringify(askBands(projectId, askKey(c.pergunta)))),
      ],
    );
  }
  // As a project of that size is held: vacuumed (autovacuum would within the minute, mid-run) and analysed.
  await ds.query(`VACUUM ANALYZE question_view`);
  await ds.query(`VACUUM ANALYZE question_log`);
}

const p = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** One declaration, its own transaction, timed (ms). */
async function timedOne(
  ds: DataSource,
  projectId: string,
  pergunta: string,
  origin: DeclareInput['origin'],
): Promise<number> {
  const i = {
    ...input(pergunta),
    origin,
    ...(origin === 'tool' ? {} : { autor: 'analyst' as const, toolCallId: null }),
  };
  const t0 = process.hrtime.bigint();
  const r = await declare(ds, projectId, i);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!r.created) throw new Error(`a cost declaration was not new: ${pergunta}`);
  return ms;
}

async function cost(ds: DataSource, size: number): Promise<boolean> {
  const t0 = Date.now();
  await fill(ds, 'big', size);
  out(`filled project "big" with ${size} questions in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const rounds = 300;
  // New questions each time: a labelled text with a number no question has (the lookup runs in full).
  const texts = (tag: string) => probes(rounds, tag);
  for (const t of texts('warm').slice(0, 50)) await timedOne(ds, 'warm', t, 'tool');
  // Interleaved, so the three see the same machine (a shared one is not quiet for long).
  const empty: number[] = [];
  const big: number[] = [];
  const unmatched: number[] = [];
  for (const t of texts('order')) {
    empty.push(await timedOne(ds, 'empty', t, 'tool'));
    big.push(await timedOne(ds, 'big', t, 'tool'));
    unmatched.push(await timedOne(ds, 'plain', t, 'analyst'));
  }
  out(`declare, one transaction each, ${rounds} rounds of the three, interleaved (ms):`);
  out('| project | p50 | p95 |');
  out('| --- | --- | --- |');
  out(
    `| empty, not matched (analyst origin: no lookup) | ${p(unmatched, 0.5).toFixed(2)} | ${p(unmatched, 0.95).toFixed(2)} |`,
  );
  out(`| empty, ask once | ${p(empty, 0.5).toFixed(2)} | ${p(empty, 0.95).toFixed(2)} |`);
  out(`| ${size} questions, ask once | ${p(big, 0.5).toFixed(2)} | ${p(big, 0.95).toFixed(2)} |`);
  const growth = p(big, 0.5) - p(empty, 0.5);
  out(
    `${growth <= 2 ? 'met   ' : 'MISSED'} declare p50 grows by ≤ 2 ms with ${size} questions: ${growth.toFixed(2)} ms`,
  );
  return growth <= 2;
}

const out = (line: string) => process.stdout.write(`${line}\n`);

async function main(argv: string[]): Promise<number> {
  const sizeAt = argv.indexOf('--questions');
  const size = sizeAt >= 0 ? Number(argv[sizeAt + 1]) : 100_000;
  const db = await createTestDatabase('openq_bench_askonce');
  const ds = await openDatabase({
    url: db.url,
    schema: 'questions',
    migrations: QUESTIONS_MIGRATIONS,
    poolSize: 2,
  });
  try {
    let ok = true;
    if (!argv.includes('--cost')) ok = (await quality(ds)) && ok;
    if (!argv.includes('--quality')) ok = (await cost(ds, size)) && ok;
    return ok ? 0 : 1;
  } finally {
    await ds.destroy();
    await db.drop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:ask-once failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
