import type { OpenqServiceName } from '@openq/platform';
import { waitFor } from '@openq/testing';
import { ProcessStack } from '../support/processes';
import { Engine } from './support/engine';
import { checkWorkload, waitQuiet } from './support/invariants';
import { ReadinessWatch } from './support/readiness';
import { printFigures, saveFigures } from './support/report';
import { rng } from './support/rng';
import { Workload } from './support/workload';
import { scaled } from './support/scale';

/*
 * Issue #9, item 2 — broker and database restarts in the middle of a load.
 *
 * NATS: the test's own nats-server is SIGKILLed and started again on the same port and store.
 * PostgreSQL: the machine's server is shared, so it is NOT restarted; instead every backend of the
 * test's database except the test's own is terminated (`pg_terminate_backend`) over and over for
 * a few seconds — to a client that is what a restart looks like: its connections drop, with
 * 57P01 admin_shutdown, and reconnecting ones are dropped again until it stops.
 *
 * The services must notice (/readyz 503), reconnect by themselves, come back (/readyz 200), drain
 * what piled up, and the invariants of the load must hold. Recovery = outage end → every /readyz
 * 200 and the backlog drained.
 */

const random = rng();
const PG_OUTAGE_MS = 4000;
let stack: ProcessStack;
let watch: ReadinessWatch;
let current: Workload | null = null;
const figures: Record<string, number | string | boolean> = { seed: random.seed };

beforeAll(async () => {
  stack = await ProcessStack.start({ dbPrefix: 'openq_outage' });
  watch = new ReadinessWatch(stack, 100);
}, 180_000);
afterAll(async () => {
  current?.abort();
  await watch?.stop();
  await stack?.stop();
}, 60_000);

const DOMAIN: OpenqServiceName[] = ['questions', 'gates', 'context'];

function load(tag: string): Workload {
  current = new Workload(stack, new Engine(stack), {
    rng: random,
    tag,
    projects: 6,
    declares: scaled(600),
    cycles: scaled(120),
    answerShare: 0.6,
    cycleAnswerShare: 0.8,
    clickShare: 0.4,
    rate: 200,
  });
  return current;
}

it('rides out a NATS restart: /readyz goes 503 then 200, nothing lost or doubled', async () => {
  console.log(`outages: seed ${random.seed} (replay with FAULTS_SEED=${random.seed})`);
  const work = load('n');
  const running = work.run();
  await waitFor(() => work.progress >= 0.3, { timeoutMs: 300_000, what: 'load under way' });
  const outageStart = Date.now();
  await stack.nats.kill();
  // Held until every process has reported the outage on /readyz.
  await waitFor(() => stack.all().every((p) => watch.saw(p.service, 503, outageStart)), {
    timeoutMs: 30_000,
    intervalMs: 50,
    what: 'every /readyz 503 while NATS is down',
  });
  const heldMs = Date.now() - outageStart;
  await stack.nats.start();
  const outageEnd = Date.now();
  const readyAt = await waitFor(() => watch.allReadySince(outageEnd), {
    timeoutMs: 120_000,
    what: 'every /readyz 200 after NATS is back',
  });
  await running;
  await waitQuiet(stack, 180_000);
  const drainedAt = Date.now();
  const invariants = await checkWorkload(stack, work);
  Object.assign(figures, {
    'nats: outage (ms)': heldMs,
    'nats: outage end → all ready (ms)': readyAt - outageEnd,
    'nats: outage end → ready and drained (ms)': drainedAt - outageEnd,
    'nats: events + clicks': work.engine.published + work.clicks.length,
    'nats: publish retries': work.engine.publishRetries,
    'nats: click retries': work.clickRetries,
    'nats: answered': invariants.answeredQuestions!,
    'nats: cycles resumed': invariants.cyclesResumed!,
  });
  for (const p of stack.all()) expect(p.alive).toBe(true);
}, 600_000);

it('rides out PostgreSQL dropping every connection for a few seconds: /readyz goes 503 then 200, nothing lost or doubled', async () => {
  const work = load('g');
  const running = work.run();
  await waitFor(() => work.progress >= 0.3, { timeoutMs: 300_000, what: 'load under way' });
  const outageStart = Date.now();
  let terminated = 0;
  let rounds = 0;
  // The outage lasts PG_OUTAGE_MS, and in any case until every domain service has reported it.
  while (Date.now() - outageStart < PG_OUTAGE_MS || !DOMAIN.every((s) => watch.saw(s, 503, outageStart))) {
    const [row] = await stack.sql<{ n: string }>(
      `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [stack.db.url.split('/').pop()],
    );
    terminated += Number(row?.n ?? 0);
    rounds++;
    if (Date.now() - outageStart > 60_000) {
      throw new Error(
        `after 60 s of terminated connections, /readyz reported 503 only for: ${DOMAIN.filter((s) => watch.saw(s, 503, outageStart)).join(', ') || 'none'}`,
      );
    }
  }
  const outageEnd = Date.now();
  const readyAt = await waitFor(() => watch.allReadySince(outageEnd), {
    timeoutMs: 120_000,
    what: 'every /readyz 200 after the outage',
  });
  await running;
  await waitQuiet(stack, 180_000);
  const drainedAt = Date.now();
  const invariants = await checkWorkload(stack, work);
  Object.assign(figures, {
    'pg: outage (ms)': outageEnd - outageStart,
    'pg: backends terminated': terminated,
    'pg: terminate rounds': rounds,
    'pg: services that reported 503': DOMAIN.filter((s) => watch.saw(s, 503, outageStart, outageEnd)).join(
      ' ',
    ),
    'pg: outage end → all ready (ms)': readyAt - outageEnd,
    'pg: outage end → ready and drained (ms)': drainedAt - outageEnd,
    'pg: events + clicks': work.engine.published + work.clicks.length,
    'pg: click retries': work.clickRetries,
    'pg: answered': invariants.answeredQuestions!,
    'pg: cycles resumed': invariants.cyclesResumed!,
  });
  for (const p of stack.all()) expect(p.alive).toBe(true);
  printFigures('outages: figures', figures);
  saveFigures('outages', figures);
}, 600_000);
