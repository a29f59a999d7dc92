import type { EntityManager } from 'typeorm';
import {
  OpenqEvent,
  type ClockPolicyView,
  type ClockStateItem,
  type EventEnvelope,
  type ProjectRole,
  type WorkingTimeView,
} from '@openq/contracts';
import { RetryLaterError } from '@openq/messaging';
import { readOncePerTransaction, returnedRows } from '@openq/persistence';
import {
  DEFAULT_WORKING_TIME,
  type ClockPolicy,
  type WorkingTime,
  type WorkingTimeOf,
} from '../domain/clock';
import type { GivenNotice } from '../domain/clock-notices';
import type { KnownQuestion } from '../domain/recipients';
import { skipClockNotices } from './deliveries.store';
import {
  KNOWN_QUESTION_COLUMNS,
  toKnownQuestion,
  type AfetaColumn,
  type QuestionRow,
} from './questions.store';

/*
 * Issue #17 the clock's rows: each project's policy, each person's working time, the members
 * the notifier has seen, each known question's status and next clock instant, the notices given.
 */

/** The roles that an escalation to "the maintainers" reaches. */
const MAINTAINER_ROLES = ['maintainer', 'owner'];

export async function clockPolicyView(m: EntityManager, projectId: string): Promise<ClockPolicyView> {
  const [row]: { policy: Record<string, unknown>; updated_by: string; updated_at: Date }[] = await m.query(
    `SELECT policy, updated_by, updated_at FROM clock_policy WHERE project_id = $1`,
    [projectId],
  );
  return {
    projectId,
    policy: row?.policy ?? null,
    updatedBy: row?.updated_by ?? null,
    updatedAt: row ? row.updated_at.toISOString() : null,
  };
}

/**
 * Sets (or with null removes) a project's policy, already parsed. Every open question of the
 * project is looked at again by the next tick: its plan is recomputed from the new policy.
 */
export async function setClockPolicy(
  m: EntityManager,
  projectId: string,
  policy: ClockPolicy | null,
  userId: string,
): Promise<void> {
  if (policy === null) {
    await m.query(`DELETE FROM clock_policy WHERE project_id = $1`, [projectId]);
  } else {
    await m.query(
      `INSERT INTO clock_policy (project_id, policy, updated_by, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (project_id) DO UPDATE
         SET policy = excluded.policy, updated_by = excluded.updated_by, updated_at = now()`,
      [projectId, JSON.stringify(policy), userId],
    );
  }
  await m.query(
    `UPDATE notifier_question SET next_clock_at = NULL WHERE project_id = $1 AND status = 'open'`,
    [projectId],
  );
}

export async function workingTimeView(m: EntityManager, userId: string): Promise<WorkingTimeView> {
  const [row]: { working_time: Record<string, unknown>; updated_at: Date }[] = await m.query(
    `SELECT working_time, updated_at FROM working_time WHERE user_id = $1`,
    [userId],
  );
  return {
    userId,
    workingTime: row?.working_time ?? { ...DEFAULT_WORKING_TIME },
    isDefault: row === undefined,
    updatedAt: row ? row.updated_at.toISOString() : null,
  };
}

/**
 * Sets (or with null forgets) a person's working time, already parsed. The open questions they
 * author, and those of projects that may escalate to them, are looked at again by the next tick.
 */
export async function setWorkingTime(
  m: EntityManager,
  userId: string,
  workingTime: WorkingTime | null,
): Promise<void> {
  if (workingTime === null) {
    await m.query(`DELETE FROM working_time WHERE user_id = $1`, [userId]);
  } else {
    await m.query(
      `INSERT INTO working_time (user_id, working_time, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (user_id) DO UPDATE SET working_time = excluded.working_time, updated_at = now()`,
      [userId, JSON.stringify(workingTime)],
    );
  }
  await m.query(
    `UPDATE notifier_question q SET next_clock_at = NULL
      WHERE q.status = 'open' AND q.next_clock_at IS NOT NULL
        AND (q.session_author_id = $1
             OR q.project_id IN (SELECT project_id FROM notifier_member WHERE user_id = $1)
             OR q.project_id IN (SELECT project_id FROM clock_policy
                                  WHERE policy->'escalateTo'->'users' ? $1))`,
    [userId],
  );
}

