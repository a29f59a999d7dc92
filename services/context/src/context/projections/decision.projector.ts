import type { EntityManager } from 'typeorm';
import { deferWrite } from '@openq/persistence';
import type { DecisionRecorded } from '@openq/contracts';

/**
 * `decision.recorded` into the decision index: the record is self-contained (context = the
 * pergunta, choice = the resposta, consequences = the afeta, actor = who answered, §11.6 who
 * clicked for them (`answeredBy`), and the recording agent's session when there was one), so the index needs no join with the question.
 * Records never change: a second delivery inserts nothing. Nothing reads the insert's result, so it
 * goes with the transaction's next statement (`deferWrite`).
 */
export async function projectDecisionRecorded(
  manager: EntityManager,
  projectId: string,
  decision: DecisionRecorded,
): Promise<void> {
  const { consequences } = decision;
  await deferWrite(
    manager,
    `INSERT INTO context_decision (decision_event_id, project_id, question_id, pergunta, resposta, respondida_por,
                                   via_agente, decided_at, tarefas, historias, regras, agent_session_id, answered_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11::jsonb, $12, $13)
     ON CONFLICT (decision_event_id) DO NOTHING`,
    [
      decision.decisionEventId,
      projectId,
      decision.questionId,
      decision.context,
      decision.choice,
      decision.actor.id,
      decision.viaAgente,
      decision.decidedAt,
      JSON.stringify(consequences.tarefas),
      JSON.stringify(consequences.historias),
      JSON.stringify(consequences.regras),
      decision.agentSessionId ?? null,
      decision.answeredBy ?? null,
    ],
    `context_decision:${decision.decisionEventId}`,
  );
}
