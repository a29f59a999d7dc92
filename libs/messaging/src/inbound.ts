import { AsyncResource } from 'node:async_hooks';
import { Logger } from '@nestjs/common';
import type { JsMsg } from 'nats';
import type { DataSource, EntityManager } from 'typeorm';
import { inOneStatement, sendAheadOfNext } from '@openq/persistence';
import { followOn, typeOfSubject, type EventEnvelope } from '@openq/contracts';
import { messagingMetrics, secondsSince } from './metrics';
import { OutboxWriter } from './outbox';
import { natsHeaderReader, runInScope, type MessageScope } from './trace-context';
import { groupBySubject, inSubjectOrder, prepareBatch, type BatchItem } from './inbound/batch';
import { Inbox } from './inbound/claim';
import { afterHandlerFailure, DeadLetters } from './inbound/dead-letter';
import {
  consumerSpan,
  defaultBackoff,
  type BatchHandlerFn,
  type EventContext,
  type EventHandlerFn,
  type EventUnit,
  type InboundOptions,
  type Outcome,
} from './inbound/options';
import { enterBatchTurn, PredecessorPending } from './inbound/order';
import { parseEventMessage } from './inbound/parse';

/*
 * The inbound path of a durable consumer, composed of its concerns (inbound/): parse.ts (decode
 * and validate), claim.ts (the inbox claim), order.ts (stream order per subject), batch.ts
 * (gathering a batch, its before-transaction steps), dead-letter.ts (giving up, parking).
 */
export {
  defaultBackoff,
  type BatchHandlerFn,
  type EventContext,
  type EventHandlerFn,
  type EventUnit,
  type InboundOptions,
  type InvalidMessage,
  type Outcome,
} from './inbound/options';
export { checkEventEnvelope, parseEventMessage, type ParsedEventMessage } from './inbound/parse';

const DEFER_DELAY_MS = 250;
/** Messages of a type that needed a statement of its own that take the usual way before another try. */
const RETRY_ONE_STATEMENT_AFTER = 1000;

/**
 * One message's context inside a batch's transaction; called in its scope, so its outbox writer
 * takes that message's correlation id and trace context.
 */
function unitEvent(
  manager: EntityManager,
  batchOutbox: OutboxWriter,
  item: BatchItem,
  after: AfterHandlers,
  batch: readonly EventEnvelope[],
): EventContext {
  const { msg, envelope, prepared } = item;
  return {
    envelope,
    manager,
    outbox: batchOutbox.forUnit(followOn(envelope)),
    deliveries: msg.info.deliveryCount,
    streamSeq: msg.seq,
    prepared,
    batch,
    afterHandlers: after.add,
  };
}

/**
 * The work a message's handlers left for after the last of them (`EventContext.afterHandlers`),
 * each piece run in the async context it was left in (its message's correlation id and trace).
 */
class AfterHandlers {
  private readonly queue: (() => Promise<void>)[] = [];
  readonly add = (work: () => Promise<void>): void => {
    const scope = new AsyncResource('openq.after-handlers');
    this.queue.push(() => scope.runInAsyncScope(work));
  };

  async run(): Promise<void> {
    for (let work = this.queue.shift(); work; work = this.queue.shift()) await work();
  }
}

/**
 * Applies one JetStream message exactly once: parse and validate it, then in ONE transaction
 * record its id in the inbox, run the handler and write the handler's outbox rows. A redelivery
 * finds its id in the inbox and is acked without effect. Poison is dead-lettered and terminated.
 */