/** Working times of these people (the default for anyone who set none). */
export async function workingTimesOf(m: EntityManager, userIds: readonly string[]): Promise<WorkingTimeOf> {
  const rows: { user_id: string; working_time: WorkingTime }[] =
    userIds.length === 0
      ? []
      : await m.query(`SELECT user_id, working_time FROM working_time WHERE user_id = ANY($1::text[])`, [
          [...new Set(userIds)],
        ]);
  const byUser = new Map(rows.map((r) => [r.user_id, r.working_time]));
  return (userId) => byUser.get(userId) ?? DEFAULT_WORKING_TIME;
}

/**
 * Remembers the caller's role on the project (from their token, as the gateway passed it). A
 * maintainer who set a channel is thereby one the clock can escalate to. Writes only on change.
 */
export async function recordMember(
  m: EntityManager,
  projectId: string,
  userId: string,
  role: ProjectRole | undefined,
): Promise<void> {
  if (role === undefined) return;
  const changed: unknown[] = await m.query(
    `INSERT INTO notifier_member (project_id, user_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (project_id, user_id) DO UPDATE SET role = excluded.role, seen_at = now()
       WHERE notifier_member.role IS DISTINCT FROM excluded.role
     RETURNING 1`,
    [projectId, userId, role],
  );
  // Who "the maintainers" are changed: the project's open questions are planned again.
  if (changed.length > 0) {
    await m.query(
      `UPDATE notifier_question SET next_clock_at = NULL
        WHERE project_id = $1 AND status = 'open' AND next_clock_at IS NOT NULL`,
      [projectId],
    );
  }
}

/** The maintainers (and owners) the notifier has seen on each of these projects. */
export async function maintainersOf(
  m: EntityManager,
  projectIds: readonly string[],
): Promise<Map<string, string[]>> {
  const rows: { project_id: string; user_id: string }[] =
    projectIds.length === 0
      ? []
      : await m.query(
          `SELECT project_id, user_id FROM notifier_member
            WHERE project_id = ANY($1::text[]) AND role = ANY($2::text[]) ORDER BY user_id`,
          [[...new Set(projectIds)], MAINTAINER_ROLES],
        );
  const byProject = new Map<string, string[]>();
  for (const r of rows) byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), r.user_id]);
  return byProject;
}

/**
 * Closes a known question (answered or withdrawn): its clock owes nothing more, and its notices
 * not sent yet are skipped. The update waits for a tick holding the question, so a notice that
 * tick planned is skipped here too. A question the notifier has not heard declared yet is retried
 * later (the consumers of different types run apart); one closed already stays as it was. Returns
 * what the notifier knows of the question, so that the answer's notifications need no read of
 * their own.
 */
export async function closeQuestion(
  m: EntityManager,
  questionId: string,
  status: 'answered' | 'withdrawn',
  at: string,
): Promise<KnownQuestion> {
  const closed = returnedRows<QuestionRow>(
    await m.query(
      `UPDATE notifier_question SET status = $2, closed_at = $3, next_clock_at = NULL
        WHERE question_id = $1 AND status IN ('open', 'untracked')
        RETURNING ${KNOWN_QUESTION_COLUMNS}`,
      [questionId, status, at],
    ),
  );
  if (closed.length > 0) {
    // In a later statement than the close, which waited for the tick: it sees what the tick planned.
    await skipClockNotices(m, questionId, status);
    return toKnownQuestion(closed[0]!);
  }
  const known: QuestionRow[] = await m.query(
    `SELECT ${KNOWN_QUESTION_COLUMNS} FROM notifier_question WHERE question_id = $1`,
    [questionId],
  );
  if (known.length === 0) throw new RetryLaterError(`question ${questionId} not declared here yet`);
  return toKnownQuestion(known[0]!);
}

