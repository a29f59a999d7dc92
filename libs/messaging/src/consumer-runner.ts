import { Logger } from '@nestjs/common';
import type { ConsumerMessages, JetStreamClient, JsMsg } from 'nats';
import type { ForegroundWork } from './foreground';
import type { InboundProcessor, Outcome } from './inbound';
import type { TransactionSlots } from './transaction-slots';

export interface ConsumerRunnerOptions {
  stream: string;
  durable: string;
  /** Batches handled at once by this process (each one transaction). */
  concurrency: number;
  /** Most messages in one batch (default 256; 1: one message per transaction). */
  batchSize?: number;
  /** How long a message may stay parked behind an earlier message of its subject before it is handed back. */
  maxParkMs?: number;
  /** The process's transaction slots, shared by its consumers: a batch is gathered once it holds one. */
  slots?: TransactionSlots;
  /**
   * While work queues (this runner's last batch held more than one message), how long a batch may
   * wait for company before it is gathered; 0 (the default): never. A message after a batch of one
   * goes at once.
   */
  lingerMs?: number;
  /**
   * The process's foreground work: a foreground runner's batches count in it; a background
   * runner's batch waits until none runs (after `YIELD_SETTLE_MS`, so the deliveries of the same
   * event to foreground consumers go first), at most `yieldMs`.
   */
  foreground?:
    | { work: ForegroundWork; role: 'foreground' }
    | { work: ForegroundWork; role: 'background'; yieldMs: number };
}

export const DEFAULT_BATCH_SIZE = 256;

/** A third of `ackWaitNanos` (at least 100 ms): two keep-alives may be late before one is missed. */
export function keepAliveMs(ackWaitNanos: number): number {
  return Math.max(100, Math.floor(ackWaitNanos / 1e6 / 3));
}

/** The messages of one subject held by this process, lowest stream sequence first. */
interface Lane {
  subject: string;
  queue: JsMsg[];
  /** In a batch being handled: the lane's next messages wait for it. */
  busy: boolean;
  /** When a parked head may be tried again, and the pause before the next try. */
  retryAt: number;
  pause: number;
  timer: NodeJS.Timeout | null;
}

/**
 * How long one pull request lives: the server sends an idle heartbeat every half of it, and two
 * missed heartbeats make the client pull again — so a consumer whose server died or whose leader
 * moved is pulling again within about this long (nats.js's default of 30 s held a cluster's
 * consumer idle for 30 s after a failover). An idle durable costs one pull request per period.
 */
export const PULL_EXPIRES_MS = 10_000;
const FIRST_PAUSE_MS = 5;
/**
 * A background batch's first wait, before it looks whether foreground work runs: the deliveries of
 * one event to the process's other consumers arrive within it (a published event reaches every
 * consumer of it at about the same time), so a foreground consumer's batch has started by then.
 */
const YIELD_SETTLE_MS = 3;
const MAX_PAUSE_MS = 500;

/**
 * Pulls from a durable consumer and hands messages to the processor in batches, never more than
 * `concurrency` batches at once. Whenever a slot is free, a batch takes what is ready — the
 * messages held by idle lanes, each lane's in stream order — up to `batchSize`; nothing waits for
 * company, so a lone message goes at once, alone, and batches grow only while every slot is busy.
 * Messages of one subject (`<type>.<projectId>`) are in one batch at a time, lowest stream
 * sequence first; different subjects go together or in parallel. A message whose subject has an
 * earlier message still pending elsewhere (another replica, a redelivery) is parked here — it
 * holds no slot, keeps its delivery alive, and is tried again with a growing pause or as soon as
 * an earlier message of its subject arrives. `stop()` stops pulling, hands back what was pulled
 * and not started, and waits for the batches in flight.
 */
