import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SPEC §11.2 (ADR 0258 §4, the audit of an agent's answer): the decision index keeps the chat
 * session of the agent that recorded the answer, when it gave one. Null for a click, for an agent
 * that gave none, and for decisions indexed before this column existed (`openq replay context`
 * fills it from the stream).
 */
export class ContextDecisionAgentSession1764470650000 implements MigrationInterface {
  name = 'ContextDecisionAgentSession1764470650000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE context_decision ADD COLUMN agent_session_id text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE context_decision DROP COLUMN agent_session_id`);
  }
}
