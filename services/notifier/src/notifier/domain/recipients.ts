import type { NotificationKind } from '@openq/contracts';
import type { Affects, NotifiedQuestion, Wait } from './notification';
import { waitWords } from '../adapters/channels/templates/wording';

/*
 * Who is told what, for each of the four events the notifier hears (issue #17). Pure: the
 * questions it needs are handed in (the notifier's own copy of question.declared), time and ids
 * too. A notification tells a person; it never answers or resumes anything (SPEC §11.6). The
 * facts are the domain's own words, mapped from the wire's events at the edge (issue #31).
 */

/** What the notifier keeps of a declared question. */
export interface KnownQuestion {
  questionId: string;
  sessionAuthorId: string;
  /** The asking agent's role. */
  askedBy: string;
  /** The question's words. */
  question: string;
  suggestion: string | null;
  affects: Affects;
  origin: string;
}

/** An answer, as the notifier hears it. */
export interface AnswerGiven {
  questionId: string;
  answer: string;
  /** Who the answer is recorded for: the session author. */
  respondent: string;
  /** The agent that recorded it from the chat; null for a person's own click. */
  viaAgent: string | null;
}

/** A cycle parked (on the user's decision, or idle: no questions). */
export interface GateParked {
  taskId: string;
  gate: string;
  reason: string;
  questionIds: string[];
}

/** A parked cycle runs again; `withdrawnQuestionIds`: the park's questions withdrawn. */
export interface GateResumedAgain {
  taskId: string;
  gate: string;
  trigger: string;
  questionIds: string[];
  withdrawnQuestionIds?: string[];
}

export type NotifierFact =
  | { type: 'question.declared'; data: KnownQuestion }
  | { type: 'question.answered'; data: AnswerGiven }
  | { type: 'gate.rescue_parked'; data: GateParked }
  | { type: 'gate.resumed'; data: GateResumedAgain };

/** One notification for one person, before it is addressed to their channels. */
export interface PlannedNotification {
  recipientUserId: string;
  kind: NotificationKind;
  questions: NotifiedQuestion[];
  blocks: string[];
  waits: Wait[];
  gate?: { taskId: string; gate: string; trigger?: string };
}

/** The plan, or the questions it needs and does not know yet (their declaration is still on its way). */
export type Plan = { notifications: PlannedNotification[] } | { missing: string[] };

/** "QA gate on T-101" (English: `blocks` is what a webhook's receiver reads; channels say `waits`). */
export function gateBlock(gate: string, taskId: string): string {
  return waitWords({ kind: 'gate', gate, taskId }, 'en');
}

/** What a question holds up, from where it was born and what it affects. */
export function questionWaits(q: KnownQuestion): Wait[] {
  const tasks = q.affects.tasks;
  if (q.origin === 'qa_verdict') return tasks.map((taskId) => ({ kind: 'gate', gate: 'qa', taskId }));
  if (q.origin === 'analyst') return tasks.map((taskId) => ({ kind: 'analyst', taskId }));
  return tasks.map((taskId) => ({ kind: 'work', taskId }));
}

/** The same in English words. */
export function questionBlocks(q: KnownQuestion): string[] {
  return questionWaits(q).map((w) => waitWords(w, 'en'));
}

export function notifiedQuestion(q: KnownQuestion, answer?: string): NotifiedQuestion {
  return {
    questionId: q.questionId,
    question: q.question,
    suggestion: q.suggestion,
    askedBy: q.askedBy,
    affects: q.affects,
    ...(answer !== undefined ? { answer } : {}),
  };
}

/** Groups questions by their session author, first-seen order kept. */
function byAuthor(questions: KnownQuestion[]): Map<string, KnownQuestion[]> {
  const groups = new Map<string, KnownQuestion[]>();
  for (const q of questions) {
    const group = groups.get(q.sessionAuthorId) ?? [];
    if (!group.some((g) => g.questionId === q.questionId)) group.push(q);
    groups.set(q.sessionAuthorId, group);
  }
  return groups;
}

/**
 * The plan for one event:
 * - `question.declared` → the session author;
 * - `question.answered` → the session author, only when someone else recorded the answer (an
 *   agent from the chat, `viaAgent`): a person who clicked knows already;
 * - `gate.rescue_parked` → the authors of the questions the cycle waits on (none for an idle park);
 * - `gate.resumed` → the authors of the questions of the park ("QA gate on T-101 resumed with your decision").
 */
export function planNotifications(fact: NotifierFact, known: ReadonlyMap<string, KnownQuestion>): Plan {
  switch (fact.type) {
    case 'question.declared': {
      const q = fact.data;
      return {
        notifications: [
          {
            recipientUserId: q.sessionAuthorId,
            kind: 'question_declared',
            questions: [notifiedQuestion(q)],
            blocks: questionBlocks(q),
            waits: questionWaits(q),
          },
        ],
      };
    }
    case 'question.answered': {
      const { data } = fact;
      if (data.viaAgent === null) return { notifications: [] };
      const q = known.get(data.questionId);
      if (!q) return { missing: [data.questionId] };
      return {
        notifications: [
          {
            recipientUserId: data.respondent,
            kind: 'question_answered',
            questions: [notifiedQuestion(q, data.answer)],
            blocks: questionBlocks(q),
            waits: questionWaits(q),
          },
        ],
      };
    }
    case 'gate.rescue_parked':
    case 'gate.resumed': {
      const { data } = fact;
      const ids = [
        ...data.questionIds,
        ...(fact.type === 'gate.resumed' ? (fact.data.withdrawnQuestionIds ?? []) : []),
      ];
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length > 0) return { missing: [...new Set(missing)] };
      const gate = {
        taskId: data.taskId,
        gate: data.gate,
        ...(fact.type === 'gate.resumed' ? { trigger: fact.data.trigger } : {}),
      };
      const kind: NotificationKind = fact.type === 'gate.resumed' ? 'gate_resumed' : 'gate_parked';
      const notifications = [...byAuthor(ids.map((id) => known.get(id)!)).entries()].map(
        ([recipientUserId, questions]) => ({
          recipientUserId,
          kind,
          questions: questions.map((q) => notifiedQuestion(q)),
          blocks: [gateBlock(data.gate, data.taskId)],
          waits: [{ kind: 'gate' as const, gate: data.gate, taskId: data.taskId }],
          gate,
        }),
      );
      return { notifications };
    }
  }
}
