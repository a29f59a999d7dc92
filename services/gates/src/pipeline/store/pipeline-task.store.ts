import { affectsFromWire, affectsToWire } from '@openq/contracts';
import type { EntityManager } from 'typeorm';
import { sendAheadOfNext } from '@openq/persistence';
import type { AnalystQuestionRequest, PipelineTask } from '../domain/pipeline-task';
import type { RepoFreeze } from '../domain/repo-freeze';

/** An analyst's question request as the task's document keeps it (the wire's words, as ever). */
interface StoredQuestionRequest {
  sessionId: string;
  sessionAuthorId: string;
  autor: AnalystQuestionRequest['role'];
  origin: AnalystQuestionRequest['origin'];
  afeta: { regras: string[]; historias: string[]; tarefas: string[] };
  declare: { key: string; pergunta: string; sugestao: string | null }[];
}

/** The task's jsonb document: the columns beside it hold its instants. */
type StoredState = Omit<PipelineTask, 'pausedAt' | 'updatedAt' | 'pendingQuestionRequest'> & {
  pendingQuestionRequest: StoredQuestionRequest | null;
};

interface TaskRow {
  state: StoredState;
  paused_at: Date | null;
  updated_at: Date;
  status: string | null;
}

/** A stored task and the board status last reported for it (not part of the domain state). */
export interface StoredTask {
  task: PipelineTask;
  status: string | null;
}

/** The project's freezes as the gate reads them (`Freezes`), with who froze each repo and why. */
export type StoredFreezes = { repos: string[]; records: RepoFreeze[] } | { error: string };

interface FreezeRow {
  repo: string;
  frozen_by: string;
  reason: string | null;
  frozen_at: Date;
}

const freezeFromRow = (row: FreezeRow): RepoFreeze => ({
  repo: row.repo,
  by: row.frozen_by,
  why: row.reason,
  frozenAt: row.frozen_at,
});

function storedRequest(r: AnalystQuestionRequest): StoredQuestionRequest {
  return {
    sessionId: r.sessionId,
    sessionAuthorId: r.sessionAuthorId,
    autor: r.role,
    origin: r.origin,
    afeta: affectsToWire(r.affects),
    declare: r.declare.map((q) => ({ key: q.key, pergunta: q.question, sugestao: q.suggestion })),
  };
}

function requestOf(r: StoredQuestionRequest): AnalystQuestionRequest {
  return {
    sessionId: r.sessionId,
    sessionAuthorId: r.sessionAuthorId,
    role: r.autor,
    origin: r.origin,
    affects: affectsFromWire(r.afeta),
    declare: r.declare.map((q) => ({ key: q.key, question: q.pergunta, suggestion: q.sugestao })),
  };
}

const fromRow = (row: TaskRow): StoredTask => ({
  task: {
    ...row.state,
    pendingQuestionRequest: row.state.pendingQuestionRequest && requestOf(row.state.pendingQuestionRequest),
    pausedAt: row.paused_at,
    updatedAt: row.updated_at,
  },
  status: row.status,
});

/** Reads and writes the pipeline tables inside the caller's transaction (raw SQL, gates schema). */
export class PipelineTaskStore {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Serialises every pipeline change of a project until the transaction ends. Per project, not
   * per repo: dependencies cross repos, so one admission may read and write several repos.
   */
  async lockProject(projectId: string): Promise<void> {
    await sendAheadOfNext(
      this.manager,
      `SELECT pg_advisory_xact_lock(hashtext('openq-pipeline'), hashtext($1))`,
      [projectId],
    );
  }

