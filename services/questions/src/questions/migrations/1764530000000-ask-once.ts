import type { MigrationInterface, QueryRunner } from 'typeorm';
import { askBands, askKey } from '../domain/same-question';

/**
 * SPEC §12.3 "Ask once" (docs/decisions.md). The log admits `question.joined`,
 * `question.precedent_offered` and `question.split`; a tool call joins or meets a precedent at
 * most once (`question_log_asker_tool_call`, the backstop of the project's declaration lock).
 *
 * The view keeps, per question, `ask_key` — the question's content words folded by `askKey`
 * (accents, case, plurals, filler words, word order) —, `ask_bands` — its MinHash band keys
 * (`askBands`, salted with the project), under a GIN index restricted to the questions that can
 * match (open or answered) — and `askers`, the askers that joined it. Candidates sharing a band are
 * ranked by `pg_trgm`'s `similarity()` (a trusted extension since PostgreSQL 13: the database owner
 * creates it), wrapped schema-qualified wherever the extension lives. The index has no pending
 * list (`fastupdate = off`): each declaration updates it in place, and a lookup never reads a
 * pending list (up to 4 MB, scanned in full by every query until a vacuum cleans it).
 */
export class AskOnce1764530000000 implements MigrationInterface {
  name = 'AskOnce1764530000000';

  async up(q: QueryRunner): Promise<void> {
    const [{ schema }] = (await q.query(`SELECT current_schema() AS schema`)) as [{ schema: string }];
    const s = quote(schema);
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    const trgm = quote(await extensionSchema(q, 'pg_trgm'));

    await q.query(`ALTER TABLE question_log DROP CONSTRAINT question_log_type_check`);
    await q.query(`
      ALTER TABLE question_log ADD CONSTRAINT question_log_type_check
        CHECK (type IN ('question.declared', 'question.answered', 'decision.recorded', 'question.withdrawn',
                        'decision.superseded', 'question.joined', 'question.precedent_offered', 'question.split'))`);
    await q.query(`
      CREATE UNIQUE INDEX question_log_asker_tool_call ON question_log (project_id, (data->'asker'->>'toolCallId'))
        WHERE type IN ('question.joined', 'question.precedent_offered') AND data->'asker'->>'toolCallId' IS NOT NULL`);

    await q.query(`ALTER TABLE question_view ADD COLUMN askers jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`ALTER TABLE question_view ADD COLUMN ask_key text NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE question_view ADD COLUMN ask_bands text[] NOT NULL DEFAULT '{}'`);
    // Questions declared before: their keys, folded here by the same function the projector uses.
    const rows = (await q.query(
      `SELECT question_id, project_id, declared->>'pergunta' AS pergunta FROM question_view`,
    )) as { question_id: string; project_id: string; pergunta: string }[];
    for (let i = 0; i < rows.length; i += 5000) {
      const chunk = rows.slice(i, i + 5000);
      await q.query(
        `UPDATE question_view v SET ask_key = t.k, ask_bands = ARRAY(SELECT jsonb_array_elements_text(t.b))
           FROM unnest($1::uuid[], $2::text[], $3::jsonb[]) AS t(id, k, b) WHERE v.question_id = t.id`,
        [
          chunk.map((r) => r.question_id),
          chunk.map((r) => askKey(r.pergunta)),
          chunk.map((r) => JSON.stringify(askBands(r.project_id, askKey(r.pergunta)))),
        ],
      );
    }
    await q.query(
      `CREATE INDEX question_view_ask ON question_view USING gin (ask_bands) WITH (fastupdate = off)
        WHERE status IN ('open', 'answered')`,
    );
    await q.query(`
      CREATE FUNCTION ${s}.question_ask_similarity(key text, probe text) RETURNS real
        LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
        AS $$ SELECT ${trgm}.similarity(key, probe) $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION question_ask_similarity(text, text)`);
    await q.query(`DROP INDEX question_view_ask`);
    await q.query(`ALTER TABLE question_view DROP COLUMN ask_bands`);
    await q.query(`ALTER TABLE question_view DROP COLUMN ask_key`);
    await q.query(`ALTER TABLE question_view DROP COLUMN askers`);
    await q.query(`DROP INDEX question_log_asker_tool_call`);
    await q.query(`ALTER TABLE question_log DROP CONSTRAINT question_log_type_check`);
    await q.query(`
      ALTER TABLE question_log ADD CONSTRAINT question_log_type_check
        CHECK (type IN ('question.declared', 'question.answered', 'decision.recorded', 'question.withdrawn',
                        'decision.superseded'))`);
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function extensionSchema(q: QueryRunner, name: string): Promise<string> {
  const [found] = (await q.query(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = $1`,
    [name],
  )) as { schema: string }[];
  if (!found) throw new Error(`the ${name} extension could not be created`);
  return found.schema;
}