export class ConsumerRunner {
  private readonly logger: Logger;
  private messages: ConsumerMessages | null = null;
  private readonly lanes = new Map<string, Lane>();
  private readonly running = new Set<Promise<void>>();
  private readonly parkedSince = new Map<JsMsg, number>();
  /** The messages being handled now. */
  private readonly started = new Set<JsMsg>();
  private heartbeat: NodeJS.Timeout | null = null;
  private loop: Promise<void> | null = null;
  private stopping = false;
  /** Registered with the slots, to be woken at their next release. */
  private waitingForSlot = false;
  /** How many messages the last batch started held: more than one, and the next may linger. */
  private lastBatch = 0;
  /** The next batch's linger: running, or over (it goes once a slot is free). */
  private linger: NodeJS.Timeout | null = null;
  private lingered = false;
  /** A background batch's yield: running (its bound and its wake-up), or over (it goes). */
  private yieldBound: NodeJS.Timeout | null = null;
  private yieldTurn: NodeJS.Timeout | null = null;
  private yielded = false;
  /** Counted among the process's foreground consumers (from a successful start until stop). */
  private registered = false;
  private readonly endYield = (): void => {
    this.clearYield();
    this.yielded = true;
    this.pump();
  };
  private readonly onSlotFree = (): void => {
    this.waitingForSlot = false;
    this.pump();
  };
  handled = 0;

  constructor(
    private readonly js: JetStreamClient,
    private readonly processor: Pick<InboundProcessor, 'processBatch' | 'settle'> &
      Partial<Pick<InboundProcessor, 'received'>>,
    private readonly options: ConsumerRunnerOptions,
  ) {
    this.logger = new Logger(`consumer:${options.durable}`);
  }

  private get batchSize(): number {
    return Math.max(1, this.options.batchSize ?? DEFAULT_BATCH_SIZE);
  }

