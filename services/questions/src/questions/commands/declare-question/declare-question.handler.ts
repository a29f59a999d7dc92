import type { EntityManager } from 'typeorm';
import {
  isRefusal,
  newId,
  type Afeta,
  type DeclareQuestionReply,
  type QuestionAuthor,
  type QuestionOrigin,
} from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import type { DeclareInput, Question, QuestionCommand } from '../../domain/question';
import { askOnce, askedOf, askerOf, precedentOf } from '../../domain/ask-once';
import { likeness } from '../../domain/same-question';
import { affectsFromWire } from '@openq/contracts';
import { precedentToWire, QuestionLog } from '../../store/question-log.store';
import { questionTransaction } from '../../questions-transaction';
import { candidatesFor, earlierCalls, lockAskers } from '../../store/ask-once.store';

export type DeclareResult = DeclareQuestionReply;

/**
 * A declaration as the doors send it, in the wire's words (§3.1 `autor`, `pergunta`, `sugestao`,
 * `afeta`; §12.3 `insistir` with `motivo`).
 */
export interface DeclarationInput {
  sessionId: string;
  sessionAuthorId: string;
  autor: QuestionAuthor;
  pergunta: string;
  sugestao?: string | null;
  afeta: Afeta;
  origin: QuestionOrigin;
  toolCallId?: string | null;
  insistir?: true;
  motivo?: string;
}

/** One declaration to make: its project, what is declared, and its caller's outbox. */
export interface DeclareRequest {
  projectId: string;
  input: DeclarationInput;
  outbox: OutboxWriter;
}

/** The domain's declaration for one the doors sent (optional fields only when sent). */
function declareInputOf(input: DeclarationInput): DeclareInput {
  return {
    sessionId: input.sessionId,
    sessionAuthorId: input.sessionAuthorId,
    askedBy: input.autor,
    question: input.pergunta,
    ...(input.sugestao !== undefined ? { suggestion: input.sugestao } : {}),
    affects: affectsFromWire(input.afeta),
    origin: input.origin,
    ...(input.toolCallId !== undefined ? { toolCallId: input.toolCallId } : {}),
    ...(input.insistir !== undefined ? { insist: input.insistir } : {}),
    ...(input.motivo !== undefined ? { reason: input.motivo } : {}),
  };
}

const callKey = (projectId: string, toolCallId: string) => `${projectId}\u0000${toolCallId}`;

/**
 * Declares questions (any door: tool event, internal route, QA verdict, analyst; one, or a group
 * of them in a group commit) through the questions slice of the decider kit. The same
 * `toolCallId` in a project always yields the same outcome. §12.3 an asker's tool call is first
 * matched against the project's questions (docs/decisions.md "Ask once"): under the project's
 * declaration lock, the earlier outcome of the same tool call is read; the most alike open or
 * decided questions are found (MinHash bands, ranked by `pg_trgm`), and those that ask the same
 * thing are locked (an answer cannot slip in between) and loaded from the log;
 * `askOnce` then says declare, join (`question.joined` on the open one) or precedent
 * (`question.precedent_offered` on the decided one, no new question), also against the group's
 * own earlier declarations. Everything decided is saved at once, set-based (docs/decider-kit.md).
 */
