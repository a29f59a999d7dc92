import type { EntityManager } from 'typeorm';
import type { OpenqEventDataMap } from '@openq/contracts';
import { DeciderTransaction, type OutboxWriter, type WireEvent } from '@openq/messaging';
import {
  isPublishedPipelineEvent,
  pipelineTask,
  type PipelineCommand,
  type PipelineEvent,
  type PipelineTask,
} from './domain/pipeline-task';
import {
  repoFreeze,
  type RepoFreeze,
  type RepoFreezeCommand,
  type RepoFreezeEvent,
} from './domain/repo-freeze';
import type { PipelineFlags } from './pipeline.flags';
import { PipelineTaskStore } from './store/pipeline-task.store';

/** The pipeline's events go on the wire as they are decided: SPEC §7 names the domain's. */
const asPublished = ({ type, data, occurredAt }: PipelineEvent | RepoFreezeEvent): WireEvent => ({
  type,
  data,
  occurredAt,
});

/** A freeze's events on the wire: the domain's `why` is SPEC §11.3's `motivo`. */
export function freezeToWire(event: RepoFreezeEvent): WireEvent {
  if (event.type === 'pipeline.repo_unfrozen') return asPublished(event);
  const { why, ...rest } = event.data;
  const data: OpenqEventDataMap['pipeline.repo_frozen'] = { ...rest, motivo: why };
  return { type: event.type, data, occurredAt: event.occurredAt };
}

/**
 * One pipeline change of a project inside the caller's transaction (an inbox transaction or a
 * request's `withOutbox`): the project is locked before any task is read to be changed (at `open`,
 * or by `lockProject` for an `unlocked` one), then its slices — the tasks and the repo freezes —
 * decide through the decider kit: each decision's new state is stored and its published events go
 * to the outbox, all in that one transaction.
 */
export class PipelineTransaction {
  readonly store: PipelineTaskStore;
  readonly tasks: DeciderTransaction<PipelineCommand, PipelineTask | null, PipelineEvent>;
  readonly freezes: DeciderTransaction<RepoFreezeCommand, RepoFreeze | null, RepoFreezeEvent>;

  private constructor(
    manager: EntityManager,
    outbox: OutboxWriter,
    readonly projectId: string,
    readonly now: Date,
    readonly flags: PipelineFlags,
  ) {
    const store = new PipelineTaskStore(manager);
    this.store = store;
    this.tasks = new DeciderTransaction<PipelineCommand, PipelineTask | null, PipelineEvent>(
      {
        decider: pipelineTask,
        projectOf: (task) => task?.projectId ?? null,
        toWire: (event) => (isPublishedPipelineEvent(event) ? asPublished(event) : null),
        save: async (task) => {
          if (task) await store.save(task);
        },
      },
      outbox,
    );
    this.freezes = new DeciderTransaction<RepoFreezeCommand, RepoFreeze | null, RepoFreezeEvent>(
      {
        decider: repoFreeze,
        projectOf: () => projectId,
        toWire: freezeToWire,
        save: async (freeze, { events }) => {
          const repo = events[0]?.data.repo;
          if (repo !== undefined) await store.saveFreeze(projectId, repo, freeze);
        },
      },
      outbox,
    );
  }

  static async open(
    manager: EntityManager,
    outbox: OutboxWriter,
    projectId: string,
    flags: PipelineFlags,
    now = new Date(),
  ): Promise<PipelineTransaction> {
    const tx = PipelineTransaction.unlocked(manager, outbox, projectId, flags, now);
    await tx.lockProject();
    return tx;
  }

  /**
   * A transaction that has not locked the project yet: for work that only sometimes changes a
   * task (an answer to a question that may not be a pipeline question), which must call
   * `lockProject()` before it reads a task to change it.
   */
  static unlocked(
    manager: EntityManager,
    outbox: OutboxWriter,
    projectId: string,
    flags: PipelineFlags,
    now = new Date(),
  ): PipelineTransaction {
    return new PipelineTransaction(manager, outbox, projectId, now, flags);
  }

  private locked = false;

  /** Serialises this transaction with every other pipeline change of the project (once). */
  async lockProject(): Promise<void> {
    if (this.locked) return;
    await this.store.lockProject(this.projectId);
    this.locked = true;
  }
}
