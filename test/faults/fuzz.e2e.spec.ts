import fc from 'fast-check';
import { AgentEvent, newId, STREAMS } from '@openq/contracts';
import { ProcessStack } from '../support/processes';
import { devToken, Engine, http, SERVICE_TOKEN } from './support/engine';
import { consumerStates, deadLetters, readStream, waitQuiet } from './support/invariants';
import { agentMessage } from './support/fuzz-inputs';
import { fuzzTargets } from './support/fuzz-routes';
import { printFigures, printTable, saveFigures } from './support/report';
import { rng } from './support/rng';
import { scaled } from './support/scale';

/*
 * Issue #9, item 5 — bad input. Every HTTP route and every agent-event subject gets generated
 * junk (fast-check, seeded): wrong types, huge strings, unicode, nested junk, missing and extra
 * fields, invalid ids in the path, bodies over 64 KiB, invalid JSON. Never a 5xx, never a crash,
 * always a `reason`; nothing half-written; every agent message applied or dead-lettered with a reason.
 */

const random = rng();
const HTTP_REQUESTS = scaled(10_000);
const PER_AGENT_TYPE = scaled(150);
const P = 'fz';
const AUTHOR = 'ana';
let stack: ProcessStack;
const questions: string[] = [];
let toolCalls = 0;
const figures: Record<string, number | string | boolean> = { seed: random.seed };

beforeAll(async () => {
  stack = await ProcessStack.start({ dbPrefix: 'openq_fuzz' });
  for (let i = 0; i < 100; i++) {
    const r = await http(stack.gatewayUrl, 'POST', `/internal/projects/${P}/open-questions`, {
      serviceToken: SERVICE_TOKEN,
      body: declareBody(`fixture-${i}`),
    });
    questions.push(r.body.questionId);
  }
}, 180_000);
afterAll(() => stack?.stop(), 60_000);

const safeDecode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};
const someQuestion = () => questions[random.int(0, questions.length - 1)]!;
const freshToolCall = () => `fz-${toolCalls++}`;
const fuzz = fuzzTargets({
  project: P,
  author: AUTHOR,
  someQuestion,
  freshToolCall,
  firstQuestion: () => questions[0] ?? newId(),
});
const ROUTES = fuzz.routes;
const declareBody = fuzz.declareBody;
const validAgentData = fuzz.validAgentData;

interface Outcome {
  route: string;
  status: number;
  reason: string | null;
  request: string;
  toolCallId?: string;
}

