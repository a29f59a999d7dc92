import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SPEC §11.5: the session author may supersede a decision an agent recorded
 * (`decision.superseded`, written with the new decision's own `decision.recorded`). The log admits
 * the new type. "One decision per question" becomes "at most one an agent recorded and at most one
 * the session author recorded", and one supersession per question: with the decider's rule (only
 * an agent's decision is superseded, once) the indexes keep a question at two decisions at most
 * under any concurrency, as `question_log_one_decision` kept it at one (the question's lock
 * serialises the doors; the indexes are the backstop). The view keeps the supersession.
 * Rows written before stay valid: each has one decision.
 */
export class DecisionSuperseded1764495000000 implements MigrationInterface {
  name = 'DecisionSuperseded1764495000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE question_log DROP CONSTRAINT question_log_type_check`);
    await q.query(`
      ALTER TABLE question_log ADD CONSTRAINT question_log_type_check
        CHECK (type IN ('question.declared', 'question.answered', 'decision.recorded', 'question.withdrawn',
                        'decision.superseded'))`);
    await q.query(`DROP INDEX question_log_one_decision`);
    await q.query(`
      CREATE UNIQUE INDEX question_log_one_agent_decision ON question_log (question_id)
        WHERE type = 'decision.recorded' AND data->>'viaAgente' IS NOT NULL`);
    await q.query(`
      CREATE UNIQUE INDEX question_log_one_user_decision ON question_log (question_id)
        WHERE type = 'decision.recorded' AND data->>'viaAgente' IS NULL`);
    await q.query(
      `CREATE UNIQUE INDEX question_log_one_supersession ON question_log (question_id) WHERE type = 'decision.superseded'`,
    );
    await q.query(`ALTER TABLE question_view ADD COLUMN amended jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE question_view DROP COLUMN amended`);
    await q.query(`DROP INDEX question_log_one_supersession`);
    await q.query(`DROP INDEX question_log_one_user_decision`);
    await q.query(`DROP INDEX question_log_one_agent_decision`);
    await q.query(
      `CREATE UNIQUE INDEX question_log_one_decision ON question_log (question_id) WHERE type = 'decision.recorded'`,
    );
    await q.query(`ALTER TABLE question_log DROP CONSTRAINT question_log_type_check`);
    await q.query(`
      ALTER TABLE question_log ADD CONSTRAINT question_log_type_check
        CHECK (type IN ('question.declared', 'question.answered', 'decision.recorded', 'question.withdrawn'))`);
  }
}
