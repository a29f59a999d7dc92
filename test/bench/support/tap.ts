import {
  AckPolicy,
  DeliverPolicy,
  nanos,
  type ConsumerMessages,
  type JsMsg,
  type NatsConnection,
} from 'nats';

/**
 * A subscriber of the bench: an ephemeral JetStream pull consumer (no acks, new messages only)
 * on `filter`, calling `onMessage` for each delivery. It is how an engine would see openq's
 * events, and it stays cheap: parsing is left to the callback.
 */
export class Tap {
  private constructor(private readonly messages: ConsumerMessages) {}

  static async start(
    nc: NatsConnection,
    stream: string,
    filter: string,
    onMessage: (msg: JsMsg) => void,
  ): Promise<Tap> {
    const jsm = await nc.jetstreamManager();
    const name = `bench_tap_${Math.random().toString(36).slice(2)}`;
    await jsm.consumers.add(stream, {
      name,
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.New,
      filter_subject: filter,
      inactive_threshold: nanos(30_000),
    });
    const consumer = await nc.jetstream().consumers.get(stream, name);
    const messages = await consumer.consume({ max_messages: 512 });
    void (async () => {
      for await (const m of messages) onMessage(m);
    })();
    return new Tap(messages);
  }

  stop(): void {
    this.messages.stop();
  }
}
