import { AgentEvent, openqEventRegistry, type EventEnvelope } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import type { Stack } from './stack';

export const Q_AT = '2026-06-17T10:00:00Z';
export const BEFORE = '2026-06-17T09:00:00Z';
export const AFTER = '2026-06-17T11:00:00Z';

/** The analyst's package: the questions file and the four deliverables (null = absent). */
export function analystPackage(
  questions: string | null,
  deliverables: string | null,
): Record<string, string | null> {
  return {
    '01-questions.md': questions,
    '01-brd.md': deliverables,
    '02-trz.md': deliverables,
    '03-acceptance-criteria.md': deliverables,
    '04-test-plan.yaml': deliverables,
  };
}

interface QueueTask {
  taskId: string;
  repo: string;
  stage: string;
  state: string;
  blockingReason: string;
  blockedBy: string[];
  pausedAt: string | null;
  questionIds: string[];
}

/** Acts as the engine and an operator on one project's pipeline, and reads what gates did. */
export class PipelineDriver {
  constructor(
    readonly stack: Stack,
    readonly projectId: string,
  ) {}

  createTask(taskId: string, repo: string, order: number, deps: string[] = [], labels: string[] = []) {
    return this.stack.publishAgentEvent(AgentEvent.TaskCreated, this.projectId, {
      taskId,
      repo,
      order,
      deps,
      labels,
    });
  }

  /** Creates a task and waits until gates has registered it (events of one type run concurrently). */
  async register(taskId: string, repo: string, order: number, deps: string[] = [], labels: string[] = []) {
    const envelope = await this.createTask(taskId, repo, order, deps, labels);
    await this.processed(envelope);
    return envelope;
  }

  status(taskId: string, change: { stage?: string; status?: string }) {
    return this.stack.publishAgentEvent(AgentEvent.TaskStatus, this.projectId, { taskId, ...change });
  }

  finishAnalysis(
    taskId: string,
    repo: string,
    opts: {
      package: Record<string, string | null>;
      questions?: { pergunta: string; sugestao?: string }[];
      labels?: string[];
    },
  ) {
    return this.stack.publishAgentEvent(AgentEvent.AnalysisFinished, this.projectId, {
      taskId,
      repo,
      labels: opts.labels ?? [],
      sessionId: `s-${taskId}`,
      sessionAuthorId: 'ana',
      package: opts.package,
      questions: opts.questions ?? [],
    });
  }

  operator(taskId: string, action: 'pause' | 'resume', role: 'maintainer' | 'developer' = 'maintainer') {
    const token = this.stack.token('op', this.projectId, role);
    return this.stack.http('POST', `/projects/${this.projectId}/pipeline/tasks/${taskId}/${action}`, {
      token,
    });
  }

  async queue(
    repo?: string,
  ): Promise<{ repo: string | null; tasks: QueueTask[]; total: number; frozenRepos: string[] }> {
    const token = this.stack.token('viewer', this.projectId, 'viewer');
    const query = repo ? `?repo=${repo}` : '';
    const res = await this.stack.http('GET', `/projects/${this.projectId}/pipeline/queue${query}`, { token });
    if (res.status !== 200) throw new Error(`queue: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async task(taskId: string, repo?: string): Promise<QueueTask> {
    const found = (await this.queue(repo)).tasks.find((t) => t.taskId === taskId);
    if (!found) throw new Error(`${taskId} is not in the queue`);
    return found;
  }

  gatesSql<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.stack.service('gates').dataSource.query(sql, params);
  }

  /** The event's transaction has committed in gates (its inbox row exists): its effects are in. */
  async processed(envelope: Pick<EventEnvelope, 'eventId' | 'type'>): Promise<void> {
    await waitFor(
      async () =>
        (await this.gatesSql(`SELECT 1 FROM inbox WHERE message_id = $1`, [envelope.eventId])).length > 0,
      {
        what: `gates processed ${envelope.type} ${envelope.eventId}`,
      },
    );
  }

  /** Events gates wrote to its outbox (committed, published or not): the exact count of effects. */
  async written(type: string, taskId: string): Promise<Record<string, unknown>[]> {
    const rows = await this.gatesSql<{ data: Record<string, unknown> }>(
      `SELECT envelope->'data' AS data FROM outbox
        WHERE envelope->>'type' = $1 AND envelope->>'projectId' = $2 AND envelope->'data'->>'taskId' = $3 ORDER BY id`,
      [type, this.projectId, taskId],
    );
    return rows.map((r) => r.data);
  }

  /** Waits for `count` events of `type` about `taskId` on OPENQ_EVENTS (published by the relay). */
  async published(
    type: string,
    taskId: string,
    count = 1,
  ): Promise<EventEnvelope<Record<string, unknown>>[]> {
    const mine = () =>
      this.stack.events
        .ofType<Record<string, unknown>>(type)
        .filter((e) => e.projectId === this.projectId && e.data.taskId === taskId);
    await waitFor(() => mine().length >= count, {
      what: `${count} × ${type} for ${taskId} (have ${mine().length})`,
    });
    return mine();
  }

  /**
   * The snapshot agrees with admission: a task is past the pending stage iff it was admitted
   * exactly once, and a pending task that is not paused is blocked by something.
   */
  async expectQueueAgrees(repo?: string): Promise<void> {
    for (const t of (await this.queue(repo)).tasks) {
      const admitted = await this.written('pipeline.task_admitted', t.taskId);
      if (t.stage === 'created') {
        expect({ taskId: t.taskId, admitted: admitted.length }).toEqual({ taskId: t.taskId, admitted: 0 });
        if (t.pausedAt === null)
          expect({ taskId: t.taskId, blockingReason: t.blockingReason }).not.toEqual({
            taskId: t.taskId,
            blockingReason: 'none',
          });
      } else {
        expect({ taskId: t.taskId, admitted: admitted.length }).toEqual({ taskId: t.taskId, admitted: 1 });
      }
    }
  }

  /** Every pipeline event published for this project passes the contracts' own DTOs. */
  expectEventsValid(): void {
    const mine = this.stack.events.events.filter(
      (e) => e.projectId === this.projectId && e.type.startsWith('pipeline.'),
    );
    expect(mine.length).toBeGreaterThan(0);
    for (const e of mine)
      expect({ type: e.type, ok: openqEventRegistry.validate(e.type, e.data).ok }).toEqual({
        type: e.type,
        ok: true,
      });
  }
}
