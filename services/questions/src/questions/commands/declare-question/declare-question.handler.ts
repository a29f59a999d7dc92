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
import { likenessMemo } from '../../domain/same-question';
import { affectsFromWire } from '@openq/contracts';
import { precedentToWire, QuestionLog } from '../../store/question-log.store';
import { questionTransaction } from '../../questions-transaction';
import { askProbe, candidatesFor, earlierCalls, lockAskers } from '../../store/ask-once.store';

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
 * own earlier declarations that share a band with it. Everything decided is saved at once,
 * set-based (docs/decider-kit.md).
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
  const probes = requests.map((r) => askProbe(r.projectId, matched(r) ? r.input.question : ''));
  const candidates = await candidatesFor(manager, probes);
  const known = [...earlier.values()].map((e) => e.questionId);
  // Each text of the group is folded once, however many pairs it is in.
  const likeness = likenessMemo();
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
  // The group's own declarations so far, found the way the index finds committed ones: by a
  // MinHash band they share (salted with the project), so a group of many declarations in one
  // project compares each with its near ones, not with all the earlier ones.
  const declaredHere = new GroupBands();
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
    const probe = probes[index]!;
    const pool = [...mine, ...declaredHere.near(probe.bands)].map((id) => batch.stateOf(id));
    const outcome = askOnce(projectId, input, pool, likeness);
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
    if (input.origin === 'tool') declaredHere.add(questionId, probe.bands);
    results.push(() => {
      if (!entry.stored?.state) throw new Error('a declaration left no question');
      return { questionId: entry.stored.state.declared.questionId, created: entry.stored.events.length > 0 };
    });
  }
  await batch.commit();
  return results.map(resolve);
}

/** A group's declarations by their ask bands, each found in the order it was declared. */
class GroupBands {
  private readonly byBand = new Map<string, string[]>();
  private readonly order = new Map<string, number>();

  add(questionId: string, bands: readonly string[]): void {
    this.order.set(questionId, this.order.size);
    for (const band of bands) {
      const ids = this.byBand.get(band);
      if (ids) ids.push(questionId);
      else this.byBand.set(band, [questionId]);
    }
  }

  /** The declarations sharing a band with these, earliest first. */
  near(bands: readonly string[]): string[] {
    const found = new Set<string>();
    for (const band of bands) for (const id of this.byBand.get(band) ?? []) found.add(id);
    return [...found].sort((a, b) => this.order.get(a)! - this.order.get(b)!);
  }
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
