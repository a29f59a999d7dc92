import { fold, isRefusal, type AgentQaVerdictDto, type Refusal } from '@openq/contracts';
import {
  decide,
  gateCycle,
  type CitedQuestion,
  type GateCycle,
  type GateEvent,
  type QuestionRequest,
} from '../../domain/gate-cycle';
import { roundVerdicts } from './round-verdicts';

/** What a verdict is decided with, besides the cycle and the verdict. */
export interface VerdictContext {
  projectId: string;
  correlationId: string;
  defaultMaxCorrections: number;
  now: Date;
}

/**
 * The round decided on `state`, in memory: its events, the cycle after them, and the questions
 * it asks for when it parks (null otherwise, and for a round already recorded). The verdict's
 * transaction decides on the locked cycle; `prepareVerdict` on the cycle read before it, to know
 * which questions to declare.
 */
export function decideRound(
  state: GateCycle | null,
  verdict: AgentQaVerdictDto,
  citations: Readonly<Record<string, CitedQuestion>>,
  ctx: Pick<VerdictContext, 'projectId' | 'defaultMaxCorrections' | 'now'>,
): { round: GateEvent[]; afterRound: GateCycle | null; request: QuestionRequest | null } | Refusal {
  const { roundId, taskId, gate, sessionAuthorId, maxCorrections } = verdict;
  const round = decide(
    {
      type: 'recordRound',
      data: {
        projectId: ctx.projectId,
        taskId,
        gate,
        sessionAuthorId,
        maxCorrections,
        defaultMaxCorrections: ctx.defaultMaxCorrections,
        roundId,
        verdicts: roundVerdicts(verdict),
        citations,
      },
    },
    state,
    ctx.now,
  );
  if (isRefusal(round)) return round;
  const afterRound = fold(gateCycle, round, state);
  const pending = afterRound?.pendingQuestionRequest;
  return { round, afterRound, request: pending?.roundId === roundId ? pending : null };
}
