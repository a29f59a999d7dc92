import type { NatsConnection } from 'nats';

/**
 * A rogue member of a service's durable consumer: it pulls from the same durable as the service
 * and naks everything it gets, so the messages it steals are redelivered at once (to it or to the
 * service) with a growing delivery count — a redelivery storm the service must get through.
 */
export class NakStorm {
  naks = 0;
  maxDeliveryCount = 0;
  private running = true;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly nc: NatsConnection,
    private readonly durables: [stream: string, durable: string][],
    /** Messages stolen per pull. */
    private readonly batch = 10,
  ) {}

  start(): this {
    this.loops = this.durables.map(([stream, durable]) => this.loop(stream, durable));
    return this;
  }

  private async loop(stream: string, durable: string): Promise<void> {
    const consumer = await this.nc.jetstream().consumers.get(stream, durable);
    while (this.running) {
      try {
        const messages = await consumer.fetch({ max_messages: this.batch, expires: 1000 });
        for await (const m of messages) {
          this.naks++;
          this.maxDeliveryCount = Math.max(this.maxDeliveryCount, m.info.deliveryCount);
          m.nak();
        }
      } catch {
        // a pull that expired or a reconnect: pull again
      }
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}
