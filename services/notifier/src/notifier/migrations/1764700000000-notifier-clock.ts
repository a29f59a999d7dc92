import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #17 the clock of a question: each project's policy, each person's working time, the
 * project members the notifier has seen (for "escalate to the maintainers"), whether each known
 * question is still open and when its clock next has something to say, and the notices given —
 * one row per notice key under a primary key: a reminder, a due notice or an escalation is given
 * once, whatever the replicas, restarts or ticks.
 */
export class NotifierClock1764700000000 implements MigrationInterface {
  name = 'NotifierClock1764700000000';

  async up(q: QueryRunner): Promise<void> {
    // Rows from before this migration: whether they were answered is not known here, so the
    // clock leaves them alone ('untracked'); an answer or a withdrawal still closes them.
    await q.query(`
      ALTER TABLE notifier_question
        ADD COLUMN status text NOT NULL DEFAULT 'untracked'
          CHECK (status IN ('open', 'answered', 'withdrawn', 'untracked')),
        ADD COLUMN closed_at timestamptz,
        ADD COLUMN next_clock_at timestamptz`);
    await q.query(`ALTER TABLE notifier_question ALTER COLUMN status SET DEFAULT 'open'`);
    await q.query(
      `CREATE INDEX notifier_question_clock ON notifier_question (next_clock_at NULLS FIRST) WHERE status = 'open'`,
    );
    await q.query(
      `CREATE INDEX notifier_question_open ON notifier_question (project_id) WHERE status = 'open'`,
    );
    await q.query(`
      CREATE TABLE clock_policy (
        project_id text PRIMARY KEY,
        policy jsonb NOT NULL,
        updated_by text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE working_time (
        user_id text PRIMARY KEY,
        working_time jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE notifier_member (
        project_id text NOT NULL,
        user_id text NOT NULL,
        role text NOT NULL CHECK (role IN ('viewer', 'developer', 'maintainer', 'owner')),
        seen_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, user_id)
      )`);
    await q.query(`
      CREATE TABLE clock_notice (
        key text PRIMARY KEY,
        question_id uuid NOT NULL,
        project_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('reminder', 'due', 'escalation')),
        step integer NOT NULL,
        recipient_user_id text NOT NULL,
        due_at timestamptz NOT NULL,
        at timestamptz NOT NULL,
        given_at timestamptz NOT NULL DEFAULT now(),
        coalesced boolean NOT NULL DEFAULT false
      )`);
    await q.query(`CREATE INDEX clock_notice_question ON clock_notice (question_id, at)`);
    // A clock notice still pending when its question closes is not sent: 'skipped', with why.
    await q.query(`ALTER TABLE notification_delivery DROP CONSTRAINT notification_delivery_status_check`);
    await q.query(
      `ALTER TABLE notification_delivery ADD CONSTRAINT notification_delivery_status_check
         CHECK (status IN ('pending', 'sent', 'dead', 'skipped'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM notification_delivery WHERE status = 'skipped'`);
    await q.query(`ALTER TABLE notification_delivery DROP CONSTRAINT notification_delivery_status_check`);
    await q.query(
      `ALTER TABLE notification_delivery ADD CONSTRAINT notification_delivery_status_check
         CHECK (status IN ('pending', 'sent', 'dead'))`,
    );
    await q.query(`DROP TABLE clock_notice`);
    await q.query(`DROP TABLE notifier_member`);
    await q.query(`DROP TABLE working_time`);
    await q.query(`DROP TABLE clock_policy`);
    await q.query(`DROP INDEX notifier_question_open`);
    await q.query(`DROP INDEX notifier_question_clock`);
    await q.query(
      `ALTER TABLE notifier_question DROP COLUMN next_clock_at, DROP COLUMN closed_at, DROP COLUMN status`,
    );
  }
}
