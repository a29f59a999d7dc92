import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The context service's read models. All are caches of facts other parts publish (stories and
 * tasks from the engine, decisions and questions from the questions service), keyed by project.
 *
 * Order safety: a JetStream consumer hands messages to up to 16 concurrent transactions and a nak'd
 * message comes back later, so facts may land out of order. Every mutable group of columns keeps
 * the version of the fact that wrote it — `(occurred_at, event_id)` of its envelope (event ids are
 * UUID v7, so ties on the instant still follow time) — and a write applies only when it is newer.
 * Story content has its own version because a correction (this service's own write) also sets it:
 * an older upsert delivered after a correction leaves the corrected content alone.
 */
export class ContextReadModels1764470300000 implements MigrationInterface {
  name = 'ContextReadModels1764470300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE context_story (
        project_id text NOT NULL,
        story_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('draft', 'ready', 'in_progress', 'done')),
        archived boolean NOT NULL,
        regras jsonb NOT NULL,
        task_ids jsonb NOT NULL,
        snapshot_at timestamptz NOT NULL,
        snapshot_event_id uuid NOT NULL,
        title text NOT NULL,
        rf jsonb NOT NULL,
        rnf jsonb NOT NULL,
        dod jsonb NOT NULL,
        dor jsonb NOT NULL,
        content_at timestamptz NOT NULL,
        content_event_id uuid NOT NULL,
        PRIMARY KEY (project_id, story_id)
      )`);
    await q.query(`CREATE INDEX context_story_by_task ON context_story USING gin (task_ids)`);

    await q.query(`
      CREATE TABLE context_task (
        project_id text NOT NULL,
        task_id text NOT NULL,
        status text CHECK (status IN ('todo', 'in_progress', 'in_review', 'done', 'cancelled')),
        status_at timestamptz,
        status_event_id uuid,
        story_id text,
        story_at timestamptz,
        story_event_id uuid,
        PRIMARY KEY (project_id, task_id)
      )`);
    await q.query(
      `CREATE INDEX context_task_by_story ON context_task (project_id, story_id) WHERE story_id IS NOT NULL`,
    );

    // One row per decision record; consequences (the question's afeta) indexed for lookups by task,
    // by story and by rule. Decision records are immutable: a redelivery inserts nothing.
    await q.query(`
      CREATE TABLE context_decision (
        decision_event_id uuid PRIMARY KEY,
        project_id text NOT NULL,
        question_id uuid NOT NULL,
        pergunta text NOT NULL,
        resposta text NOT NULL,
        respondida_por text NOT NULL,
        via_agente text,
        decided_at text NOT NULL,
        tarefas jsonb NOT NULL,
        historias jsonb NOT NULL,
        regras jsonb NOT NULL
      )`);
    await q.query(`CREATE INDEX context_decision_by_project ON context_decision (project_id, question_id)`);
    await q.query(`CREATE INDEX context_decision_by_task ON context_decision USING gin (tarefas)`);
    await q.query(`CREATE INDEX context_decision_by_story ON context_decision USING gin (historias)`);
    await q.query(`CREATE INDEX context_decision_by_rule ON context_decision USING gin (regras)`);

    // A question row may be born from its answer (the two consumers race): declaration columns are
    // null until question.declared lands. Open ⇔ declared and not answered.
    await q.query(`
      CREATE TABLE context_question (
        project_id text NOT NULL,
        question_id uuid NOT NULL,
        pergunta text,
        sugestao text,
        declared_at timestamptz,
        answered_at timestamptz,
        PRIMARY KEY (project_id, question_id)
      )`);
    await q.query(`
      CREATE INDEX context_question_open ON context_question (project_id, declared_at DESC, question_id DESC)
        WHERE answered_at IS NULL AND declared_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE context_question`);
    await q.query(`DROP TABLE context_decision`);
    await q.query(`DROP TABLE context_task`);
    await q.query(`DROP TABLE context_story`);
  }
}
