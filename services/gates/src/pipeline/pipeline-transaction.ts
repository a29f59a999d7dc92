import type { EntityManager } from 'typeorm';
import { isRefusal, type Refusal } from '@openq/contracts';
import type { OutboxWriter } from '@openq/messaging';
import {
  applyPipelineEvents,
  decidePipelineTask,
  isPublishedPipelineEvent,
  type PipelineCommand,
  type PipelineEvent,
  type PipelineTask,
} from './domain/pipeline-task';
import type { PipelineFlags } from './pipeline.flags';
import { PipelineTaskStore } from './pipeline-task.store';

export interface Decided {
  state: PipelineTask | null;
  events: PipelineEvent[];
}

/**
 * One pipeline change of a project inside the caller's transaction (an inbox transaction or a
 * request's `withOutbox`): the project is locked before any task is read to be changed (at `open`,
 * or by `lockProject` for an `unlocked` one), then each decision's new state is stored and its
 * published events go to the outbox, all in that one transaction.
 */
export class PipelineTransaction {
  readonly store: PipelineTaskStore;

  private constructor(
    manager: EntityManager,
    private readonly outbox: OutboxWriter,
    readonly projectId: string,
    readonly now: Date,
    readonly flags: PipelineFlags,
  ) {
    this.store = new PipelineTaskStore(manager);
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

  /** Decides on the task, then stores and publishes what was decided. A refusal changes nothing. */
  async decide(command: PipelineCommand, state: PipelineTask | null): Promise<Decided | Refusal> {
    const decision = decidePipelineTask(command, state, this.now);
    if (isRefusal(decision)) return decision;
    return { state: await this.commit(state, decision), events: decision };
  }

  /** `decide` for commands that never refuse (only the operator's pause / resume do). */
  async apply(command: PipelineCommand, state: PipelineTask | null): Promise<Decided> {
    const decided = await this.decide(command, state);
    if (isRefusal(decided)) throw new Error(`pipeline ${command.type} refused: ${decided.reason}`);
    return decided;
  }

  private async commit(
    state: PipelineTask | null,
    events: readonly PipelineEvent[],
  ): Promise<PipelineTask | null> {
    if (events.length === 0) return state;
    const next = applyPipelineEvents(state, events);
    if (next) await this.store.save(next);
    for (const event of events.filter(isPublishedPipelineEvent)) this.publish(event);
    return next;
  }

  /** Queues a published event of the project in this transaction's outbox. */
  publish(event: { type: string; data: object; occurredAt: Date }): void {
    this.outbox.event(event.type, this.projectId, event.data, { occurredAt: event.occurredAt });
  }
}
