import { AckPolicy, DeliverPolicy, nanos, type ConsumerMessages, type NatsConnection } from 'nats';
import type { EventEnvelope } from '@openq/contracts';
import { waitFor } from './wait-for';

/** Reads every event on a stream's subjects (an ephemeral ordered consumer) for assertions. */
export class EventCollector {
  readonly events: EventEnvelope[] = [];
  private messages: ConsumerMessages | null = null;

  private constructor(private readonly nc: NatsConnection) {}

  static async start(nc: NatsConnection, stream: string, filter?: string): Promise<EventCollector> {
    const collector = new EventCollector(nc);
    // A plain ephemeral pull consumer: ordered consumers need features newer than nats-server 2.9.
    const jsm = await nc.jetstreamManager();
    const name = `collector_${Math.random().toString(36).slice(2)}`;
    await jsm.consumers.add(stream, {
      name,
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.All,
      inactive_threshold: nanos(60_000),
      ...(filter ? { filter_subject: filter } : {}),
    });
    const consumer = await nc.jetstream().consumers.get(stream, name);
    collector.messages = await consumer.consume();
    void (async () => {
      for await (const m of collector.messages!) collector.events.push(m.json<EventEnvelope>());
    })();
    return collector;
  }

  ofType<T = unknown>(type: string): EventEnvelope<T>[] {
    return this.events.filter((e) => e.type === type) as EventEnvelope<T>[];
  }

  async waitForType<T = unknown>(type: string, count = 1, timeoutMs = 15_000): Promise<EventEnvelope<T>[]> {
    await waitFor(() => this.ofType(type).length >= count, {
      timeoutMs,
      what: `${count} × ${type} (have ${this.ofType(type).length})`,
    });
    return this.ofType<T>(type);
  }

  stop(): void {
    this.messages?.stop();
  }
}
