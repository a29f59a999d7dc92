import type { EntityManager } from 'typeorm';
import type { AskerRole } from '@openq/contracts';
import { MAX_DECISIONS, type TurnDecision } from '../domain';

export interface RecentDecisionsPage {
  /** The project's newest decisions, one per question, up to the block's ceiling of 10. */
  newest: TurnDecision[];
  /** How many questions of the project have a decision. */
  total: number;
}

/**
 * The project's newest decisions for an asker's turn (SPEC §11.2): the latest decision of each
 * question, newest first (`decidedAt` as an instant, then `decisionEventId`, UUID v7), cut to the
 * block's ceiling in SQL; the domain applies the character ceiling. One statement, so the slice and
 * the total come from the same snapshot.
 */
export async function recentDecisionsForTurn(
  manager: EntityManager,
  projectId: string,
): Promise<RecentDecisionsPage> {
  const rows: {
    decision_event_id: string;
    question_id: string;
    pergunta: string;
    resposta: string;
    via_agente: AskerRole | null;
    decided_at: string;
    total: string;
  }[] = await manager.query(
    `WITH latest AS (
       SELECT DISTINCT ON (question_id) decision_event_id, question_id, pergunta, resposta, via_agente, decided_at,
              decided_at::timestamptz AS decided_instant
         FROM context_decision WHERE project_id = $1
        ORDER BY question_id, decided_at::timestamptz DESC, decision_event_id DESC)
     SELECT decision_event_id, question_id, pergunta, resposta, via_agente, decided_at, count(*) OVER () AS total
       FROM latest ORDER BY decided_instant DESC, decision_event_id DESC LIMIT $2`,
    [projectId, MAX_DECISIONS],
  );
  return {
    newest: rows.map((row) => ({
      decisionEventId: row.decision_event_id,
      questionId: row.question_id,
      pergunta: row.pergunta,
      resposta: row.resposta,
      viaAgente: row.via_agente,
      decidedAt: row.decided_at,
    })),
    total: Number(rows[0]?.total ?? 0),
  };
}
