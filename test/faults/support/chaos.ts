import type { OpenqServiceName } from '@openq/platform';
import { waitFor } from '@openq/testing';
import type { ProcessStack } from '../../support/processes';
import type { Rng } from './rng';

export interface KillRecord {
  service: OpenqServiceName;
  signal: NodeJS.Signals;
  /** Load progress (0..1) at the kill. */
  atProgress: number;
  /** Kill → the new process answers /readyz 200. */
  restartMs: number;
  exitCode: number | null;
}

/**
 * Kills each service `perService` times at random moments of the load (moments drawn from the
 * PRNG as fractions of the load's progress), restarting it at once. The services' loops run side
 * by side, so two services may be down together.
 */
export async function killDuringLoad(
  stack: ProcessStack,
  progress: () => number,
  random: Rng,
  services: readonly OpenqServiceName[],
  perService: number,
  signal: NodeJS.Signals = 'SIGKILL',
  window: [number, number] = [0.03, 0.9],
  /** Runs after the process has exited and before it is started again (what a test checks in between). */
  afterExit?: (
    service: OpenqServiceName,
    record: { exitCode: number | null; stopMs: number },
  ) => Promise<void>,
  /** One service down at a time (the others all up while one stops and starts again). */
  oneAtATime = false,
): Promise<KillRecord[]> {
  const records: KillRecord[] = [];
  let turn: Promise<void> = Promise.resolve();
  const exclusive = async (work: () => Promise<void>): Promise<void> => {
    if (!oneAtATime) return work();
    const previous = turn;
    let release!: () => void;
    turn = new Promise((r) => (release = r));
    await previous;
    try {
      await work();
    } finally {
      release();
    }
  };
  const plans = services.map((service) => ({
    service,
    moments: Array.from(
      { length: perService },
      () => window[0] + random.next() * (window[1] - window[0]),
    ).sort((a, b) => a - b),
  }));
  await Promise.all(
    plans.map(async ({ service, moments }) => {
      const proc = stack.proc(service);
      for (const moment of moments) {
        await waitFor(() => progress() >= moment, {
          timeoutMs: 600_000,
          intervalMs: 20,
          what: `load progress ${moment}`,
        });
        await exclusive(async () => {
          const at = Date.now();
          const atProgress = progress();
          await proc.kill(signal);
          const exitCode = proc.lastExit?.code ?? null;
          await afterExit?.(service, { exitCode, stopMs: Date.now() - at });
          await proc.start();
          if (process.env.FAULTS_VERBOSE)
            process.stderr.write(
              `[chaos] ${signal} ${service} at ${atProgress.toFixed(3)}: back in ${Date.now() - at} ms\n`,
            );
          records.push({
            service,
            signal,
            atProgress: Math.round(atProgress * 1000) / 1000,
            restartMs: Date.now() - at,
            exitCode,
          });
        });
      }
    }),
  );
  return records;
}

export function summariseKills(records: KillRecord[]): Record<string, string | number>[] {
  const services = [...new Set(records.map((r) => r.service))];
  return services.map((service) => {
    const mine = records.filter((r) => r.service === service);
    const ms = mine.map((r) => r.restartMs).sort((a, b) => a - b);
    return {
      service,
      kills: mine.length,
      signal: mine[0]?.signal ?? '',
      'restart→ready median ms': ms[Math.floor(ms.length / 2)] ?? 0,
      'max ms': ms.at(-1) ?? 0,
      'at progress': mine.map((r) => r.atProgress.toFixed(2)).join(' '),
    };
  });
}
