import { Agent } from 'node:http';
import { http } from '../support/http';
import { Latency, now } from '../support/stats';

export interface ReadBurst {
  sent: number;
  admitted: number;
  /** Answered 503 `sobrecarregado` at once (the gateway's bound). */
  shed: number;
  /** Anything else: another status, or no response. */
  other: number;
  admittedP50: number;
  admittedP99: number;
  /** `/healthz` asked one at a time during the burst, on each URL given (issue #27): p50, p99, samples. */
  health: Record<string, { p50: number; p99: number; samples: number; failed: number }>;
}

/** Asks `url` one request at a time until `done()`, timing each answer. */
async function sampleHealth(url: string, done: () => boolean): Promise<ReadBurst['health'][string]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latency = new Latency();
  let failed = 0;
  try {
    while (!done()) {
      const at = now();
      const res = await http('GET', url, {}, undefined, { agent, noResponseAsZero: true });
      latency.record(now() - at);
      if (res.status !== 200) failed++;
    }
    return { p50: latency.p(50), p99: latency.p(99), samples: latency.count, failed };
  } finally {
    agent.destroy();
  }
}

async function get(
  agent: Agent,
  url: string,
  token: string,
): Promise<{ status: number; reason: string | null }> {
  const res = await http('GET', url, { authorization: `Bearer ${token}` }, undefined, {
    agent,
    noResponseAsZero: true,
  });
  try {
    return { status: res.status, reason: (JSON.parse(res.body) as { reason?: string }).reason ?? null };
  } catch {
    return { status: res.status, reason: null };
  }
}

/**
 * `reads` open-question lists requested at once, each on its own connection (as many browsers
 * would), against the gateway's bound on reads in flight (`GATEWAY_MAX_READS_IN_FLIGHT`): how
 * many were admitted, how many shed at once with 503 `sobrecarregado`, and the latency of the
 * admitted ones from the burst's start.
 */
export async function readBurst(
  system: { baseUrl: string },
  projectId: string,
  token: string,
  reads: number,
  /** Liveness URLs to time while the burst is under way (label → URL). */
  healthUrls: Record<string, string> = {},
): Promise<ReadBurst> {
  const agent = new Agent({ keepAlive: true, maxSockets: reads });
  const admitted = new Latency();
  let shed = 0;
  let other = 0;
  try {
    const url = `${system.baseUrl}/projects/${projectId}/open-questions?limit=20`;
    const started = now();
    let over = false;
    const health = Object.entries(healthUrls).map(
      async ([label, healthUrl]) => [label, await sampleHealth(healthUrl, () => over)] as const,
    );
    await Promise.all(
      Array.from({ length: reads }, async () => {
        const res = await get(agent, url, token);
        const at = now() - started;
        if (res.status === 200) admitted.record(at);
        else if (res.status === 503 && res.reason === 'sobrecarregado') shed++;
        else other++;
      }),
    ).finally(() => (over = true));
    return {
      health: Object.fromEntries(await Promise.all(health)),
      sent: reads,
      admitted: admitted.count,
      shed,
      other,
      admittedP50: admitted.p(50),
      admittedP99: admitted.p(99),
    };
  } finally {
    agent.destroy();
  }
}