export async function declareQuestions(
  manager: EntityManager,
  sent: readonly DeclareRequest[],
  now: Date,
): Promise<DeclareResult[]> {
  if (sent.length === 0) return [];
  const requests = sent.map(({ projectId, input, outbox }) => ({
    projectId,
    input: declareInputOf(input),
    outbox,
  }));
  const log = new QuestionLog(manager);
  const asking = requests.filter((r) => r.input.origin === 'tool');
  const calls = requests.flatMap(({ projectId, input }) =>
    input.toolCallId ? [{ projectId, toolCallId: input.toolCallId }] : [],
  );
  if (asking.length > 0)
    await lockAskers(
      manager,
      asking.map((r) => r.projectId),
    );
  const earlier = await earlierCalls(manager, calls);
  // Only an asker's new tool call is matched: a retried one has its outcome already.
  const matched = (r: (typeof requests)[number]) =>
    r.input.origin === 'tool' &&
    !(r.input.toolCallId && earlier.has(callKey(r.projectId, r.input.toolCallId)));
  const candidates = await candidatesFor(
    manager,
    requests.map((r) => ({ projectId: r.projectId, question: matched(r) ? r.input.question : '' })),
  );
  const known = [...earlier.values()].map((e) => e.questionId);
  // Only a candidate that asks the same thing is locked and read from the log (the decision is
  // taken again on what the log says under the lock): most declarations lock and read nothing.
  const alike = requests.map((r, i) =>
    (candidates[i] ?? []).filter((c) => likeness(r.input, c).same).map((c) => c.questionId),
  );
  const found = [...new Set([...alike.flat(), ...known])];
  if (found.length > 0) await log.lockQuestions(found);
  const loaded = found.length > 0 ? await log.loadMany(found) : new Map<string, Question | null>();
  const batch = questionTransaction(manager, requests[0]!.outbox, log).batch(
    loaded as Map<string, Question | null>,
  );

  const results: (DeclareResult | (() => DeclareResult))[] = [];
  const byCall = new Map<string, number>();
  const declaredHere = new Map<string, string[]>();
  for (const { projectId, input, outbox } of requests) {
    const key = input.toolCallId ? callKey(projectId, input.toolCallId) : null;
    const previous = key ? earlier.get(key) : undefined;
    if (previous) {
      results.push(again(previous.type, batch.stateOf(previous.questionId)));
      continue;
    }
    const first = key ? byCall.get(key) : undefined;
    if (first !== undefined) {
      results.push(() => ({ ...resolve(results[first]!), created: false }));
      continue;
    }
    if (key) byCall.set(key, results.length);
    const index = results.length;
    const mine = alike[index] ?? [];
    const pool = [...mine, ...(declaredHere.get(projectId) ?? [])].map((id) => batch.stateOf(id));
    const outcome = askOnce(projectId, input, pool);
    const decide = (questionId: string, command: QuestionCommand) => {
      const entry = batch.decide(questionId, command, now, outbox);
      if (isRefusal(entry)) throw new Error(`declaration refused: ${entry.reason}: ${entry.message}`);
      return entry;
    };
    if (outcome.kind === 'join') {
      decide(outcome.questionId, {
        type: 'join',
        projectId,
        asker: askerOf(input),
        asked: askedOf(input),
        similarity: outcome.similarity,
      });
      results.push({ questionId: outcome.questionId, created: false, joined: true });
      continue;
    }
    if (outcome.kind === 'precedent') {
      decide(outcome.questionId, {
        type: 'offer_precedent',
        projectId,
        asker: askerOf(input),
        similarity: outcome.similarity,
      });
      const precedent = precedentToWire(precedentOf(batch.stateOf(outcome.questionId)!)!);
      results.push({ questionId: precedent.questionId, created: false, precedent });
      continue;
    }
    const questionId = newId();
    const declaration = outcome.precedentOf ? { ...input, precedentOf: outcome.precedentOf } : input;
    const entry = decide(questionId, { type: 'declare', projectId, questionId, declaration });
    if (input.origin === 'tool')
      declaredHere.set(projectId, [...(declaredHere.get(projectId) ?? []), questionId]);
    results.push(() => {
      if (!entry.stored?.state) throw new Error('a declaration left no question');
      return { questionId: entry.stored.state.declared.questionId, created: entry.stored.events.length > 0 };
    });
  }
  await batch.commit();
  return results.map(resolve);
}

const resolve = (r: DeclareResult | (() => DeclareResult)): DeclareResult =>
  typeof r === 'function' ? r() : r;

/** The outcome a tool call had the first time, told again. */
function again(
  type: 'question.declared' | 'question.joined' | 'question.precedent_offered',
  question: Question | null,
): DeclareResult {
  if (!question) throw new Error('a tool call was recorded, but its question cannot be read');
  const questionId = question.declared.questionId;
  if (type === 'question.declared') return { questionId, created: false };
  if (type === 'question.joined') return { questionId, created: false, joined: true };
  const precedent = precedentOf(question);
  if (!precedent) throw new Error('a precedent was offered from a question without a decision');
  return { questionId, created: false, precedent: precedentToWire(precedent) };
}

/** One declaration in the caller's transaction (an event through the inbox): a group of one. */
export async function declareQuestion(
  manager: EntityManager,
  outbox: OutboxWriter,
  projectId: string,
  input: DeclarationInput,
  now: Date,
): Promise<DeclareResult> {
  const [result] = await declareQuestions(manager, [{ projectId, input, outbox }], now);
  return result!;
}
