import { isRefusal, type AgentQaVerdictDto, type Refusal } from '@openq/contracts';
import type { Decided } from '@openq/messaging';
import type { QuestionStatusSource } from '@openq/platform';
import type { GateTransaction } from '../../gate-transaction';
import {
  answeredCitations,
  citationsToCheck,
  citedQuestionIds,
  decide,
  withdrawnCitations,
  type CitedQuestion,
  type GateCycle,
  type GateEvent,
} from '../../domain/gate-cycle';
import { settledAmong, type SettledQuestions } from '../../store/answered-questions.store';
import type { DeclaredQuestions } from './prepare-verdict';
import { decideRound, type VerdictContext } from './decide-round';
import { roundVerdicts } from './round-verdicts';

export type { VerdictContext } from './decide-round';
import { citedQuestion } from './cited-questions';

/**
 * `agent.qa.verdict`: one QA round. The questions a parking round cites are looked up first
 * (§11.1): an answer this service heard of is enough; any other is asked of the questions
 * service, whose log is the truth (§11.2: it may have committed a question or an answer whose
 * event has not reached us yet). A question not in the project refuses the round
 * (`gate.verdict_rejected`). Then the round is decided, in memory, on the locked cycle; a
 * `needs_user_decision` round links its new questions (declared in the questions service before
 * this transaction, `prepareVerdict`: no call is made while the cycle is locked) and the
 * existing `openQuestionId`s, and parks, unless every one of them is already answered or
 * withdrawn (§11.5). Only then is anything written, so a refused question leaves the cycle as it
 * was. The same round again changes nothing (`roundId`), and declares nothing twice (its
 * questions' `toolCallId`s are stable).
 */
export async function recordVerdict(
  tx: GateTransaction,
  verdict: AgentQaVerdictDto,
  questions: { declared: DeclaredQuestions; owner: QuestionStatusSource },
  ctx: VerdictContext,
): Promise<Decided<GateCycle | null, GateEvent> | Refusal> {
  const { projectId, now } = ctx;
  const { roundId, taskId, gate } = verdict;
  const verdicts = roundVerdicts(verdict);
  // The questions are locked before the cycle, as an answer to one of them locks them: the answer
  // and the link then never miss each other, and never wait on each other in a circle. Those the
  // round cites, and those declared for it before this transaction, in one statement sent ahead;
  // then the cycle, locked, and what is settled of them, in one more (issue #29).
  const locked = [...new Set([...citedQuestionIds(verdicts), ...questions.declared.all()])];
  await tx.answers.lock(projectId, locked);
  const { cycle: state, settled: known } = await tx.cycles.lockWithSettled(
    { projectId, taskId, gate },
    locked,
  );
  const citations = await lookUpCitations(
    known,
    questions.owner,
    projectId,
    citationsToCheck(state, roundId, verdicts),
    ctx.correlationId,
  );

  const decided = decideRound(state, verdict, citations, ctx);
  if (isRefusal(decided)) return decided;
  const { round, afterRound, request } = decided;
  if (!afterRound || !request) return tx.commit(state, round);

  // Declared before the transaction (`prepareVerdict`): nothing here waits on another service.
  const declared = questions.declared.idsOf(request);
  if (isRefusal(declared)) return declared;
  const questionIds = [...new Set([...request.link, ...declared])];
  // Every one of them was locked before the cycle (`all()` holds what `idsOf` may give).
  const unlocked = questionIds.filter((id) => !locked.includes(id));
  if (unlocked.length > 0)
    throw new Error(`questions ${unlocked.join(', ')} were not locked before the cycle`);
  const settled = settledAmong(known, questionIds);
  // An answer the owner has committed counts, whether or not its event has reached us (§11.1).
  const answered = { ...answeredCitations(citations), ...settled.decisions };
  // §11.5 so does a withdrawal: the cycle does not wait on a question that needs no answer.
  const withdrawn = [...withdrawnCitations(citations), ...settled.withdrawn];
  const link = decide(
    { type: 'questionsLinked', data: { roundId, questionIds, answered, withdrawn } },
    afterRound,
    now,
  );
  if (isRefusal(link)) return link;
  return tx.commit(state, [...round, ...link]);
}

/**
 * What is known of each cited question, read under its lock: answered or withdrawn when this
 * service heard so (the common path: no call), otherwise what the owner's log says.
 */
async function lookUpCitations(
  heard: SettledQuestions,
  owner: QuestionStatusSource,
  projectId: string,
  questionIds: readonly string[],
  correlationId: string,
): Promise<Record<string, CitedQuestion>> {
  if (questionIds.length === 0) return {};
  const { decisions, withdrawn } = settledAmong(heard, questionIds);
  const citations: Record<string, CitedQuestion> = {};
  for (const [id, decisionEventId] of Object.entries(decisions))
    citations[id] = { status: 'answered', decisionEventId };
  for (const id of withdrawn) citations[id] = { status: 'withdrawn' };
  const unheard = questionIds.filter((id) => !(id in citations));
  for (const item of await owner.statusOf(projectId, unheard, correlationId)) {
    citations[item.questionId] = citedQuestion(item);
  }
  return citations;
}