it(`never answers ${HTTP_REQUESTS} generated requests over every route with a 5xx, and always with a reason`, async () => {
  console.log(`fuzz: seed ${random.seed} (replay with FAULTS_SEED=${random.seed})`);
  const perRoute = Math.ceil(HTTP_REQUESTS / ROUTES.length);
  const requests = ROUTES.flatMap((route, i) =>
    fc
      .sample(fc.tuple(route.path, route.body ?? fc.constant(undefined)), {
        seed: random.seed + i,
        numRuns: perRoute,
      })
      .map(([path, b]) => ({ route, path, body: b })),
  );
  random.shuffle(requests);
  const outcomes: Outcome[] = [];
  const token = devToken(AUTHOR, P, 'maintainer');
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < requests.length) {
        const { route, path, body: b } = requests[next++]!;
        const auth = route.zone === 'user' ? { token } : { serviceToken: SERVICE_TOKEN };
        const options =
          b === undefined
            ? auth
            : 'json' in b
              ? { ...auth, body: b.json }
              : { ...auth, rawBody: b.raw, contentType: b.contentType };
        const r = await http(stack.gatewayUrl, route.method, path, options);
        const reason = typeof r.body?.reason === 'string' ? (r.body.reason as string) : null;
        const declared =
          b && 'json' in b ? (b.json as { toolCallId?: string } | null)?.toolCallId : undefined;
        // Keyed by project too: some "nasty" path ids ('0', 'null', …) are valid ids.
        const toolCallId =
          typeof declared === 'string' ? `${safeDecode(path.split('/')[3] ?? '')}/${declared}` : undefined;
        outcomes.push({
          route: route.name,
          status: r.status,
          reason,
          request: `${route.method} ${path.slice(0, 120)} ${JSON.stringify(b)?.slice(0, 200)}`,
          toolCallId: typeof toolCallId === 'string' ? toolCallId : undefined,
        });
      }
    }),
  );
  const ms = Date.now() - started;
  const bad = outcomes.filter(
    (o) => o.status === 0 || o.status >= 500 || (o.status >= 400 && o.reason === null),
  );
  // One example of each kind of failure (route, status, reason), so a run names every distinct problem.
  const kinds = new Map<string, string>();
  for (const o of bad) kinds.set(`${o.route} ${o.status} ${o.reason}`, o.request);
  expect([...kinds].map(([kind, example]) => `${kind}: ${example}`)).toEqual([]);

  // Still alive, and nothing half-written or written from a refused body.
  for (const p of stack.all()) {
    expect(p.alive).toBe(true);
    expect(await p.status('/healthz')).toBe(200);
  }
  expect(
    await stack.count(
      `SELECT count(*) AS n FROM (SELECT question_id FROM questions.question_log GROUP BY question_id HAVING count(*) FILTER (WHERE type = 'question.answered') <> count(*) FILTER (WHERE type = 'decision.recorded')) x`,
    ),
  ).toBe(0);
  const accepted = new Set(
    outcomes
      .filter((o) => o.route === 'declare (engine)' && o.status < 300 && o.toolCallId)
      .map((o) => o.toolCallId!),
  );
  const declared = await stack.sql<{ tc: string }>(
    `SELECT project_id || '/' || (data->>'toolCallId') AS tc FROM questions.question_log WHERE type = 'question.declared' AND NOT (project_id = $1 AND data->>'toolCallId' LIKE 'fixture-%')`,
    [P],
  );
  // Each row comes from a body the gateway accepted (2xx), and each accepted toolCallId has its one row.
  expect(declared.filter((d) => !accepted.has(d.tc)).slice(0, 5)).toEqual([]);
  expect(new Set(declared.map((d) => d.tc)).size).toBe(declared.length);
  expect(declared.length).toBe(accepted.size);

  const rows = ROUTES.map((r) => {
    const mine = outcomes.filter((o) => o.route === r.name);
    const by = (lo: number, hi: number) => mine.filter((o) => o.status >= lo && o.status < hi).length;
    const reasons = new Map<string, number>();
    for (const o of mine) if (o.reason) reasons.set(o.reason, (reasons.get(o.reason) ?? 0) + 1);
    const top = [...reasons]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    return {
      route: `${r.method} ${r.name}`,
      requests: mine.length,
      '2xx': by(200, 300),
      '4xx': by(400, 500),
      '5xx': by(500, 600),
      'top reasons': top,
    };
  });
  printTable('fuzz: HTTP outcomes per route', rows);
  Object.assign(figures, {
    'HTTP requests': outcomes.length,
    'HTTP ms': ms,
    'HTTP 5xx': outcomes.filter((o) => o.status >= 500).length,
    'HTTP 413 (over 64 KiB)': outcomes.filter((o) => o.status === 413).length,
    'declarations accepted': accepted.size,
  });
}, 600_000);

