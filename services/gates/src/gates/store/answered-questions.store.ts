import type { EntityManager } from 'typeorm';
import { sendAheadOfNext } from '@openq/persistence';

/**
 * The answers (`question.answered`) and, §11.5, the withdrawals (`question.withdrawn`) the gates
 * service has heard of, inside a caller's
 * transaction. Linking a question to a cycle and hearing its answer both run under the
 * question's lock, so one of them always sees the other: a cycle never parks on an answered
 * question, and an answer never misses the cycle that waits on it.
 */
export class AnsweredQuestions {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Locks the questions until the transaction ends, in one global order (no deadlock between two
   * lockers), in one statement: the locks are taken row by row in the sorted order.
   */
  async lock(projectId: string, questionIds: readonly string[]): Promise<void> {
    const keys = [...new Set(questionIds)].sort().map((id) => questionLockKey(projectId, id));
    if (keys.length === 0) return;
    await sendAheadOfNext(
      this.manager,
      `SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0)))
         FROM (SELECT k FROM unnest($1::text[]) WITH ORDINALITY AS u (k, i) ORDER BY i) AS sorted`,
      [keys],
    );
  }

  /**
   * The questions' locks, then their answers remembered, in one statement for a batch of answers
   * (issue #29), sent ahead of what the caller reads next (`sendAheadOfNext`: nobody reads its
   * result). The locks are taken in the one global order (`lock`'s: a project's questions by id).
   * The insert needs no snapshot taken after the locks (a conflict is decided on the latest row);
   * what the caller reads next, in statements of its own, sees every link committed before the
   * locks were granted.
   */
  async lockAndRecord(answers: readonly HeardAnswer[]): Promise<void> {
    if (answers.length === 0) return;
    const keys = [...new Set(answers.map((a) => questionLockKey(a.projectId, a.questionId)))].sort();
    await sendAheadOfNext(
      this.manager,
      `WITH locked AS MATERIALIZED (
         SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0)))
           FROM (SELECT k FROM unnest($5::text[]) WITH ORDINALITY AS u (k, i) ORDER BY i) AS sorted
       )
       INSERT INTO answered_questions (project_id, question_id, decision_event_id, answered_at)
       SELECT a.p, a.q, a.d, a.t FROM locked, unnest($1::text[], $2::uuid[], $3::uuid[], $4::timestamptz[]) AS a (p, q, d, t)
       ON CONFLICT DO NOTHING`,
      [
        answers.map((a) => a.projectId),
        answers.map((a) => a.questionId),
        answers.map((a) => a.decisionEventId),
        answers.map((a) => a.answeredAt),
        keys,
      ],
    );
  }

  /** §11.5 remembers a withdrawal; false when it was already known. */
  async recordWithdrawal(projectId: string, questionId: string, withdrawnAt: string): Promise<boolean> {
    const inserted: unknown[] = await this.manager.query(
      `INSERT INTO withdrawn_questions (project_id, question_id, withdrawn_at)
        VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1`,
      [projectId, questionId, withdrawnAt],
    );
    return inserted.length > 0;
  }

  /** questionId → decisionEventId for those of `questionIds` already answered. */
  async decisionsOf(projectId: string, questionIds: readonly string[]): Promise<Record<string, string>> {
    if (questionIds.length === 0) return {};
    const rows: { question_id: string; decision_event_id: string }[] = await this.manager.query(
      `SELECT question_id, decision_event_id FROM answered_questions
        WHERE project_id = $1 AND question_id = ANY($2::uuid[])`,
      [projectId, [...questionIds]],
    );
    return Object.fromEntries(rows.map((r) => [r.question_id, r.decision_event_id]));
  }
}

/** An answer as the gates remember it. */
export interface HeardAnswer {
  projectId: string;
  questionId: string;
  decisionEventId: string;
  answeredAt: string;
}

/** What is settled of some questions: the decisions of those answered, and those withdrawn (§11.5). */
export interface SettledQuestions {
  decisions: Record<string, string>;
  withdrawn: string[];
}

/** What `settled` says of `questionIds` alone. */
export function settledAmong(settled: SettledQuestions, questionIds: readonly string[]): SettledQuestions {
  const wanted = new Set(questionIds);
  return {
    decisions: Object.fromEntries(Object.entries(settled.decisions).filter(([id]) => wanted.has(id))),
    withdrawn: settled.withdrawn.filter((id) => wanted.has(id)),
  };
}

/** A row of `settledSql`: a withdrawal has no decision. */
export interface SettledRow {
  question_id: string;
  decision_event_id: string | null;
}

/**
 * The read of what is settled of a project's questions (questionId → decisionEventId of those
 * answered, and §11.5 those withdrawn), for a statement that reads more beside it
 * (`GateCycleStore.lockWithSettled`): `$project` is the project's parameter, `$ids` the question ids'.
 */
export const settledSql = (project: number, ids: number) => {
  const [p, q] = [`$${project}`, `$${ids}::uuid[]`];
  return `SELECT question_id, decision_event_id FROM answered_questions
        WHERE project_id = ${p} AND question_id = ANY(${q})
       UNION ALL
       SELECT question_id, NULL FROM withdrawn_questions
        WHERE project_id = ${p} AND question_id = ANY(${q})`;
};

export function settledFrom(rows: readonly SettledRow[]): SettledQuestions {
  const decisions: Record<string, string> = {};
  const withdrawn: string[] = [];
  for (const r of rows) {
    if (r.decision_event_id === null) withdrawn.push(r.question_id);
    else decisions[r.question_id] = r.decision_event_id;
  }
  return { decisions, withdrawn };
}

/** The advisory lock key of a question, as every locker of it names it. */
const questionLockKey = (projectId: string, questionId: string) => `gate-question:${projectId}:${questionId}`;
