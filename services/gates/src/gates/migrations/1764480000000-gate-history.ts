import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * [openq] A gate's history (SPEC §11.1: the override, who and why, must be visible there): every
 * event a cycle published, as it went on the wire, appended in the transaction that decided it.
 * Append-only; read newest first per cycle, per task or per project.
 */
export class GateHistory1764480000000 implements MigrationInterface {
  name = 'GateHistory1764480000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE gate_history (
        id bigserial PRIMARY KEY,
        project_id text NOT NULL,
        task_id text NOT NULL,
        gate text NOT NULL CHECK (gate IN ('qa', 'secops')),
        type text NOT NULL,
        data jsonb NOT NULL,
        occurred_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX gate_history_by_cycle ON gate_history (project_id, task_id, gate, id)`);
    await q.query(`CREATE INDEX gate_history_by_project ON gate_history (project_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gate_history`);
  }
}