it(`applies or dead-letters with a reason each of ${PER_AGENT_TYPE} junk messages on every agent-event subject`, async () => {
  const project = 'fzq';
  const engine = new Engine(stack);
  const types = Object.values(AgentEvent);
  let sent = 0;
  for (const [i, type] of types.entries()) {
    const messages = fc.sample(agentMessage(type, project, validAgentData(type), newId), {
      seed: random.seed + 100 + i,
      numRuns: PER_AGENT_TYPE,
    });
    await Promise.all(
      messages.map(async (m) => {
        await engine.publishRaw(`${type}.${project}`, m, newId());
        sent++;
      }),
    );
  }
  await waitQuiet(stack, 180_000);
  for (const p of stack.all()) expect(p.alive).toBe(true);

  // Every message each consumer saw: applied (its id in the inbox) or dead-lettered (its stream sequence).
  const jsm = await stack.nc.jetstreamManager();
  const consumers = (await jsm.consumers.list(STREAMS.agentEvents.name).next()).filter((c) =>
    /^(questions|gates|context)__/.test(c.name),
  );
  const messages = await readStream(stack.nc, STREAMS.agentEvents.name, `agent.>`);
  const fuzzed = messages.filter((m) => m.subject.endsWith(`.${project}`));
  expect(fuzzed.length).toBe(sent);
  const unsettled: string[] = [];
  let applied = 0;
  let dead = 0;
  for (const c of consumers) {
    const schema = c.name.split('__')[0]!;
    const filter = c.config.filter_subject!.replace(/\.\*$/, '.');
    const mine = fuzzed.filter((m) => m.subject.startsWith(filter));
    const inbox = new Set(
      (
        await stack.sql<{ id: string }>(`SELECT message_id AS id FROM ${schema}.inbox WHERE consumer = $1`, [
          c.name,
        ])
      ).map((r) => r.id),
    );
    const letters = new Set(
      (
        await stack.sql<{ seq: string }>(
          `SELECT stream_seq::text AS seq FROM ${schema}.dead_letter WHERE consumer = $1 AND reason <> ''`,
          [c.name],
        )
      ).map((r) => r.seq),
    );
    for (const m of mine) {
      if (letters.has(String(m.seq))) dead++;
      else if (m.envelope?.eventId && inbox.has(m.envelope.eventId)) applied++;
      else unsettled.push(`${c.name} seq ${m.seq}`);
    }
  }
  expect(unsettled.slice(0, 5)).toEqual([]);
  for (const s of await consumerStates(stack.nc))
    expect([s.name, s.pending, s.ackPending]).toEqual([s.name, 0, 0]);
  expect(
    await stack.count(
      `SELECT count(*) AS n FROM (SELECT question_id FROM questions.question_log GROUP BY question_id HAVING count(*) FILTER (WHERE type = 'question.answered') <> count(*) FILTER (WHERE type = 'decision.recorded')) x`,
    ),
  ).toBe(0);
  const reasons = await deadLetters(stack);
  printTable(
    'fuzz: dead letters by consumer and reason',
    reasons.map((r) => ({ consumer: r.consumer, reason: r.reason, messages: r.n })),
  );
  Object.assign(figures, {
    'agent messages': sent,
    'consumer deliveries settled: applied': applied,
    'consumer deliveries settled: dead-lettered': dead,
    'generated bodies in all': HTTP_REQUESTS + sent,
  });
  printFigures('fuzz: figures', figures);
  saveFigures('fuzz', { figures, deadLetters: reasons });
}, 600_000);

it('refuses QA verdicts citing a question that is not in the project: nothing parked, gate.verdict_rejected once each', async () => {
  // Issue #15 item 1 (SPEC §11.1): agents invent ids. Random UUIDs, and a real question of another project.
  const project = 'fzg';
  const engine = new Engine(stack);
  const citations = [...Array.from({ length: 20 }, () => newId()), questions[0]!];
  const verdicts = citations.map((questionId, i) => ({
    roundId: `ghost-${i}`,
    taskId: `TG-${i}`,
    gate: 'qa',
    sessionId: 'qa-s',
    sessionAuthorId: AUTHOR,
    verdicts: [
      {
        subspecialty: 'rules',
        veredito: 'needs_user_decision',
        resumo: 'r',
        itens: [],
        openQuestionId: questionId,
      },
    ],
  }));
  for (const data of verdicts) {
    const envelope = await engine.emit(AgentEvent.QaVerdict, project, data);
    await engine.publish(envelope, newId()); // redelivered past JetStream's dedupe: changes nothing
  }
  await waitQuiet(stack, 120_000);

  // Handled in parallel: compare in one order. Only rejections: nothing recorded, nothing parked.
  const byTask = (a: { data: unknown }, b: { data: unknown }) =>
    String((a.data as { taskId: string }).taskId).localeCompare(
      String((b.data as { taskId: string }).taskId),
    );
  const rejected = (
    await readStream<Record<string, unknown>>(stack.nc, STREAMS.openqEvents.name, `gate.*.${project}`)
  ).map((m) => ({ type: m.envelope?.type, data: m.envelope?.data }));
  expect(rejected.sort(byTask)).toEqual(
    verdicts
      .map((v, i) => ({
        type: 'gate.verdict_rejected',
        data: {
          taskId: v.taskId,
          gate: 'qa',
          roundId: v.roundId,
          reason: 'pergunta_nao_encontrada',
          questionId: citations[i],
        },
      }))
      .sort(byTask),
  );
  for (const { taskId } of verdicts) {
    const gates = await http(stack.gatewayUrl, 'GET', `/projects/${project}/tasks/${taskId}/gates`, {
      token: devToken('vera', project, 'viewer'),
    });
    expect(gates.body).toEqual([
      expect.objectContaining({ gate: 'qa', state: 'running', parkedReason: null, waitingForYou: false }),
    ]);
  }
  expect(
    await stack.count(`SELECT count(*) AS n FROM gates.dead_letter WHERE subject LIKE $1`, [`%.${project}`]),
  ).toBe(0);
}, 300_000);