/**
 * Closes an answered question as `closeQuestion` does, together with the other answers of its
 * batch (`batch`: the envelopes of the messages the transaction applies). At the first answer of
 * the batch, every question answered in it that no other question event of the batch names is
 * closed by one statement, each at its own instant; the message of each finds its question there
 * and only queues its skips. Closing those at the batch's first answer changes nothing another
 * message of the batch sees: only the closes and the clock (another transaction, which the update
 * waits for) read a question's status, and a question declared or withdrawn in the same batch is
 * closed at its own message. An answer whose question that statement did not close (not heard
 * declared yet, closed already) takes `closeQuestion`'s way.
 */
export async function closeAnsweredQuestion(
  m: EntityManager,
  batch: readonly EventEnvelope[],
  questionId: string,
  at: string,
): Promise<KnownQuestion> {
  const closed = await readOncePerTransaction(m, 'notifier:batch-answers-closed', () =>
    closeAnswers(m, answersAlone(batch)),
  );
  const known = closed.get(questionId);
  if (!known) return closeQuestion(m, questionId, 'answered', at);
  await skipClockNotices(m, questionId, 'answered');
  return known;
}

const QUESTION_EVENTS: ReadonlySet<string> = new Set([
  OpenqEvent.QuestionDeclared,
  OpenqEvent.QuestionAnswered,
  OpenqEvent.QuestionWithdrawn,
]);

/** The batch's answers (question → when) whose question no other question event of the batch names. */
function answersAlone(batch: readonly EventEnvelope[]): Map<string, string> {
  const named = new Map<string, number>();
  const answers = new Map<string, string>();
  for (const { type, data } of batch) {
    if (!QUESTION_EVENTS.has(type)) continue;
    const { questionId, answeredAt } = data as { questionId?: unknown; answeredAt?: unknown };
    if (typeof questionId !== 'string') continue;
    named.set(questionId, (named.get(questionId) ?? 0) + 1);
    if (type === OpenqEvent.QuestionAnswered && typeof answeredAt === 'string')
      answers.set(questionId, answeredAt);
  }
  for (const questionId of answers.keys()) if (named.get(questionId) !== 1) answers.delete(questionId);
  return answers;
}

/** `KNOWN_QUESTION_COLUMNS` of the table aliased `q`, once. */
const KNOWN_QUESTION_COLUMNS_OF_Q = KNOWN_QUESTION_COLUMNS.split(', ')
  .map((column) => `q.${column}`)
  .join(', ');

/** Closes these answered questions that are open (one statement); what is known of each it closed. */
async function closeAnswers(
  m: EntityManager,
  answers: ReadonlyMap<string, string>,
): Promise<Map<string, KnownQuestion>> {
  if (answers.size === 0) return new Map();
  const rows = returnedRows<QuestionRow>(
    await m.query(
      `UPDATE notifier_question q SET status = 'answered', closed_at = a.at, next_clock_at = NULL
         FROM unnest($1::uuid[], $2::timestamptz[]) AS a (question_id, at)
        WHERE q.question_id = a.question_id AND q.status IN ('open', 'untracked')
        RETURNING ${KNOWN_QUESTION_COLUMNS_OF_Q}`,
      [[...answers.keys()], [...answers.values()]],
    ),
  );
  return new Map(rows.map((r) => [r.question_id, toKnownQuestion(r)]));
}

export interface ClockQuestionRow {
  question_id: string;
  project_id: string;
  session_author_id: string;
  autor: string;
  pergunta: string;
  sugestao: string | null;
  afeta: AfetaColumn;
  origin: string;
  declared_at: Date;
  policy: ClockPolicy;
}

const CLOCK_COLUMNS = `q.question_id, q.project_id, q.session_author_id, q.autor, q.pergunta, q.sugestao,
       q.afeta, q.origin, q.declared_at, p.policy`;

/**
 * Open questions of projects with a policy whose clock may have something to say at `now`
 * (never looked at since a change, or their next instant has come), locked so that replicas
 * share them (`SKIP LOCKED`) and an answer waits for the tick that holds its question.
 */
