import { Agent } from 'node:http';
import { DEV_SERVICE_TOKEN } from '@openq/platform';
import { declareData } from '../support/payloads';
import { http } from '../support/http';
import { Latency, now } from '../support/stats';

export interface BurstRun {
  declarations: number;
  /** Answered with a 5xx (the gateway's 504: the questions service did not reply in time). */
  failed5xx: number;
  /** No HTTP response at all (connection refused or reset). */
  noResponse: number;
  /** From the first request sent to the last response received. */
  allAnsweredMs: number;
  /** Each declaration from the burst's start (when all were due) to its response. */
  p50: number;
  p99: number;
}

const PROJECTS = 10;

/** One POST on its own connection of `agent`; the status, or 0 when no response came. */
const post = (agent: Agent, url: string, body: string) =>
  http('POST', url, { 'content-type': 'application/json', 'x-service-token': DEV_SERVICE_TOKEN }, body, {
    agent,
    noResponseAsZero: true,
  });

/**
 * A burst: `declarations` open questions declared at once over raw HTTP (over `projects`
 * projects), as many engines calling the gateway's `POST /internal/projects/:p/open-questions`
 * (service token) in the same instant would. Every request is sent in the same tick, each on a
 * connection of its own (a fresh node:http agent per burst with as many sockets as requests, so
 * the gateway sees them all at once — connections included — and not a client-side queue).
 * Counts the 5xx and the requests that got no response, and times each from the burst's start to
 * its response.
 */
export async function burstRun(
  system: { baseUrl: string },
  declarations: number,
  tag: string,
  projects = PROJECTS,
): Promise<BurstRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: declarations });
  const latency = new Latency();
  let failed5xx = 0;
  let noResponse = 0;
  let unexpected: string | null = null;
  try {
    const bodies = Array.from({ length: declarations }, (_, i) => JSON.stringify(declareData(i, tag)));
    const started = now();
    let last = started;
    await Promise.all(
      bodies.map(async (body, i) => {
        const res = await post(
          agent,
          `${system.baseUrl}/internal/projects/p${i % projects}/open-questions`,
          body,
        );
        last = Math.max(last, now());
        latency.record(now() - started);
        if (res.status === 0) noResponse++;
        else if (res.status >= 500) failed5xx++;
        // 201: a new question; 200: it asked what another did (joined, §12.3) — answered either way.
        else if (res.status !== 201 && res.status !== 200)
          unexpected ??= `declaration ${i} → ${res.status} ${res.body.slice(0, 200)}`;
      }),
    );
    if (unexpected) throw new Error(`bench: ${unexpected}`);
    return {
      declarations,
      failed5xx,
      noResponse,
      allAnsweredMs: last - started,
      p50: latency.p(50),
      p99: latency.p(99),
    };
  } finally {
    agent.destroy();
  }
}
