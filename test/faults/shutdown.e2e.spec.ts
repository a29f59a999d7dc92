import type { OpenqServiceName } from '@openq/platform';
import { ALL_SERVICES, ProcessStack } from '../support/processes';
import { killDuringLoad, summariseKills } from './support/chaos';
import { Engine } from './support/engine';
import { checkWorkload, consumerStates, waitQuiet } from './support/invariants';
import { printFigures, printTable, saveFigures } from './support/report';
import { rng } from './support/rng';
import { Workload } from './support/workload';
import { scaled } from './support/scale';

/*
 * Issue #9, item 7 — graceful shutdown. Each service gets SIGTERM twice while the load runs, and
 * is started again (one service at a time, so a stop is not confused with another service's
 * outage: a handler waiting on a stopped service hands its message back with a retry delay). A graceful stop finishes the transactions in flight (a click in flight gets
 * its answer; nothing committed is left unacknowledged), stops pulling (what it had pulled and not
 * started is handed back at once: its durables hold no message waiting for an ack once it has
 * exited), exits 0, and loses nothing — no dead letter is caused by the shutdown.
 */

const random = rng();
const STOPS_PER_SERVICE = 2;
let stack: ProcessStack;
let running: Workload | null = null;

beforeAll(async () => {
  stack = await ProcessStack.start({ dbPrefix: 'openq_sigterm' });
}, 180_000);
afterAll(async () => {
  running?.abort();
  await stack?.stop();
}, 60_000);

it(`stops each service gracefully ${STOPS_PER_SERVICE} times under load, losing nothing`, async () => {
  console.log(`shutdown: seed ${random.seed} (replay with FAULTS_SEED=${random.seed})`);
  const load = new Workload(stack, new Engine(stack), {
    rng: random,
    tag: 't',
    projects: 8,
    declares: scaled(700),
    cycles: scaled(150),
    answerShare: 0.7,
    cycleAnswerShare: 0.8,
    clickShare: 0.5,
    rate: 200,
  });
  running = load;
  const stops: { service: OpenqServiceName; exitCode: number | null; stopMs: number; leftUnacked: number }[] =
    [];
  const afterExit = async (service: OpenqServiceName, r: { exitCode: number | null; stopMs: number }) => {
    stops.push({ service, ...r, leftUnacked: await abandoned(service) });
  };
  const [kills] = await Promise.all([
    killDuringLoad(
      stack,
      () => load.progress,
      random,
      ALL_SERVICES,
      STOPS_PER_SERVICE,
      'SIGTERM',
      [0.05, 0.85],
      afterExit,
      true,
    ),
    load.run(),
  ]);
  const drainMs = await waitQuiet(stack, 180_000);
  const invariants = await checkWorkload(stack, load);

  printTable(
    'shutdown: each SIGTERM',
    stops.map((s) => ({
      service: s.service,
      exit: s.exitCode,
      'SIGTERM → exited (ms)': s.stopMs,
      'pulled and left unacked': s.leftUnacked,
    })),
  );
  const figures = {
    seed: random.seed,
    SIGTERMs: kills.length,
    'events + clicks': load.engine.published + load.clicks.length,
    'click retries (connection refused / 503 while down)': load.clickRetries,
    'drain after load (ms)': drainMs,
    ...invariants,
  };
  printTable('shutdown: restarts', summariseKills(kills));
  printFigures('shutdown: figures', figures);
  saveFigures('shutdown', { figures, stops });
  expect(stops.map((s) => [s.service, s.exitCode])).toEqual(stops.map((s) => [s.service, 0]));
  // A SIGKILL leaves everything it had pulled (20–30 messages per service here) waiting for
  // ack_wait. A graceful stop hands it back; what the probe may still miss is a message handed
  // back with a retry delay longer than the probe (a transient failure just before the stop) or
  // one the server had already sent as the consumer unsubscribed (a pull request cannot be taken
  // back), never lost (the invariants above). Per stop it varies with the moment (0–9 seen); all
  // eight graceful stops together leave less than ONE SIGKILL of one service does (20–30).
  expect(stops.reduce((sum, s) => sum + s.leftUnacked, 0)).toBeLessThan(20);
  // A click in flight when the gateway or the questions service stopped still got its answer:
  // none was committed and then reported as failed (it would come back 409 on its retry).
  const committedThenFailed = load.clicks.filter((c) => c.status === 409 && c.retries > 0);
  expect(committedThenFailed.map((c) => `${c.questionId}: ${c.retriedOn.join(', ')}`)).toEqual([]);
  expect(invariants.clicks409AfterRetry).toBe(0);
}, 600_000);

/**
 * Messages the stopped process had pulled and neither acked nor handed back (nak) would wait
 * ack_wait (10 s) on the server. A nak'ed message still counts in num_ack_pending until it is
 * delivered again, so a probe pulls from the durables: what comes back at once as a redelivery
 * was handed back; the rest of num_ack_pending was abandoned. The probe hands them back again.
 * Its durables are probed side by side, all within 5 s of the exit: an abandoned message was kept
 * alive until the stop (a third of ack_wait at most before it), so it comes back no sooner than
 * about 6.7 s after, outside the probe — one after the other, a later durable's probe would count
 * its abandoned messages as handed back.
 */
async function abandoned(service: OpenqServiceName): Promise<number> {
  const durables = (await consumerStates(stack.nc)).filter(
    (x) => x.name.startsWith(`${service}__`) && x.ackPending > 0,
  );
  const left = await Promise.all(
    durables.map(async (c) => {
      const consumer = await stack.nc.jetstream().consumers.get(c.stream, c.name);
      let back = 0;
      // 5 s: also what a handler handed back with a retry delay (a transient failure) just before the stop.
      const batch = await consumer.fetch({ max_messages: c.ackPending + c.pending, expires: 5000 });
      for await (const m of batch) {
        if (m.info.deliveryCount > 1) back++;
        m.nak();
      }
      return Math.max(0, c.ackPending - back);
    }),
  );
  return left.reduce((sum, n) => sum + n, 0);
}