  async start(): Promise<void> {
    const consumer = await this.js.consumers.get(this.options.stream, this.options.durable);
    // The pull window: pulled messages go straight into their lanes, so batches are not bounded
    // by it — the consumer's max_ack_pending bounds what this process may hold.
    this.messages = await consumer.consume({
      max_messages: this.options.concurrency * 2,
      expires: PULL_EXPIRES_MS,
    });
    // Keep the server from redelivering what waits here or runs a slow transaction: three times
    // per ack_wait of the durable as it is on the server (whoever provisioned it; 30 s, the
    // server's default, when it has none).
    const { config } = await consumer.info(true);
    this.heartbeat = setInterval(() => this.keepAlive(), keepAliveMs(config.ack_wait ?? 30e9));
    this.heartbeat.unref();
    if (this.options.foreground?.role === 'foreground') {
      this.options.foreground.work.register();
      this.registered = true;
    }
    this.loop = this.run(this.messages);
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const msg of messages) {
        this.processor.received?.(msg);
        // A message pulled before `stop()` but not started is handed back at once, never started
        // after `stop()` (it would outlive the connection).
        if (this.stopping) {
          msg.nak();
          continue;
        }
        this.accept(msg);
      }
    } catch (error) {
      if (!this.stopping) this.logger.error(`consume loop ended: ${String(error)}`);
    }
  }

  /** Into its lane (held there, kept alive, until a batch takes it), then a batch if a slot is free. */
  private accept(msg: JsMsg): void {
    let lane = this.lanes.get(msg.subject);
    if (!lane) {
      lane = { subject: msg.subject, queue: [], busy: false, retryAt: 0, pause: FIRST_PAUSE_MS, timer: null };
      this.lanes.set(msg.subject, lane);
    }
    const at = lane.queue.findIndex((queued) => queued.seq >= msg.seq);
    if (at === -1) lane.queue.push(msg);
    else if (lane.queue[at]!.seq === msg.seq)
      lane.queue[at] = msg; // redelivered while held: the newer delivery is the live one
    else {
      lane.queue.splice(at, 0, msg);
      if (at === 0) lane.retryAt = 0; // an earlier message arrived: what was parked may go after it
    }
    this.pump();
  }

  /**
   * Starts batches while a slot is free and some lane has a message ready. With shared slots, the
   * batch is gathered only once it holds one: what arrives while every slot is busy waits in its
   * lane and goes with the next batch.
   */
  private pump(): void {
    const { slots } = this.options;
    while (!this.stopping && this.running.size < this.options.concurrency && this.hasWork()) {
      if (this.lingering() || this.yielding()) return;
      if (slots && !slots.tryAcquire()) {
        if (!this.waitingForSlot) {
          this.waitingForSlot = true;
          slots.whenFree(this.onSlotFree);
        }
        return;
      }
      const batch = this.gather();
      if (batch.length === 0) {
        slots?.release();
        return;
      }
      this.launch(batch);
    }
  }

  /**
   * Whether the next batch waits for company: only while work queues (the last batch held more
   * than one message), at most `lingerMs` once, and not once a full batch is ready.
   */
  private lingering(): boolean {
    const lingerMs = this.options.lingerMs ?? 0;
    if (lingerMs <= 0 || this.lastBatch <= 1 || this.lingered) return false;
    if (this.ready() >= this.batchSize) {
      this.endLinger();
      return false;
    }
    this.linger ??= setTimeout(() => {
      this.linger = null;
      this.lingered = true;
      this.pump();
    }, lingerMs);
    return true;
  }

  /**
   * Whether a background batch still yields to the process's foreground work: `YIELD_SETTLE_MS`,
   * then until none runs, at most `yieldMs`.
   */
  private yielding(): boolean {
    const foreground = this.options.foreground;
    if (foreground?.role !== 'background' || foreground.yieldMs <= 0 || this.yielded) return false;
    if (!foreground.work.present) return false;
    if (this.yieldBound) return true;
    this.yieldBound = setTimeout(this.endYield, foreground.yieldMs);
    this.yieldTurn = setTimeout(
      () => {
        this.yieldTurn = null;
        foreground.work.whenIdle(this.endYield);
      },
      Math.min(YIELD_SETTLE_MS, foreground.yieldMs),
    );
    return true;
  }

  private clearYield(): void {
    if (this.yieldBound) clearTimeout(this.yieldBound);
    if (this.yieldTurn) clearTimeout(this.yieldTurn);
    this.options.foreground?.work.forget(this.endYield);
    this.yieldBound = null;
    this.yieldTurn = null;
  }

  private endLinger(): void {
    if (this.linger) clearTimeout(this.linger);
    this.linger = null;
    this.lingered = true;
  }

  /** Messages held by idle lanes. */
  private ready(): number {
    let n = 0;
    for (const lane of this.lanes.values()) if (!lane.busy) n += lane.queue.length;
    return n;
  }

  /** Whether some idle lane holds a message (it may still be pausing: `gather` decides). */
  private hasWork(): boolean {
    for (const lane of this.lanes.values()) if (!lane.busy && lane.queue.length > 0) return true;
    return false;
  }

  /**
   * What is ready, up to the batch size: from each idle lane that is not pausing, its messages in
   * stream order (a lane cut by the size keeps the rest for the next batch). Marks the lanes busy.
   */
  private gather(): JsMsg[] {
    const batch: JsMsg[] = [];
    const now = Date.now();
    for (const lane of this.lanes.values()) {
      if (batch.length >= this.batchSize) break;
      if (lane.busy || lane.queue.length === 0) continue;
      if (now < lane.retryAt) {
        lane.timer ??= setTimeout(() => {
          lane.timer = null;
          this.pump();
        }, lane.retryAt - now);
        continue;
      }
      batch.push(...lane.queue.splice(0, this.batchSize - batch.length));
      lane.busy = true;
    }
    return batch;
  }

  private launch(batch: JsMsg[]): void {
    this.lastBatch = batch.length;
    this.lingered = false;
    this.yielded = false;
    const lanes = new Set(batch.map((msg) => this.lanes.get(msg.subject)!));
    for (const msg of batch) this.started.add(msg);
    const foreground = this.options.foreground?.role === 'foreground' ? this.options.foreground.work : null;
    foreground?.enter();
    const task: Promise<void> = this.handle(batch).finally(() => {
      foreground?.leave();
      for (const msg of batch) this.started.delete(msg);
      this.running.delete(task);
      for (const lane of lanes) {
        lane.busy = false;
        if (lane.queue.length === 0 || this.stopping) this.release(lane);
      }
      // Those waiting for a slot first (they waited longer), then this runner's own lanes.
      this.options.slots?.release();
      this.pump();
    });
    this.running.add(task);
  }

  private async handle(batch: JsMsg[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await this.processor.processBatch(batch);
    } catch (error) {
      this.logger.error(`unexpected failure, will be redelivered: ${String(error)}`);
      for (const msg of batch) {
        this.parkedSince.delete(msg);
        msg.nak(1000);
      }
      return;
    }
    const parked = new Set<Lane>();
    const settled = new Set<Lane>();
    batch.forEach((msg, i) => {
      const lane = this.lanes.get(msg.subject)!;
      const outcome = outcomes[i]!;
      if (outcome === 'defer' && !this.stopping && !this.parkedTooLong(msg)) {
        this.park(msg, lane);
        parked.add(lane);
        return;
      }
      this.parkedSince.delete(msg);
      this.processor.settle(msg, outcome);
      settled.add(lane);
      this.handled++;
    });
    // A lane that moved on starts its pauses over, as a message handled alone did.
    for (const lane of settled) lane.pause = FIRST_PAUSE_MS;
    const now = Date.now();
    for (const lane of parked) {
      // Tried again after a pause that grows while its predecessor stays pending.
      lane.retryAt = now + lane.pause;
      lane.pause = Math.min(lane.pause * 2, MAX_PAUSE_MS);
    }
  }

  /** Back into its lane, in stream order, to be tried again after the lane's pause. */
  private park(msg: JsMsg, lane: Lane): void {
    if (!this.parkedSince.has(msg)) this.parkedSince.set(msg, Date.now());
    const at = lane.queue.findIndex((queued) => queued.seq >= msg.seq);
    if (at === -1) lane.queue.push(msg);
    else if (lane.queue[at]!.seq !== msg.seq) lane.queue.splice(at, 0, msg);
  }

  private parkedTooLong(msg: JsMsg): boolean {
    const since = this.parkedSince.get(msg);
    return since !== undefined && Date.now() - since > (this.options.maxParkMs ?? 60_000);
  }

  private keepAlive(): void {
    for (const lane of this.lanes.values()) for (const msg of lane.queue) msg.working();
    for (const msg of this.started) msg.working();
  }

  /** Hands back what the lane holds and has not started, and forgets the lane once it is idle. */
  private release(lane: Lane): void {
    for (const msg of lane.queue.splice(0)) {
      this.parkedSince.delete(msg);
      msg.nak();
    }
    this.forget(lane);
  }

  private forget(lane: Lane): void {
    if (lane.timer) clearTimeout(lane.timer);
    lane.timer = null;
    if (this.lanes.get(lane.subject) === lane && lane.queue.length === 0 && !lane.busy)
      this.lanes.delete(lane.subject);
  }

  /**
   * Stops pulling, hands back (nak) what was pulled and not started, and resolves once every
   * batch started has been handled and settled — so the caller may then close the connection
   * and the database without cutting a transaction or losing an ack.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.waitingForSlot) this.options.slots?.forget(this.onSlotFree);
    this.waitingForSlot = false;
    if (this.linger) clearTimeout(this.linger);
    this.linger = null;
    this.clearYield();
    this.messages?.stop();
    for (const lane of [...this.lanes.values()]) if (!lane.busy) this.release(lane);
    await this.loop?.catch(() => undefined);
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    for (const lane of [...this.lanes.values()]) this.release(lane);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (this.registered) this.options.foreground?.work.unregister();
    this.registered = false;
  }
}
