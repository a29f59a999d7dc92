import { isRefusal, type AgentQaVerdictDto, type Refusal } from '@openq/contracts';
import type { CycleTx, Stepped } from '../../cycle-tx';
import { applyAll, decide } from '../../domain/gate-cycle';
import type { QaQuestionDeclarer } from './qa-question-declarer';

export interface VerdictContext {
  projectId: string;
  correlationId: string;
  defaultMaxCorrections: number;
  now: Date;
}

/**
 * `agent.qa.verdict`: one QA round. The round is decided first, in memory; a
 * `needs_user_decision` round then records its new questions through the questions service,
 * links them (with the existing `openQuestionId`s) and parks, unless every one of them is
 * already answered. Only then is anything written, so a refused question leaves the cycle as
 * it was. The same round again changes nothing (`roundId`), and declares nothing twice
 * (its questions' `toolCallId`s are stable).
 */
export async function recordVerdict(
  tx: CycleTx,
  verdict: AgentQaVerdictDto,
  declarer: QaQuestionDeclarer,
  ctx: VerdictContext,
): Promise<Stepped | Refusal> {
  const { projectId, now } = ctx;
  const { roundId, taskId, gate, sessionId, sessionAuthorId, maxCorrections, verdicts } = verdict;
  // Existing questions are locked before the cycle, as an answer to one of them locks them:
  // the answer and the link then never miss each other, and never wait on each other in a circle.
  const existing = verdicts.flatMap((v) =>
    v.veredito === 'needs_user_decision' && v.openQuestionId ? [v.openQuestionId] : [],
  );
  await tx.answers.lock(projectId, existing);
  const state = await tx.cycles.lock({ projectId, taskId, gate });

  const round = decide(
    {
      type: 'recordRound',
      data: {
        projectId,
        taskId,
        gate,
        sessionAuthorId,
        maxCorrections,
        defaultMaxCorrections: ctx.defaultMaxCorrections,
        roundId,
        verdicts,
      },
    },
    state,
    now,
  );
  if (isRefusal(round)) return round;
  const afterRound = applyAll(state, round);
  const request = afterRound?.pendingQuestionRequest;
  if (!afterRound || request?.roundId !== roundId) return tx.commit(state, round);

  const declared = await declarer.declare(
    projectId,
    { taskId, gate, sessionId, correlationId: ctx.correlationId },
    request,
  );
  if (isRefusal(declared)) return declared;
  // New questions: nobody waits on them yet, so locking them after the cycle cannot deadlock.
  await tx.answers.lock(projectId, declared);
  const questionIds = [...new Set([...request.link, ...declared])];
  const answered = await tx.answers.decisionsOf(projectId, questionIds);
  const link = decide({ type: 'questionsLinked', data: { roundId, questionIds, answered } }, afterRound, now);
  if (isRefusal(link)) return link;
  return tx.commit(state, [...round, ...link]);
}
