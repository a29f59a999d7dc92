import type { MigrationInterface, QueryRunner } from 'typeorm';
import { askKey } from '../domain/same-question';

/**
 * SPEC §12.3 "Ask once" (docs/decisions.md). The log admits `question.joined`,
 * `question.precedent_offered` and `question.split`; a tool call joins or meets a precedent at
 * most once (`question_log_asker_tool_call`, the backstop of the project's declaration lock).
 *
 * The view keeps, per question, `ask_key` — the question's content words folded by `askKey`
 * (accents, case, plurals, filler words, word order) — and `askers`, the askers that joined it.
 * Candidates are found with `pg_trgm` (a trusted extension since PostgreSQL 13: the database
 * owner creates it) over `ask_key`, by a GIN index restricted to the questions that can match
 * (open or answered), and within one project (`btree_gin` puts the project in the same index).
 * The two functions wrap the extension's operator and `similarity()` schema-qualified, wherever
 * the extension lives; being one-line SQL functions they are inlined, so the index is used.
 */
export class AskOnce1764530000000 implements MigrationInterface {
  name = 'AskOnce1764530000000';

  async up(q: QueryRunner): Promise<void> {
    const [{ schema }] = (await q.query(`SELECT current_schema() AS schema`)) as [{ schema: string }];
    const s = quote(schema);
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    const trgm = quote(await extensionSchema(q, 'pg_trgm'));
    const btree = quote(await extensionSchema(q, 'btree_gin'));

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
    // Questions declared before: their keys, folded here by the same function the projector uses.
    const rows = (await q.query(
      `SELECT question_id, declared->>'pergunta' AS pergunta FROM question_view`,
    )) as {
      question_id: string;
      pergunta: string;
    }[];
    for (let i = 0; i < rows.length; i += 5000) {
      const chunk = rows.slice(i, i + 5000);
      await q.query(
        `UPDATE question_view v SET ask_key = t.k FROM unnest($1::uuid[], $2::text[]) AS t(id, k) WHERE v.question_id = t.id`,
        [chunk.map((r) => r.question_id), chunk.map((r) => askKey(r.pergunta))],
      );
    }
    await q.query(`
      CREATE INDEX question_view_ask ON question_view
        USING gin (project_id ${btree}.text_ops, ask_key ${trgm}.gin_trgm_ops) WHERE status IN ('open', 'answered')`);
    await q.query(`
      CREATE FUNCTION ${s}.question_ask_near(key text, probe text) RETURNS boolean
        LANGUAGE sql STABLE PARALLEL SAFE STRICT
        AS $$ SELECT key OPERATOR(${trgm}.%) probe $$`);
    await q.query(`
      CREATE FUNCTION ${s}.question_ask_similarity(key text, probe text) RETURNS real
        LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
        AS $$ SELECT ${trgm}.similarity(key, probe) $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION question_ask_similarity(text, text)`);
    await q.query(`DROP FUNCTION question_ask_near(text, text)`);
    await q.query(`DROP INDEX question_view_ask`);
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