export class InboundProcessor {
  private readonly logger: Logger;
  private readonly inbox: Inbox;
  private readonly deadLetters: DeadLetters;
  /**
   * Event types whose handler sent a statement of its own when tried in one statement, with how
   * many of their messages still take the usual transaction before the next try.
   */
  private readonly needsStatements = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly handler: EventHandlerFn,
    private readonly options: InboundOptions,
  ) {
    this.logger = new Logger(`inbound:${options.consumer}`);
    this.inbox = new Inbox(dataSource, options.consumer);
    this.deadLetters = new DeadLetters(dataSource, options, this.logger);
  }

  /**
   * Handles the message as one unit of work: its log lines and the events it causes carry the
   * envelope's correlation id and the message's trace context. Observes the handling time.
   */
  async process(msg: JsMsg): Promise<Outcome> {
    const started = performance.now();
    const type = typeOfSubject(msg.subject);
    let outcome: Outcome = 'nak';
    try {
      const span = consumerSpan(this.options.consumer, `${type} process`);
      outcome = await runInScope(natsHeaderReader(msg.headers), null, span, async (scope) => {
        const settled = await this.processInTurn(msg, scope);
        scope.span?.setAttribute('openq.outcome', settled);
        return settled;
      });
      return outcome;
    } finally {
      messagingMetrics
        .handlingDuration()
        .observe({ consumer: this.options.consumer, type, outcome }, secondsSince(started));
    }
  }

  /**
   * Processes the message, or says `defer` while an earlier message of its subject is pending
   * elsewhere (another replica, a redelivery): the runner parks it and tries again, so it is
   * never applied out of order and waiting never costs a delivery.
   */
  private async processInTurn(msg: JsMsg, scope: MessageScope): Promise<Outcome> {
    try {
      return await this.processInScope(msg, scope);
    } catch (error) {
      if (!(error instanceof PredecessorPending)) throw error;
      messagingMetrics.orderWaits().inc({ consumer: this.options.consumer });
      this.logger.debug(`${msg.subject} seq ${msg.seq} deferred: ${error.message}`);
      return 'defer';
    }
  }

  private async processInScope(msg: JsMsg, scope: MessageScope): Promise<Outcome> {
    const deliveries = msg.info.deliveryCount;
    const parsed = parseEventMessage(msg, this.options.registry);
    if (!parsed.ok) {
      scope.correlationId = parsed.envelope?.correlationId ?? null;
      return this.deadLetters.park(msg, parsed.reason, parsed.message, parsed.envelope);
    }
    const envelope = parsed.envelope;
    scope.correlationId = envelope.correlationId;
    try {
      if (!(await this.apply(msg, envelope, deliveries)))
        messagingMetrics.inboxDuplicates().inc({ consumer: this.options.consumer });
      return 'ack';
    } catch (error) {
      if (error instanceof PredecessorPending) throw error;
      const text = error instanceof Error ? error.message : String(error);
      scope.span?.recordException(error instanceof Error ? error : text);
      const verdict = afterHandlerFailure(error, deliveries, this.options.maxAttempts);
      if (verdict === 'retry-later') {
        this.logger.warn(
          `transient failure on ${envelope.type} ${envelope.eventId} (delivery ${deliveries}): ${text}`,
        );
        return 'nak';
      }
      if (verdict === 'give-up') {
        this.logger.error(
          `giving up on ${envelope.type} ${envelope.eventId} after ${deliveries} deliveries: ${text}`,
        );
        return this.deadLetters.park(msg, 'falha_no_tratamento', text, envelope);
      }
      this.logger.warn(
        `handler failed on ${envelope.type} ${envelope.eventId} (delivery ${deliveries}): ${text}`,
      );
      return 'nak';
    }
  }

  /** False when the inbox already had the message (a redelivery: acked without effect). */
  private async apply(msg: JsMsg, envelope: EventEnvelope, deliveries: number): Promise<boolean> {
    const prepared = await this.options.prepare?.(envelope, () => this.inbox.has(envelope.eventId));
    if (await this.applyInOneStatement(msg, envelope, deliveries, prepared)) return true;
    if (await this.applyWithClaimAhead(msg, envelope, deliveries, prepared)) return true;
    return this.inOneTransaction(async (manager) => {
      // Seen before or not, the message takes its turn: the subject's position must pass it.
      // Its inbox claim goes in the same statement, after the position's lock.
      const claimed = await this.inbox.claimInTurn(manager, this.options.order, msg, envelope.eventId);
      if (!claimed) {
        await this.options.order?.advance(manager, msg.subject, msg.seq);
        return false; // seen before: the effect is already committed
      }
      await this.runOne(manager, msg, envelope, deliveries, prepared);
      await this.options.order?.advance(manager, msg.subject, msg.seq);
      return true;
    });
  }

  /**
   * The usual transaction without waiting for the claim (`withClaimAhead`), for a first delivery
   * whose turn this process's deliveries can tell. True when applied; false when the claim refused
   * or failed — nothing was kept, and the usual way runs and says why (a duplicate, a turn to look
   * up). A handler's own failure is thrown as it is.
   */
  private async applyWithClaimAhead(
    msg: JsMsg,
    envelope: EventEnvelope,
    deliveries: number,
    prepared: unknown,
  ): Promise<boolean> {
    if (msg.info.redelivered) return false;
    const claim = this.inbox.claimInOneStatement(this.options.order, msg, envelope.eventId);
    if (!claim) return false;
    return this.withClaimAhead(claim, (manager) => this.runOne(manager, msg, envelope, deliveries, prepared));
  }

  /**
   * `work` in one transaction behind a one-statement claim (inbox rows, positions, turns; it fails
   * on purpose when the inbox had a message or a turn needs a look-up) sent ahead of its first
   * statement (`sendAheadOfNext`): PostgreSQL still runs the claim first, under the positions'
   * locks, and a refusal fails the statements behind it. True when committed; false when the claim
   * refused or failed (nothing kept); `work`'s own failure is thrown.
   */
  private async withClaimAhead(
    claim: { sql: string; params: unknown[] },
    work: (manager: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    let claimed: Promise<unknown> | null = null;
    try {
      await this.inOneTransaction(async (manager) => {
        try {
          claimed = (await sendAheadOfNext(manager, claim.sql, claim.params)).reply;
        } catch (error) {
          throw new ClaimRefused(error);
        }
        await work(manager);
      });
      return true;
    } catch (error) {
      const refused =
        error instanceof ClaimRefused ||
        (claimed !== null &&
          (await (claimed as Promise<unknown>).then(
            () => false,
            () => true,
          )));
      if (refused) return false;
      throw error;
    }
  }

  /** One message's handler, then its outbox rows (one insert). */
  private async runOne(
    manager: EntityManager,
    msg: JsMsg,
    envelope: EventEnvelope,
    deliveries: number,
    prepared: unknown,
  ): Promise<void> {
    const outbox = new OutboxWriter(manager, followOn(envelope));
    const after = new AfterHandlers();
    const event = {
      envelope,
      manager,
      outbox,
      deliveries,
      streamSeq: msg.seq,
      prepared,
      batch: [envelope],
      afterHandlers: after.add,
    };
    if (this.options.wholeBatch) await this.options.wholeBatch([{ data: envelope.data, event }]);
    else await this.handler(envelope.data, event);
    await after.run();
    await outbox.flush();
  }

  /**
   * Whether messages of these types (one per message) take the usual transaction without a try in
   * one statement: a type whose handler needed a statement of its own skips
   * `RETRY_ONE_STATEMENT_AFTER` of its messages, then is tried again (a handler may read only at
   * times, or have met two writes of one row in a batch).
   */
  private skipsOneStatement(types: readonly string[]): boolean {
    let skips = false;
    for (const type of types) {
      const left = this.needsStatements.get(type);
      if (left === undefined) continue;
      skips = true;
      if (left <= 1) this.needsStatements.delete(type);
      else this.needsStatements.set(type, left - 1);
    }
    return skips;
  }

  /**
   * The message applied in ONE statement, when it can be (`inOneStatement`): its handler runs
   * first, its writes held back; then its claim (inbox row, position, turn) and those writes go as
   * one statement that commits on its own — no START, no COMMIT, no separate claim. It is tried for
   * a first delivery whose turn this process's deliveries can tell, of a type whose handler has not
   * needed a statement of its own lately (a read, an outbox row: then that type's next
   * `RETRY_ONE_STATEMENT_AFTER` messages take the usual transaction). True when applied; false
   * when nothing was kept and the usual way must run (a duplicate, a turn to look up, a handler or
   * statement failure: that way says which).
   */
  private async applyInOneStatement(
    msg: JsMsg,
    envelope: EventEnvelope,
    deliveries: number,
    prepared: unknown,
  ): Promise<boolean> {
    if (msg.info.redelivered || this.skipsOneStatement([envelope.type])) return false;
    const claim = this.inbox.claimInOneStatement(this.options.order, msg, envelope.eventId);
    if (!claim) return false;
    const attempt = await inOneStatement(
      this.dataSource,
      (manager) => this.runOne(manager, msg, envelope, deliveries, prepared),
      claim,
    );
    if (!attempt.done && attempt.why === 'statement')
      this.needsStatements.set(envelope.type, RETRY_ONE_STATEMENT_AFTER);
    messagingMetrics
      .oneStatementUnits()
      .inc({ consumer: this.options.consumer, outcome: attempt.done ? 'applied' : attempt.why });
    return attempt.done;
  }

  /**
   * Applies several messages (of one or more subjects, each subject's in stream order) in ONE
   * transaction, with every guarantee of `process` for each of them: the outcomes come back in
   * the order of `msgs`. A message whose subject has an earlier message pending elsewhere is left
   * out and comes back `defer`, and so do the later ones of its subject. When one of them is
   * refused (poison), or anything fails in the batch's transaction (a handler throws, a deadlock,
   * the database is gone), nothing of the batch is kept and its messages go one by one through
   * `process`, so each gets exactly the outcome it would get alone (dead-lettered, retried later
   * with backoff, given up after `maxAttempts`, parked).
   */
  async processBatch(msgs: readonly JsMsg[]): Promise<Outcome[]> {
    messagingMetrics.batchSize().observe({ consumer: this.options.consumer }, msgs.length);
    if (msgs.length === 1) return [await this.process(msgs[0]!)];
    const started = performance.now();
    const ordered = [...msgs].sort(inSubjectOrder);
    const items: BatchItem[] = [];
    for (const msg of ordered) {
      const parsed = parseEventMessage(msg, this.options.registry);
      if (!parsed.ok) return this.oneByOne(msgs, ordered, 'a message of the batch is refused');
      items.push({ msg, envelope: parsed.envelope });
    }
    let outcomes: Map<JsMsg, Outcome>;
    let duplicates: number;
    try {
      await prepareBatch(items, this.options, this.inbox.has);
      ({ outcomes, duplicates } =
        (await this.applyBatchInOneStatement(items)) ??
        (await this.applyBatchWithClaimAhead(items)) ??
        (await this.applyBatch(items)));
    } catch (error) {
      // The split runs each message's before-transaction step again, as a retry would.
      return this.oneByOne(msgs, ordered, String(error));
    }
    // Counted once committed: a batch rolled back is counted by the messages' own path.
    if (duplicates > 0)
      messagingMetrics.inboxDuplicates().inc({ consumer: this.options.consumer }, duplicates);
    for (const { msg } of items) {
      const outcome = outcomes.get(msg)!;
      if (outcome === 'defer') messagingMetrics.orderWaits().inc({ consumer: this.options.consumer });
      messagingMetrics
        .handlingDuration()
        .observe(
          { consumer: this.options.consumer, type: typeOfSubject(msg.subject), outcome },
          secondsSince(started),
        );
    }
    return msgs.map((msg) => outcomes.get(msg)!);
  }

  /**
   * The batch's split: each message through `process`, in stream order per subject. Once a message
   * of a subject is not settled (retried later, parked), the later ones of that subject wait too —
   * `process` would find that message pending and say `defer` after a look-up.
   */
  private async oneByOne(msgs: readonly JsMsg[], ordered: JsMsg[], why: string): Promise<Outcome[]> {
    this.logger.debug(`applying a batch of ${msgs.length} one message at a time: ${why}`);
    const outcomes = new Map<JsMsg, Outcome>();
    const held = new Set<string>();
    for (const msg of ordered) {
      if (held.has(msg.subject)) {
        messagingMetrics.orderWaits().inc({ consumer: this.options.consumer });
        outcomes.set(msg, 'defer');
        continue;
      }
      const outcome = await this.process(msg);
      if (outcome !== 'ack' && outcome !== 'term') held.add(msg.subject);
      outcomes.set(msg, outcome);
    }
    return msgs.map((msg) => outcomes.get(msg)!);
  }

  /**
   * The batch's transaction: the subjects' positions locked (one statement), the messages that
   * may go now claimed in the inbox (one statement), the handlers of the new ones in stream order
   * per subject — each with its own context, correlation and trace, as alone —, their events in
   * the outbox (one statement), each subject's position moved once, commit.
   */
  private async applyBatch(
    items: BatchItem[],
  ): Promise<{ outcomes: Map<JsMsg, Outcome>; duplicates: number }> {
    return this.inOneTransaction(async (manager) => {
      const outcomes = new Map<JsMsg, Outcome>();
      // Every unit's writer queues its rows here, with its own headers: one insert for the batch.
      const outbox = new OutboxWriter(manager);
      const { taken, moved } = await enterBatchTurn(
        this.options.order,
        manager,
        groupBySubject(items),
        outcomes,
      );
      const claimed = await this.inbox.claimBatch(manager, taken);
      let duplicates = 0;
      const fresh: BatchItem[] = [];
      for (const item of taken) {
        outcomes.set(item.msg, 'ack');
        if (!claimed.delete(item.envelope.eventId)) {
          duplicates++;
          continue; // seen before: the effect is already committed; the position still passes it
        }
        fresh.push(item);
      }
      await this.runFresh(manager, outbox, fresh);
      await this.options.order?.advanceBatch(manager, moved);
      return { outcomes, duplicates };
    });
  }

  /**
   * The batch applied in ONE statement, as `applyInOneStatement` applies one message: every
   * message of it new and in its turn, or null — nothing kept, and the batch's usual transaction
   * follows (which sorts out duplicates, turns to wait for, failures).
   */
  private async applyBatchInOneStatement(
    items: BatchItem[],
  ): Promise<{ outcomes: Map<JsMsg, Outcome>; duplicates: number } | null> {
    if (items.some(({ msg }) => msg.info.redelivered)) return null;
    if (this.skipsOneStatement(items.map(({ envelope }) => envelope.type))) return null;
    const claim = this.inbox.claimBatchInOneStatement(this.options.order, items);
    if (!claim) return null;
    const attempt = await inOneStatement(
      this.dataSource,
      (manager) => this.runFresh(manager, new OutboxWriter(manager), items),
      claim,
    );
    if (!attempt.done && attempt.why === 'statement')
      for (const { envelope } of items) this.needsStatements.set(envelope.type, RETRY_ONE_STATEMENT_AFTER);
    messagingMetrics
      .oneStatementUnits()
      .inc(
        { consumer: this.options.consumer, outcome: attempt.done ? 'applied' : attempt.why },
        items.length,
      );
    if (!attempt.done) return null;
    return { outcomes: new Map(items.map(({ msg }) => [msg, 'ack' as Outcome])), duplicates: 0 };
  }

  /**
   * The batch's usual transaction without waiting for its claim (`withClaimAhead`), when every
   * message of it is a first delivery whose turn this process can tell; null when the claim
   * refused (nothing kept: `applyBatch` follows and sorts out duplicates and turns).
   */
  private async applyBatchWithClaimAhead(
    items: BatchItem[],
  ): Promise<{ outcomes: Map<JsMsg, Outcome>; duplicates: number } | null> {
    if (items.some(({ msg }) => msg.info.redelivered)) return null;
    const claim = this.inbox.claimBatchInOneStatement(this.options.order, items);
    if (!claim) return null;
    const applied = await this.withClaimAhead(claim, (manager) =>
      this.runFresh(manager, new OutboxWriter(manager), items),
    );
    if (!applied) return null;
    return { outcomes: new Map(items.map(({ msg }) => [msg, 'ack' as Outcome])), duplicates: 0 };
  }

  /** The handlers of a batch's new messages, in stream order per subject, then their outbox rows. */
  private async runFresh(manager: EntityManager, outbox: OutboxWriter, fresh: BatchItem[]): Promise<void> {
    const batch = fresh.map((item) => item.envelope);
    if (this.options.wholeBatch)
      await this.runWholeBatch(manager, outbox, fresh, batch, this.options.wholeBatch);
    else for (const item of fresh) await this.runHandler(manager, outbox, item, batch);
    await outbox.flush();
  }

  /**
   * One message's handler inside the batch's transaction, as its own unit of work (logs, trace,
   * events): its rows are queued on the batch's writer with its correlation id and trace headers.
   */
  private runHandler(
    manager: EntityManager,
    batchOutbox: OutboxWriter,
    item: BatchItem,
    batch: readonly EventEnvelope[],
  ): Promise<unknown> {
    return this.inUnitScope(item, async () => {
      const after = new AfterHandlers();
      const event = unitEvent(manager, batchOutbox, item, after, batch);
      await this.handler(event.envelope.data, event);
      await after.run();
    });
  }

  /**
   * The batch's new messages in one call of a whole-batch handler (`InboundOptions.wholeBatch`).
   * Each unit's writer is made in its message's scope, so its events carry that message's
   * correlation id and trace context, as alone; the call itself runs in a span of its own.
   */
  private async runWholeBatch(
    manager: EntityManager,
    batchOutbox: OutboxWriter,
    items: BatchItem[],
    batch: readonly EventEnvelope[],
    wholeBatch: BatchHandlerFn,
  ): Promise<void> {
    if (items.length === 0) return;
    const units: EventUnit[] = [];
    const after = new AfterHandlers();
    for (const item of items) {
      const event = await this.inUnitScope(item, async () =>
        unitEvent(manager, batchOutbox, item, after, batch),
      );
      units.push({ data: item.envelope.data, event });
    }
    const type = items[0]!.envelope.type;
    const span = consumerSpan(this.options.consumer, `${type} process ${units.length} at once`);
    await runInScope(natsHeaderReader(undefined), null, span, () => wholeBatch(units));
    await after.run();
  }

  /** `work` in the scope of one message of a batch: its correlation id, trace context and span. */
  private inUnitScope<T>({ msg, envelope }: BatchItem, work: () => Promise<T>): Promise<T> {
    const span = consumerSpan(this.options.consumer, `${envelope.type} process`);
    return runInScope(natsHeaderReader(msg.headers), envelope.correlationId, span, work);
  }

  /**
   * The one commit point of inbound work (a message, a batch; dead letters, `DeadLetters.park`):
   * `work` runs in one transaction, and once this resolves it is committed. The outbox rows it
   * wrote (one insert, `OutboxWriter.flush`) were handed to the process's publisher, which sends
   * them on COMMIT.
   */
  private inOneTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** A delivery as it arrives, before any later one is handled: the order's window of what is here. */
  received(msg: JsMsg): void {
    this.options.order?.received(msg.subject, msg.seq, msg.info.deliverySequence, !msg.info.redelivered);
  }

  /** Acts on an outcome: the backoff of a nak grows with the deliveries. */
  settle(msg: JsMsg, outcome: Outcome): void {
    if (outcome === 'ack' || outcome === 'term') this.options.order?.settled(msg.subject, msg.seq);
    if (outcome === 'ack') msg.ack();
    else if (outcome === 'term') msg.term();
    else if (outcome === 'defer') msg.nak(DEFER_DELAY_MS);
    else msg.nak((this.options.backoffMs ?? defaultBackoff)(msg.info.deliveryCount));
  }
}

/** The claim sent ahead failed before the transaction could go on (`applyWithClaimAhead`). */
class ClaimRefused extends Error {
  constructor(readonly reason: unknown) {
    super('the inbox claim refused the message');
  }
}
