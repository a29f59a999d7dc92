import { Logger } from '@nestjs/common';
import {
  AckPolicy,
  ConsumerEvents,
  DeliverPolicy,
  nanos,
  nuid,
  type ConsumerMessages,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import { STREAMS } from '@openq/contracts';
import { liveEventOf, liveSubject, type LiveEvent } from './live-events';

export type LiveListener = (event: LiveEvent) => void;

export interface TailSubscription {
  /**
   * Every event after this stream sequence reaches the listener, in order; nothing at or before
   * it does. A resuming client catches up on (its Last-Event-ID, position] from JetStream.
   */
  position: number;
  unsubscribe(): void;
}

const STREAM = STREAMS.openqEvents.name;
/** The server drops a consumer of a gateway that died after this long without pulls. */
const INACTIVE_THRESHOLD_MS = 30_000;
const MAX_BACKOFF_MS = 10_000;

/**
 * The live tail of OPENQ_EVENTS for the whole process: ONE ephemeral pull consumer over every
 * subject (no ack, started at the stream's end), whose messages are fanned out in memory to the
 * streams of their project (the subject's last token). The server holds one consumer per gateway
 * replica however many browsers are connected, and an event costs one parse per process.
 *
 * It is kept gap-free like an ordered consumer (which nats-server 2.9 cannot serve): a jump in
 * the delivery sequence, a deleted consumer or an ended pull loop reopens the consumer at the
 * stream sequence after the last one handled.
 */
export class EventTail {
  private readonly logger = new Logger('EventTail');
  private readonly listeners = new Map<string, Set<LiveListener>>();
  /** The last stream sequence handled (whatever its project). */
  private position = 0;
  private starting: Promise<void> | null = null;
  private messages: ConsumerMessages | null = null;
  private consumerName: string | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;

  constructor(private readonly nc: NatsConnection) {}

  /**
   * Starts the tail if needed (fails when OPENQ_EVENTS does not exist yet) and adds the listener
   * to the events of one project or of several (issue #18: `/me/stream`), from one position.
   */
  async subscribe(projectIds: string | readonly string[], listener: LiveListener): Promise<TailSubscription> {
    await this.start();
    // No await from here on: the position read and the registrations happen between two
    // dispatches, so the listener sees exactly the events after `position`, of every project.
    const sets = [...new Set(typeof projectIds === 'string' ? [projectIds] : projectIds)].map((projectId) => {
      let set = this.listeners.get(projectId);
      if (!set) this.listeners.set(projectId, (set = new Set()));
      set.add(listener);
      return [projectId, set] as const;
    });
    return {
      position: this.position,
      unsubscribe: () => {
        for (const [projectId, set] of sets) {
          set.delete(listener);
          if (set.size === 0 && this.listeners.get(projectId) === set) this.listeners.delete(projectId);
        }
      },
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.messages?.stop();
    this.wake?.();
    await this.deleteConsumer();
  }

  private start(): Promise<void> {
    this.starting ??= this.open().then(
      () => void this.run(),
      (error: unknown) => {
        this.starting = null;
        throw error;
      },
    );
    return this.starting;
  }

  /** First opening: from the stream's current end. */
  private async open(): Promise<void> {
    const jsm = await this.nc.jetstreamManager();
    const info = await jsm.streams.info(STREAM);
    this.position = info.state.last_seq;
    await this.openConsumer();
  }

  private async openConsumer(): Promise<void> {
    const jsm = await this.nc.jetstreamManager();
    const name = `gateway_live_${nuid.next()}`;
    await jsm.consumers.add(STREAM, {
      name,
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: this.position + 1,
      inactive_threshold: nanos(INACTIVE_THRESHOLD_MS),
    });
    this.consumerName = name;
    const consumer = await this.nc.jetstream().consumers.get(STREAM, name);
    this.messages = await consumer.consume({ max_messages: 256 });
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      const messages = this.messages;
      if (messages) {
        await this.pump(messages).catch((error: unknown) => this.logger.warn(`live tail: ${String(error)}`));
        failures = 0;
      }
      if (this.stopped || this.nc.isClosed()) break;
      this.messages = null;
      await this.deleteConsumer();
      await this.pause(Math.min(MAX_BACKOFF_MS, 100 * 2 ** failures));
      if (this.stopped || this.nc.isClosed()) break;
      try {
        await this.openConsumer();
        this.logger.log(`live tail reopened after stream sequence ${this.position}`);
      } catch (error) {
        failures++;
        this.logger.warn(`live tail cannot reopen yet: ${String(error)}`);
      }
    }
  }

  /** Waits before reopening; `stop()` cuts it short. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  /** Handles messages until the consumer goes away or skips one (then `run` reopens it). */
  private async pump(messages: ConsumerMessages): Promise<void> {
    void this.watch(messages).catch(() => undefined);
    let expected = 1;
    for await (const m of messages) {
      if (m.info.deliverySequence !== expected) {
        this.logger.warn(
          `live tail skipped deliveries (expected ${expected}, got ${m.info.deliverySequence})`,
        );
        messages.stop();
        break;
      }
      expected++;
      if (m.seq <= this.position) continue;
      this.position = m.seq;
      this.dispatch(m);
    }
  }

  /** A consumer the server no longer has is not coming back by itself. */
  private async watch(messages: ConsumerMessages): Promise<void> {
    for await (const status of await messages.status()) {
      if (
        status.type === ConsumerEvents.ConsumerDeleted ||
        status.type === ConsumerEvents.ConsumerNotFound ||
        status.type === ConsumerEvents.StreamNotFound
      ) {
        messages.stop();
        return;
      }
    }
  }

  private dispatch(m: JsMsg): void {
    const subject = liveSubject(m.subject);
    const set = subject && this.listeners.get(subject.projectId);
    if (!set || set.size === 0) return;
    const event = liveEventOf(m.subject, m.seq, m.data);
    if (!event) {
      this.logger.warn(`skipped ${m.subject} #${m.seq}: not an envelope of its project`);
      return;
    }
    for (const listener of [...set]) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error(`a live listener failed: ${String(error)}`);
      }
    }
  }

  private async deleteConsumer(): Promise<void> {
    const name = this.consumerName;
    this.consumerName = null;
    if (!name || this.nc.isClosed()) return;
    const jsm = await this.nc.jetstreamManager().catch(() => null);
    await jsm?.consumers.delete(STREAM, name).catch(() => undefined);
  }
}
