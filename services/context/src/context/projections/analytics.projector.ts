import type { EntityManager } from 'typeorm';
import { deferWrite } from '@openq/persistence';
import type {
  DecisionSuperseded,
  EventEnvelope,
  GateRescueParked,
  GateResumed,
  QuestionAnswered,
  QuestionDeclared,
  QuestionWithdrawn,
} from '@openq/contracts';

/**
 * §12.4 question quality: the facts its figures are read from (`analytics.query.ts`). Each event
 * writes only its own columns of the question's row, or a row of its own keyed by its event id, so
 * the consumers may apply them in any order and any number of times; the replay applies the same
 * functions (`context-facts.ts`).
 */
export async function analyticsDeclared(manager: EntityManager, projectId: string, d: QuestionDeclared) {
  await upsertQuestion(manager, projectId, d.questionId, { autor: d.autor, declared_at: d.declaredAt });
}

export async function analyticsAnswered(manager: EntityManager, projectId: string, a: QuestionAnswered) {
  await upsertQuestion(manager, projectId, a.questionId, {
    answered_at: a.answeredAt,
    via_agente: a.viaAgente ?? null,
    accepted: a.aceitouSugestao,
  });
}

export async function analyticsWithdrawn(manager: EntityManager, projectId: string, w: QuestionWithdrawn) {
  await upsertQuestion(manager, projectId, w.questionId, { withdrawn_at: w.withdrawnAt });
}

export async function analyticsSuperseded(manager: EntityManager, projectId: string, s: DecisionSuperseded) {
  await upsertQuestion(manager, projectId, s.questionId, { amended_at: s.supersededAt });
}

/**
 * §12.3 `question.joined` / `question.precedent_offered` (issue #32): counted for the role that
 * asked again (`asker.autor`), at the event's instant. Only the fields SPEC names are read.
 */
export interface AskOnceFact {
  questionId: string;
  asker: { autor: string };
}

export const ASK_ONCE_KINDS = {
  'question.joined': 'joined',
  'question.precedent_offered': 'precedent',
} as const;
export type AskOnceType = keyof typeof ASK_ONCE_KINDS;

export async function analyticsAskOnce(
  manager: EntityManager,
  type: AskOnceType,
  e: EventEnvelope<AskOnceFact>,
): Promise<void> {
  await deferWrite(
    manager,
    `INSERT INTO analytics_asker_event (event_id, project_id, kind, autor, question_id, at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (event_id) DO NOTHING`,
    [e.eventId, e.projectId, ASK_ONCE_KINDS[type], e.data.asker.autor, e.data.questionId, e.occurredAt],
  );
}

/** A gate park or resume at its envelope's instant; paired per cycle when read. */
export async function analyticsGate(
  manager: EntityManager,
  e: EventEnvelope<GateRescueParked> | EventEnvelope<GateResumed>,
  kind: 'parked' | 'resumed',
): Promise<void> {
  const reason = kind === 'parked' ? (e.data as GateRescueParked).reason : null;
  await deferWrite(
    manager,
    `INSERT INTO analytics_gate_event (event_id, project_id, task_id, gate, kind, reason, question_ids, at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::uuid[], $8) ON CONFLICT (event_id) DO NOTHING`,
    [e.eventId, e.projectId, e.data.taskId, e.data.gate, kind, reason, e.data.questionIds, e.occurredAt],
  );
}

type QuestionColumns = Partial<{
  autor: string;
  declared_at: string;
  answered_at: string;
  via_agente: string | null;
  accepted: boolean;
  withdrawn_at: string;
  amended_at: string;
}>;

/** Inserts the question's row or fills in `columns`; a column already written keeps its first value. */
async function upsertQuestion(
  manager: EntityManager,
  projectId: string,
  questionId: string,
  columns: QuestionColumns,
): Promise<void> {
  const names = Object.keys(columns) as (keyof QuestionColumns)[];
  // The answer's three columns go together: `via_agente` null is a click, so it follows `answered_at`.
  const keep = names.includes('answered_at')
    ? names.map(
        (n) =>
          `${n} = CASE WHEN analytics_question.answered_at IS NULL THEN EXCLUDED.${n} ELSE analytics_question.${n} END`,
      )
    : names.map((n) => `${n} = COALESCE(analytics_question.${n}, EXCLUDED.${n})`);
  await deferWrite(
    manager,
    `INSERT INTO analytics_question (project_id, question_id, ${names.join(', ')})
     VALUES ($1, $2, ${names.map((_, i) => `$${i + 3}`).join(', ')})
     ON CONFLICT (project_id, question_id) DO UPDATE SET ${keep.join(', ')}`,
    [projectId, questionId, ...names.map((n) => columns[n])],
    `analytics_question:${projectId}:${questionId}`,
  );
}
