import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Gate cycles and the answers the gates service has heard of.
 *
 * `gate_cycle.cycle` is the domain state (`GateCycle`, jsonb); the other columns are copies of
 * it kept for queries: the sweep's (state, last activity, last re-dispatch) and the answer
 * routing (`waiting_on`: the open questions a `user_decision` park waits on).
 * `answered_questions` remembers every `question.answered` of the project, so an answer that
 * arrives before the verdict that links its question means the cycle never parks.
 */
export class GateCycles1764470200000 implements MigrationInterface {
  name = 'GateCycles1764470200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE gate_cycle (
        project_id text NOT NULL,
        task_id text NOT NULL,
        gate text NOT NULL CHECK (gate IN ('qa', 'secops')),
        state text NOT NULL CHECK (state IN ('running', 'approved', 'changes_requested', 'blocked', 'parked')),
        parked_reason text CHECK (parked_reason IN ('idle', 'user_decision')),
        waiting_on uuid[] NOT NULL DEFAULT '{}',
        last_activity_at timestamptz NOT NULL,
        last_redispatch_at timestamptz,
        cycle jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, task_id, gate),
        CHECK ((state = 'parked') = (parked_reason IS NOT NULL))
      )`);
    // The sweep reads running cycles oldest activity first.
    await q.query(
      `CREATE INDEX gate_cycle_running_by_activity ON gate_cycle (last_activity_at, project_id, task_id, gate) WHERE state = 'running'`,
    );
    await q.query(
      `CREATE INDEX gate_cycle_parked ON gate_cycle (project_id, updated_at) WHERE state = 'parked'`,
    );
    await q.query(`CREATE INDEX gate_cycle_waiting_on ON gate_cycle USING gin (waiting_on)`);
    await q.query(`
      CREATE TABLE answered_questions (
        project_id text NOT NULL,
        question_id uuid NOT NULL,
        decision_event_id uuid NOT NULL,
        answered_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, question_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE answered_questions`);
    await q.query(`DROP TABLE gate_cycle`);
  }
}
