import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SPEC §12.4 (issue #33) question quality: the facts the figures are computed from, one row per
 * question (each event writes only its own columns, so they may land in any order), one per
 * counted ask-once event (§12.3, by the asking role of the event) and one per gate park or resume
 * (paired when read). `openq replay context` rebuilds them from the streams with the other models.
 */
export class ContextQuestionAnalytics1764520000000 implements MigrationInterface {
  name = 'ContextQuestionAnalytics1764520000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE analytics_question (
        project_id text NOT NULL,
        question_id uuid NOT NULL,
        autor text,
        declared_at timestamptz,
        answered_at timestamptz,
        via_agente text,
        accepted boolean,
        withdrawn_at timestamptz,
        amended_at timestamptz,
        PRIMARY KEY (project_id, question_id)
      )`);
    // Each figure is read by its own instant: per project (the route) and across them (the gauges).
    for (const column of ['declared_at', 'answered_at', 'withdrawn_at', 'amended_at']) {
      const name = column.replace('_at', '');
      await q.query(
        `CREATE INDEX analytics_question_${name} ON analytics_question (project_id, ${column}) WHERE ${column} IS NOT NULL`,
      );
      await q.query(
        `CREATE INDEX analytics_question_${name}_all ON analytics_question (${column}) WHERE ${column} IS NOT NULL`,
      );
    }
    await q.query(`
      CREATE TABLE analytics_asker_event (
        event_id uuid PRIMARY KEY,
        project_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('joined', 'precedent')),
        autor text NOT NULL,
        question_id uuid NOT NULL,
        at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX analytics_asker_event_at ON analytics_asker_event (project_id, at)`);
    await q.query(`CREATE INDEX analytics_asker_event_at_all ON analytics_asker_event (at)`);
    await q.query(`
      CREATE TABLE analytics_gate_event (
        event_id uuid PRIMARY KEY,
        project_id text NOT NULL,
        task_id text NOT NULL,
        gate text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('parked', 'resumed')),
        reason text,
        question_ids uuid[] NOT NULL,
        at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX analytics_gate_event_cycle ON analytics_gate_event (project_id, task_id, gate, kind, at)`,
    );
    await q.query(
      `CREATE INDEX analytics_gate_event_parked ON analytics_gate_event (project_id, at) WHERE kind = 'parked'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE analytics_gate_event`);
    await q.query(`DROP TABLE analytics_asker_event`);
    await q.query(`DROP TABLE analytics_question`);
  }
}
