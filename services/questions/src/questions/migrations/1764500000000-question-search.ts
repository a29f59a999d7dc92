import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * [openq] issue #18 filters and full-text search over the list's read model.
 *
 * - `search`: a tsvector GENERATED from the declaration's `pergunta` and `sugestao`, so the live
 *   projector and `openq replay` (which only insert `declared`) produce it alike: the rebuilt table
 *   is identical by construction. It holds the Portuguese and the English stems of the same text.
 * - Accents: the `unaccent` extension, when this PostgreSQL lets the service create it (a trusted
 *   extension since PostgreSQL 13: the database owner may), is the first dictionary of both text
 *   search configurations (`openq_pt`, `openq_en`). Without it the normalising functions fold the
 *   Latin accents themselves (`translate`), so search stays accent-insensitive either way.
 * - Portuguese plurals in -ões/-ães/-ãos: the snowball stemmer keeps "decisão" and "decisões" apart
 *   (`decisã` / `decisõ`); `question_search_pt` writes those endings as -ão first, in documents and
 *   queries alike, so one finds the other.
 * - GIN indexes on `search` and on `declared` (`jsonb_path_ops`, for `afeta` containment).
 *
 * Functions and configurations are schema-qualified at creation, so no caller's `search_path`
 * changes what they mean.
 */
export class QuestionSearch1764500000000 implements MigrationInterface {
  name = 'QuestionSearch1764500000000';

  async up(q: QueryRunner): Promise<void> {
    const [{ schema }] = (await q.query(`SELECT current_schema() AS schema`)) as [{ schema: string }];
    const s = `"${schema.replace(/"/g, '""')}"`;
    // A subtransaction: a PostgreSQL that refuses the extension leaves this migration running.
    await q.query(`
      DO $$ BEGIN
        CREATE EXTENSION IF NOT EXISTS unaccent;
      EXCEPTION WHEN OTHERS THEN
        RAISE NOTICE 'unaccent is not available (%): accents are folded by translate()', SQLERRM;
      END $$`);
    const found = (await q.query(
      `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname = 'unaccent'`,
    )) as { schema: string }[];
    const unaccent = found[0] ? `"${found[0].schema.replace(/"/g, '""')}".unaccent` : null;

    for (const [config, base, stem] of [
      ['openq_pt', 'portuguese', 'portuguese_stem'],
      ['openq_en', 'english', 'english_stem'],
    ] as const) {
      await q.query(`CREATE TEXT SEARCH CONFIGURATION ${s}.${config} (COPY = pg_catalog.${base})`);
      if (unaccent)
        await q.query(
          `ALTER TEXT SEARCH CONFIGURATION ${s}.${config}
             ALTER MAPPING FOR hword, hword_part, word WITH ${unaccent}, pg_catalog.${stem}`,
        );
    }
    const fold = (text: string) =>
      unaccent ? text : `translate(${text}, 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')`;
    await q.query(`
      CREATE FUNCTION ${s}.question_search_pt(t text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
        AS $$ SELECT regexp_replace(${fold('lower(t)')}, '(ões|oes|ães|ãos)\\M', 'ão', 'g') $$`);
    await q.query(`
      CREATE FUNCTION ${s}.question_search_en(t text) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
        AS $$ SELECT ${fold('lower(t)')} $$`);
    await q.query(`
      CREATE FUNCTION ${s}.question_search_document(pergunta text, sugestao text) RETURNS tsvector
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT to_tsvector('${schema}.openq_pt'::regconfig,
                                 ${s}.question_search_pt(concat_ws(' ', pergunta, sugestao)))
                  || to_tsvector('${schema}.openq_en'::regconfig,
                                 ${s}.question_search_en(concat_ws(' ', pergunta, sugestao))) $$`);
    // What a caller types (web-search syntax), in either language.
    await q.query(`
      CREATE FUNCTION ${s}.question_search_query(q text) RETURNS tsquery
        LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
        AS $$ SELECT websearch_to_tsquery('${schema}.openq_pt'::regconfig, ${s}.question_search_pt(q))
                  || websearch_to_tsquery('${schema}.openq_en'::regconfig, ${s}.question_search_en(q)) $$`);
    // The same with the last word as a prefix (`head` is the text before it; a word of letters and digits).
    await q.query(`
      CREATE FUNCTION ${s}.question_search_prefix(head text, last text) RETURNS tsquery
        LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
        AS $$ SELECT (websearch_to_tsquery('${schema}.openq_pt'::regconfig, ${s}.question_search_pt(head))
                      && to_tsquery('${schema}.openq_pt'::regconfig, ${s}.question_search_pt(last) || ':*'))
                  || (websearch_to_tsquery('${schema}.openq_en'::regconfig, ${s}.question_search_en(head))
                      && to_tsquery('${schema}.openq_en'::regconfig, ${s}.question_search_en(last) || ':*')) $$`);
    await q.query(`
      ALTER TABLE question_view ADD COLUMN search tsvector
        GENERATED ALWAYS AS (${s}.question_search_document(declared->>'pergunta', declared->>'sugestao')) STORED`);
    await q.query(`CREATE INDEX question_view_search ON question_view USING gin (search)`);
    await q.query(`CREATE INDEX question_view_declared ON question_view USING gin (declared jsonb_path_ops)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX question_view_declared`);
    await q.query(`DROP INDEX question_view_search`);
    await q.query(`ALTER TABLE question_view DROP COLUMN search`);
    await q.query(`DROP FUNCTION question_search_prefix(text, text)`);
    await q.query(`DROP FUNCTION question_search_query(text)`);
    await q.query(`DROP FUNCTION question_search_document(text, text)`);
    await q.query(`DROP FUNCTION question_search_en(text)`);
    await q.query(`DROP FUNCTION question_search_pt(text)`);
    await q.query(`DROP TEXT SEARCH CONFIGURATION openq_en`);
    await q.query(`DROP TEXT SEARCH CONFIGURATION openq_pt`);
  }
}
