import type { MsgHdrs, NatsConnection, Subscription } from 'nats';
import type { Reply } from '@openq/contracts';

export interface SeenRequest {
  payload: unknown;
  headers: Record<string, string>;
}

type Answer = (payload: unknown) => Reply<unknown>;

/**
 * A stand-in for a domain service in gateway tests: a real NATS subscriber on
 * `openq.<service>.<verb>` (queue group = the service, like the real ones) that records what
 * arrived and answers what the test says.
 */
export class FakeService {
  private readonly answers = new Map<string, Answer>();
  private readonly seen = new Map<string, SeenRequest[]>();
  private readonly subscriptions: Subscription[] = [];

  constructor(
    private readonly nc: NatsConnection,
    private readonly service: string,
  ) {}

  /** Answers `verb` from now on (replacing an earlier answer) and starts listening if needed. */
  async answer(verb: string, answer: Answer): Promise<void> {
    if (!this.answers.has(verb)) {
      const subscription = this.nc.subscribe(`openq.${this.service}.${verb}`, {
        queue: this.service,
        callback: (error, msg) => {
          if (error) return;
          const payload: unknown = msg.json();
          const requests = this.seen.get(verb) ?? [];
          requests.push({ payload, headers: headersOf(msg.headers) });
          this.seen.set(verb, requests);
          msg.respond(JSON.stringify(this.answers.get(verb)?.(payload)));
        },
      });
      this.subscriptions.push(subscription);
      await this.nc.flush();
    }
    this.answers.set(verb, answer);
  }

  last(verb: string): SeenRequest | undefined {
    return this.seen.get(verb)?.at(-1);
  }

  /** How many requests `verb` has received. */
  count(verb: string): number {
    return this.seen.get(verb)?.length ?? 0;
  }

  stop(): void {
    for (const s of this.subscriptions) s.unsubscribe();
  }
}

function headersOf(headers: MsgHdrs | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const key of headers.keys()) out[key.toLowerCase()] = headers.get(key);
  return out;
}
