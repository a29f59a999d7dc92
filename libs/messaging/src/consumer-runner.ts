import { Logger } from '@nestjs/common';
import type { ConsumerMessages, JetStreamClient, JsMsg } from 'nats';
import type { InboundProcessor } from './inbound';

export interface ConsumerRunnerOptions {
  stream: string;
  durable: string;
  /** Messages handled at once by this process. */
  concurrency: number;
  /** How long a message may stay parked behind an earlier message of its subject before it is handed back. */
  maxParkMs?: number;
}

/** The messages of one subject held by this process, lowest stream sequence first. */
interface Lane {
  subject: string;
  queue: JsMsg[];
  busy: boolean;
  /** When a parked head may be tried again, and the pause before the next try. */
  retryAt: number;
  pause: number;
  timer: NodeJS.Timeout | null;
}

const HEARTBEAT_MS = 10_000;
const FIRST_PAUSE_MS = 5;
const MAX_PAUSE_MS = 500;

/**
 * Pulls from a durable consumer and hands messages to the processor, never more than
 * `concurrency` at once. Messages of one subject (`<type>.<projectId>`) are handled one at a
 * time, lowest stream sequence first; different subjects run in parallel. A message whose
 * subject has an earlier message still pending elsewhere (another replica, a redelivery) is
 * parked here — it holds no slot, keeps its delivery alive, and is tried again with a growing
 * pause or as soon as an earlier message of its subject arrives. `stop()` stops pulling, hands
 * back what was pulled and not started, and waits for the messages in flight.
 */
export class ConsumerRunner {
  private readonly logger: Logger;
  private messages: ConsumerMessages | null = null;
  private readonly lanes = new Map<string, Lane>();
  /** Lanes with a message ready to run, waiting for a slot. */
  private readonly waiting = new Set<Lane>();
  private readonly running = new Set<Promise<void>>();
  private readonly parkedSince = new Map<JsMsg, number>();
  /** The messages being handled now. */
  private readonly started = new Set<JsMsg>();
  private heartbeat: NodeJS.Timeout | null = null;
  private loop: Promise<void> | null = null;
  private slotFreed: (() => void) | null = null;
  private stopping = false;
  handled = 0;

  constructor(
    private readonly js: JetStreamClient,
    private readonly processor: InboundProcessor,
    private readonly options: ConsumerRunnerOptions,
  ) {
    this.logger = new Logger(`consumer:${options.durable}`);
  }

  async start(): Promise<void> {
    const consumer = await this.js.consumers.get(this.options.stream, this.options.durable);
    this.messages = await consumer.consume({ max_messages: this.options.concurrency * 2 });
    // Keep the server from redelivering what waits here or runs a slow transaction.
    this.heartbeat = setInterval(() => this.keepAlive(), HEARTBEAT_MS);
    this.heartbeat.unref();
    this.loop = this.run(this.messages);
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const msg of messages) {
        while (!this.stopping && this.running.size >= this.options.concurrency) {
          await new Promise<void>((resolve) => (this.slotFreed = resolve));
        }
        // Checked after waiting for room too: a message pulled before `stop()` but not started is
        // handed back at once, never started after `stop()` (it would outlive the connection).
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
    this.pump(lane);
  }

  /** Starts the lane's first message if the lane is idle, not paused and a slot is free. */
  private pump(lane: Lane): void {
    if (lane.busy || lane.queue.length === 0) return;
    if (this.stopping) return this.release(lane);
    const now = Date.now();
    if (now < lane.retryAt) {
      lane.timer ??= setTimeout(() => {
        lane.timer = null;
        this.pump(lane);
      }, lane.retryAt - now);
      return;
    }
    if (this.running.size >= this.options.concurrency) {
      this.waiting.add(lane);
      return;
    }
    this.waiting.delete(lane);
    const msg = lane.queue.shift()!;
    lane.busy = true;
    this.started.add(msg);
    const task: Promise<void> = this.handle(msg, lane).finally(() => {
      this.started.delete(msg);
      this.running.delete(task);
      lane.busy = false;
      this.pump(lane);
      for (const next of [...this.waiting]) {
        if (this.running.size >= this.options.concurrency) break;
        this.pump(next);
      }
      if (lane.queue.length === 0 && !lane.busy) this.forget(lane);
      this.slotFreed?.();
      this.slotFreed = null;
    });
    this.running.add(task);
  }

  private async handle(msg: JsMsg, lane: Lane): Promise<void> {
    try {
      const outcome = await this.processor.process(msg);
      if (outcome === 'defer' && !this.stopping && !this.parkedTooLong(msg)) return this.park(msg, lane);
      this.parkedSince.delete(msg);
      this.processor.settle(msg, outcome);
      lane.pause = FIRST_PAUSE_MS;
      this.handled++;
    } catch (error) {
      this.parkedSince.delete(msg);
      this.logger.error(`unexpected failure, will be redelivered: ${String(error)}`);
      msg.nak(1000);
    }
  }

  /** Back into its lane, tried again after a pause that grows while its predecessor stays pending. */
  private park(msg: JsMsg, lane: Lane): void {
    if (!this.parkedSince.has(msg)) this.parkedSince.set(msg, Date.now());
    const at = lane.queue.findIndex((queued) => queued.seq >= msg.seq);
    if (at === -1) lane.queue.push(msg);
    else if (lane.queue[at]!.seq !== msg.seq) lane.queue.splice(at, 0, msg);
    lane.retryAt = Date.now() + lane.pause;
    lane.pause = Math.min(lane.pause * 2, MAX_PAUSE_MS);
  }

  private parkedTooLong(msg: JsMsg): boolean {
    const since = this.parkedSince.get(msg);
    return since !== undefined && Date.now() - since > (this.options.maxParkMs ?? 60_000);
  }

  private keepAlive(): void {
    for (const lane of this.lanes.values()) for (const msg of lane.queue) msg.working();
    for (const msg of this.started) msg.working();
  }

  /** Hands back what the lane holds and has not started. */
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
    this.waiting.delete(lane);
    if (this.lanes.get(lane.subject) === lane && lane.queue.length === 0 && !lane.busy)
      this.lanes.delete(lane.subject);
  }

  /**
   * Stops pulling, hands back (nak) what was pulled and not started, and resolves once every
   * message started has been handled and settled — so the caller may then close the connection
   * and the database without cutting a transaction or losing an ack.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.messages?.stop();
    this.slotFreed?.();
    for (const lane of [...this.lanes.values()]) if (!lane.busy) this.release(lane);
    await this.loop?.catch(() => undefined);
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    for (const lane of [...this.lanes.values()]) this.release(lane);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
