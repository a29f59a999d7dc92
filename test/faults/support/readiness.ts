import type { OpenqServiceName } from '@openq/platform';
import type { ProcessStack } from '../../support/processes';

export interface ReadinessSample {
  at: number;
  service: OpenqServiceName;
  status: number;
}

/**
 * Polls every process's /readyz (every `intervalMs`) and keeps what each answered, so a test can
 * tell when a service reported an outage (503) and when it came back (200).
 */
export class ReadinessWatch {
  readonly samples: ReadinessSample[] = [];
  private running = true;
  private readonly loop: Promise<void>;

  constructor(
    private readonly stack: ProcessStack,
    intervalMs = 100,
  ) {
    this.loop = (async () => {
      while (this.running) {
        const at = Date.now();
        await Promise.all(
          this.stack.all().map(async (p) => {
            this.samples.push({ at, service: p.service, status: await p.status('/readyz') });
          }),
        );
        await new Promise((r) => setTimeout(r, intervalMs));
      }
    })();
  }

  /** The latest status of each service. */
  latest(): Map<OpenqServiceName, number> {
    const out = new Map<OpenqServiceName, number>();
    for (const s of this.samples) out.set(s.service, s.status);
    return out;
  }

  /** Did `service` answer `status` at some moment in [from, to]? */
  saw(service: OpenqServiceName, status: number, from: number, to = Infinity): boolean {
    return this.samples.some(
      (s) => s.service === service && s.status === status && s.at >= from && s.at <= to,
    );
  }

  /** The first moment after `from` from which every service answered 200 (and kept answering it). */
  allReadySince(from: number): number | null {
    const services = this.stack.all().map((p) => p.service);
    let since: number | null = null;
    const byTime = new Map<number, ReadinessSample[]>();
    for (const s of this.samples.filter((x) => x.at >= from))
      byTime.set(s.at, [...(byTime.get(s.at) ?? []), s]);
    for (const [at, round] of [...byTime].sort((a, b) => a[0] - b[0])) {
      const ready = services.every((svc) => round.some((r) => r.service === svc && r.status === 200));
      if (ready) since ??= at;
      else since = null;
    }
    return since;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}
