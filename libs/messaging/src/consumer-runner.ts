import { Logger } from '@nestjs/common';
import type { ConsumerMessages, JetStreamClient, JsMsg } from 'nats';
import type { InboundProcessor } from './inbound';

export interface ConsumerRunnerOptions {
  stream: string;
  durable: string;
  /** Messages handled at once by this process. */
  concurrency: number;
}

/**
 * Pulls from a durable consumer and hands each message to the processor, never more than
 * `concurrency` at once. `stop()` stops pulling, hands back what it had pulled and not started,
 * and waits for the messages in flight.
 */
export class ConsumerRunner {
  private readonly logger: Logger;
  private messages: ConsumerMessages | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private loop: Promise<void> | null = null;
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
    this.loop = this.run(this.messages);
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const msg of messages) {
        while (!this.stopping && this.inFlight.size >= this.options.concurrency) await Promise.race(this.inFlight);
        // Checked after waiting for room too: a message pulled before `stop()` but not started is
        // handed back at once, never started after `stop()` (it would outlive the connection).
        if (this.stopping) {
          msg.nak();
          continue;
        }
        const task = this.handle(msg).finally(() => this.inFlight.delete(task));
        this.inFlight.add(task);
      }
    } catch (error) {
      if (!this.stopping) this.logger.error(`consume loop ended: ${String(error)}`);
    }
  }

  private async handle(msg: JsMsg): Promise<void> {
    // Keep the server from redelivering while a slow transaction is still running.
    const heartbeat = setInterval(() => msg.working(), 10_000);
    try {
      const outcome = await this.processor.process(msg);
      this.processor.settle(msg, outcome);
      this.handled++;
    } catch (error) {
      this.logger.error(`unexpected failure, will be redelivered: ${String(error)}`);
      msg.nak(1000);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * Stops pulling, hands back (nak) what was pulled and not started, and resolves once every
   * message started has been handled and settled — so the caller may then close the connection
   * and the database without cutting a transaction or losing an ack.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.messages?.stop();
    await this.loop?.catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
  }
}