  async load(projectId: string, taskId: string): Promise<StoredTask | null> {
    const rows: TaskRow[] = await this.manager.query(
      `SELECT state, paused_at, updated_at, status FROM pipeline_task WHERE project_id = $1 AND task_id = $2`,
      [projectId, taskId],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * What the serial gate reads: the project's tasks (of `repo` when given) plus every task one of
   * them depends on, wherever it lives. Terminal tasks only when `withFinished` (the queue shows
   * them; admission needs them only as dependencies).
   */
  async queue(
    projectId: string,
    opts: { repo?: string | null; withFinished: boolean },
  ): Promise<StoredTask[]> {
    const rows: TaskRow[] = await this.manager.query(
      `WITH shown AS (
         SELECT * FROM pipeline_task
          WHERE project_id = $1 AND ($2::text IS NULL OR repo = $2)
            AND ($3 OR stage NOT IN ('done', 'cancelled'))
       )
       SELECT state, paused_at, updated_at, status FROM shown
       UNION
       SELECT t.state, t.paused_at, t.updated_at, t.status FROM pipeline_task t
        WHERE t.project_id = $1
          AND t.task_id IN (SELECT jsonb_array_elements_text(s.state->'deps') FROM shown s)`,
      [projectId, opts.repo ?? null, opts.withFinished],
    );
    return rows.map(fromRow);
  }

  /** Projects with a task that has not entered analysis yet (the admission sweep's work list). */
  async projectsWithPendingTasks(): Promise<string[]> {
    const rows: { project_id: string }[] = await this.manager.query(
      `SELECT DISTINCT project_id FROM pipeline_task WHERE stage = 'created' AND paused_at IS NULL`,
    );
    return rows.map((r) => r.project_id);
  }

  async save(task: PipelineTask): Promise<void> {
    const { pausedAt, updatedAt, ...rest } = task;
    const state: StoredState = {
      ...rest,
      pendingQuestionRequest: rest.pendingQuestionRequest && storedRequest(rest.pendingQuestionRequest),
    };
    await this.manager.query(
      `INSERT INTO pipeline_task (project_id, task_id, repo, task_order, stage, paused_at, pause_source,
                                  analyst_running, needs_input, relaunch_count, state, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12)
       ON CONFLICT (project_id, task_id) DO UPDATE SET
         repo = EXCLUDED.repo, task_order = EXCLUDED.task_order, stage = EXCLUDED.stage,
         paused_at = EXCLUDED.paused_at, pause_source = EXCLUDED.pause_source,
         analyst_running = EXCLUDED.analyst_running, needs_input = EXCLUDED.needs_input,
         relaunch_count = EXCLUDED.relaunch_count, state = EXCLUDED.state, updated_at = EXCLUDED.updated_at`,
      [
        task.projectId,
        task.taskId,
        task.repo,
        task.order,
        task.stage,
        pausedAt,
        task.pauseSource,
        task.analystRunning,
        task.needsInput,
        task.relaunchCount,
        JSON.stringify(state),
        updatedAt,
      ],
    );
  }

  async recordStatus(projectId: string, taskId: string, status: string): Promise<void> {
    await this.manager.query(`UPDATE pipeline_task SET status = $3 WHERE project_id = $1 AND task_id = $2`, [
      projectId,
      taskId,
      status,
    ]);
  }

  /** Links the task's questions; returns those already known as answered. */
  async linkQuestions(
    projectId: string,
    taskId: string,
    questionIds: readonly string[],
    now: Date,
  ): Promise<string[]> {
    if (questionIds.length === 0) return [];
    const rows: { question_id: string; answered_at: Date | null }[] = await this.manager.query(
      `INSERT INTO pipeline_question (project_id, question_id, task_id, linked_at)
       SELECT $1, q, $2, $4 FROM unnest($3::uuid[]) AS q
       ON CONFLICT (project_id, question_id) DO UPDATE SET task_id = EXCLUDED.task_id, linked_at = EXCLUDED.linked_at
       RETURNING question_id, answered_at`,
      [projectId, taskId, questionIds, now],
    );
    return rows.filter((r) => r.answered_at !== null).map((r) => r.question_id);
  }

  /**
   * Remembers answers (linked or not yet), a batch's in one statement; its reply is the task each
   * question belongs to, if any (`linkedTask`, by project and question). Sent ahead
   * (`sendAheadOfNext`): the statements behind it (the gate cycles', which the same answers may
   * resume) leave in the same write, and the caller reads the reply once they have gone
   * (`EventContext.afterHandlers`).
   */
  async recordAnswers(
    answers: readonly { projectId: string; questionId: string; answeredAt: Date }[],
  ): Promise<{ tasks: Promise<ReadonlyMap<string, string>> }> {
    // Once each (an upsert cannot change a row twice), in key order: two batches lock shared rows alike.
    const once = new Map(answers.map((a) => [linkedTask(a.projectId, a.questionId), a]));
    const rows = [...once].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, a]) => a);
    const { reply } = await sendAheadOfNext(
      this.manager,
      `INSERT INTO pipeline_question (project_id, question_id, answered_at)
       SELECT p, q, a FROM unnest($1::text[], $2::uuid[], $3::timestamptz[]) AS x (p, q, a)
       ON CONFLICT (project_id, question_id) DO UPDATE SET answered_at = COALESCE(pipeline_question.answered_at, EXCLUDED.answered_at)
       RETURNING project_id, question_id, task_id`,
      [rows.map((a) => a.projectId), rows.map((a) => a.questionId), rows.map((a) => a.answeredAt)],
    );
    const tasks = reply.then(
      (linked) =>
        new Map(
          (linked as { project_id: string; question_id: string; task_id: string | null }[]).flatMap((r) =>
            r.task_id === null ? [] : [[linkedTask(r.project_id, r.question_id), r.task_id] as const],
          ),
        ),
    );
    // Its failure fails the statement behind it: a caller that never reads the reply is told there.
    tasks.catch(() => undefined);
    return { tasks };
  }

  /**
   * The project's frozen repos. A failure to read them is returned, not thrown (the gate fails
   * closed on it), and a savepoint keeps the surrounding transaction usable.
   */
  async freezes(projectId: string): Promise<StoredFreezes> {
    await this.manager.query(`SAVEPOINT pipeline_freezes`);
    try {
      const rows: FreezeRow[] = await this.manager.query(
        `SELECT repo, frozen_by, reason, frozen_at FROM pipeline_repo_freeze WHERE project_id = $1 ORDER BY repo`,
        [projectId],
      );
      await this.manager.query(`RELEASE SAVEPOINT pipeline_freezes`);
      return { repos: rows.map((r) => r.repo), records: rows.map(freezeFromRow) };
    } catch (error) {
      await this.manager.query(`ROLLBACK TO SAVEPOINT pipeline_freezes`);
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The repo's freeze, read to be changed (the caller holds the project lock). */
  async loadFreeze(projectId: string, repo: string): Promise<RepoFreeze | null> {
    const rows: FreezeRow[] = await this.manager.query(
      `SELECT repo, frozen_by, reason, frozen_at FROM pipeline_repo_freeze WHERE project_id = $1 AND repo = $2`,
      [projectId, repo],
    );
    return rows[0] ? freezeFromRow(rows[0]) : null;
  }

  /** Writes the repo's freeze (`null`: lifts it). */
  async saveFreeze(projectId: string, repo: string, freeze: RepoFreeze | null): Promise<void> {
    if (freeze === null) {
      await this.manager.query(`DELETE FROM pipeline_repo_freeze WHERE project_id = $1 AND repo = $2`, [
        projectId,
        repo,
      ]);
      return;
    }
    await this.manager.query(
      `INSERT INTO pipeline_repo_freeze (project_id, repo, frozen_by, reason, frozen_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (project_id, repo) DO UPDATE SET frozen_by = EXCLUDED.frozen_by, reason = EXCLUDED.reason,
         frozen_at = EXCLUDED.frozen_at`,
      [projectId, repo, freeze.by, freeze.why, freeze.frozenAt],
    );
  }
}

/** The key of `recordAnswers`' reply: a question of a project. */
export const linkedTask = (projectId: string, questionId: string) => `${projectId}\u0000${questionId}`;