export async function claimClockQuestions(
  m: EntityManager,
  now: Date,
  limit: number,
): Promise<ClockQuestionRow[]> {
  return m.query(
    `SELECT ${CLOCK_COLUMNS}
       FROM notifier_question q JOIN clock_policy p ON p.project_id = q.project_id
      WHERE q.status = 'open' AND (q.next_clock_at IS NULL OR q.next_clock_at <= $1)
      ORDER BY q.next_clock_at NULLS FIRST
      LIMIT $2
      FOR UPDATE OF q SKIP LOCKED`,
    [now, limit],
  );
}

/** The open questions of a project with a policy (the inbox's markers). */
export async function openClockQuestions(m: EntityManager, projectId: string): Promise<ClockQuestionRow[]> {
  return m.query(
    `SELECT ${CLOCK_COLUMNS}
       FROM notifier_question q JOIN clock_policy p ON p.project_id = q.project_id
      WHERE q.project_id = $1 AND q.status = 'open'
      ORDER BY q.declared_at, q.question_id`,
    [projectId],
  );
}

/** Keys of the notices already given for these questions. */
export async function givenKeys(m: EntityManager, questionIds: readonly string[]): Promise<Set<string>> {
  if (questionIds.length === 0) return new Set();
  const rows: { key: string }[] = await m.query(
    `SELECT key FROM clock_notice WHERE question_id = ANY($1::uuid[])`,
    [[...questionIds]],
  );
  return new Set(rows.map((r) => r.key));
}

/** The notices given for these questions, oldest first (the inbox shows them). */
export async function noticesOf(
  m: EntityManager,
  questionIds: readonly string[],
): Promise<Map<string, ClockStateItem['notices']>> {
  const rows: {
    question_id: string;
    kind: 'reminder' | 'due' | 'escalation';
    step: number;
    recipient_user_id: string;
    at: Date;
  }[] =
    questionIds.length === 0
      ? []
      : await m.query(
          `SELECT question_id, kind, step, recipient_user_id, at FROM clock_notice
            WHERE question_id = ANY($1::uuid[]) ORDER BY at, key`,
          [[...questionIds]],
        );
  const byQuestion = new Map<string, ClockStateItem['notices']>();
  for (const r of rows) {
    const list = byQuestion.get(r.question_id) ?? [];
    list.push({ kind: r.kind, step: r.step, to: r.recipient_user_id, at: r.at.toISOString() });
    byQuestion.set(r.question_id, list);
  }
  return byQuestion;
}

/** Records notices under their key; returns the keys that were new (a key is given once, ever). */
export async function recordNotices(
  m: EntityManager,
  projectId: string,
  notices: readonly GivenNotice[],
): Promise<Set<string>> {
  if (notices.length === 0) return new Set();
  const rows: { key: string }[] = await m.query(
    `INSERT INTO clock_notice (key, question_id, project_id, kind, step, recipient_user_id, due_at, at, coalesced)
     SELECT k, qid, $1, kind, step, rcpt, due, at, co
       FROM unnest($2::text[], $3::uuid[], $4::text[], $5::int[], $6::text[], $7::timestamptz[],
                   $8::timestamptz[], $9::boolean[]) AS v(k, qid, kind, step, rcpt, due, at, co)
     ON CONFLICT (key) DO NOTHING
     RETURNING key`,
    [
      projectId,
      notices.map((n) => n.key),
      notices.map((n) => n.questionId),
      notices.map((n) => n.kind),
      notices.map((n) => n.step),
      notices.map((n) => n.recipientUserId),
      notices.map((n) => n.dueAt),
      notices.map((n) => n.at),
      notices.map((n) => n.coalesced),
    ],
  );
  return new Set(rows.map((r) => r.key));
}

/** Each question's next clock instant ('infinity': it owes nothing more under this policy). */
export async function setNextClock(
  m: EntityManager,
  next: readonly { questionId: string; at: Date | null }[],
): Promise<void> {
  if (next.length === 0) return;
  await m.query(
    `UPDATE notifier_question q SET next_clock_at = v.at
       FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, at)
      WHERE q.question_id = v.id`,
    [next.map((n) => n.questionId), next.map((n) => (n.at ? n.at.toISOString() : 'infinity'))],
  );
}
