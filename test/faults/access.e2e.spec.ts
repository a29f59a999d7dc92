import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { AgentEvent } from '@openq/contracts';
import { freePort, suiteTagEnv, waitFor } from '@openq/testing';
import { CLI, ProcessStack, REPO_ROOT, ServiceProcess, WITH_NOTIFIER } from '../support/processes';
import {
  AUTHOR,
  callers,
  expected,
  issuerCallers,
  P,
  ROUTES,
  STORY,
  TASK,
  type Caller,
  type Route,
  type Secrets,
} from './support/access-table';
import { Engine, http } from './support/engine';
import { printFigures, printTable, saveFigures } from './support/report';

/*
 * Issue #9, item 6 — who gets in. Every route × every kind of caller against the gateway process
 * (and a second gateway with OPENQ_JWT_ISSUER/AUDIENCE set), the status each must get; then the
 * processes' whole output is searched for the secrets and every token used; then production mode
 * must refuse the development secrets in one line.
 */

const SECRETS: Secrets = {
  jwtSecret: `jwt-${'s3cr3t'.repeat(8)}`,
  serviceToken: `svc-${'t0k3n'.repeat(10)}`,
};
const STRICT: Secrets = { ...SECRETS, issuer: 'https://idp.example', audience: 'openq-api' };
let stack: ProcessStack;
let strict: ServiceProcess;
const used = new Set<string>();
const figures: Record<string, string | number | boolean> = {};

beforeAll(async () => {
  stack = await ProcessStack.start({
    dbPrefix: 'openq_access',
    services: WITH_NOTIFIER,
    env: {
      LOG_LEVEL: 'info',
      OPENQ_JWT_SECRET: SECRETS.jwtSecret,
      OPENQ_SERVICE_TOKEN: SECRETS.serviceToken,
    },
  });
  strict = new ServiceProcess(
    'gateway',
    await freePort(),
    () => ({
      PATH: process.env.PATH,
      ...stack.env,
      OPENQ_JWT_ISSUER: STRICT.issuer,
      OPENQ_JWT_AUDIENCE: STRICT.audience,
    }),
    join(stack.logDir, 'gateway-strict.log'),
  );
  await strict.start();
  const engine = new Engine(stack);
  await engine.emit(AgentEvent.GateStarted, P, {
    taskId: TASK,
    gate: 'qa',
    sessionId: 'exec-1',
    sessionAuthorId: AUTHOR,
  });
  await engine.emit(AgentEvent.StoryUpserted, P, {
    storyId: STORY,
    status: 'draft',
    archived: false,
    title: 'Checkout',
    rf: ['RF-1'],
    rnf: [],
    dod: [],
    dor: [],
    regras: ['RN-1'],
    taskIds: [TASK],
  });
  await engine.emit(AgentEvent.TaskStatus, P, { taskId: TASK, storyId: STORY, status: 'todo' });
  await engine.emit(AgentEvent.TaskCreated, P, { taskId: TASK, repo: 'web', order: 1, deps: [], labels: [] });
  const engineDeclare = ROUTES.find((r) => r.name === 'declare (engine)')!;
  expect(
    (
      await http(stack.gatewayUrl, 'POST', engineDeclare.path(''), {
        serviceToken: SECRETS.serviceToken,
        body: engineDeclare.body,
      })
    ).status,
  ).toBe(201);
  const maintainer = callers(SECRETS).find((c) => c.name === 'maintainer')!.token!;
  for (const path of [
    `/projects/${P}/tasks/${TASK}/gates`,
    `/projects/${P}/tasks/${TASK}/dev-context`,
    `/projects/${P}/pipeline/queue`,
  ]) {
    await waitFor(
      async () => (await http(stack.gatewayUrl, 'GET', path, { token: maintainer })).status === 200,
      { timeoutMs: 30_000, what: `fixture ${path}` },
    );
  }
  await waitFor(
    async () =>
      (
        await http(stack.gatewayUrl, 'GET', `/projects/${P}/pipeline/queue`, { token: maintainer })
      ).text.includes(TASK),
    { timeoutMs: 30_000, what: 'pipeline task' },
  );
}, 180_000);
afterAll(async () => {
  await strict?.stop();
  await stack?.stop();
}, 60_000);

let asked = 0;
async function freshQuestion(): Promise<string> {
  const r = await http(stack.gatewayUrl, 'POST', `/internal/projects/${P}/open-questions`, {
    serviceToken: SECRETS.serviceToken,
    body: {
      sessionId: 's1',
      sessionAuthorId: AUTHOR,
      autor: 'po',
      // Numbered: SPEC §12.3 would join two declarations of one text in a project.
      pergunta: `Ship it? (${++asked})`,
      sugestao: 'yes',
      afeta: { regras: [], historias: [], tarefas: [] },
      toolCallId: `acl-${Math.random().toString(36).slice(2)}`,
    },
  });
  expect(r.status).toBe(201);
  return r.body.questionId as string;
}

async function call(base: string, route: Route, caller: Caller): Promise<[number, string?]> {
  if (caller.token) used.add(caller.token);
  const path = route.path(route.needsQuestion ? await freshQuestion() : '');
  if (route.needsTaskState) {
    const verb = route.needsTaskState === 'paused' ? 'pause' : 'resume';
    const maintainer = callers(SECRETS).find((c) => c.name === 'maintainer')!.token!;
    const r = await http(stack.gatewayUrl, 'POST', `/projects/${P}/pipeline/tasks/${TASK}/${verb}`, {
      token: maintainer,
    });
    if (![200, 409].includes(r.status))
      throw new Error(`could not ${verb} the fixture task: ${r.status} ${r.text}`);
  }
  const headers: Record<string, string> = {};
  if (caller.token) headers.authorization = `Bearer ${caller.token}`;
  if (caller.serviceToken) headers['x-service-token'] = caller.serviceToken;
  if (route.body !== undefined) headers['content-type'] = 'application/json';
  const abort = new AbortController();
  const res = await fetch(`${base}${path}`, {
    method: route.method,
    headers,
    body: route.body === undefined ? undefined : JSON.stringify(route.body),
    signal: abort.signal,
  });
  if (route.streaming && res.status === 200) {
    abort.abort();
    return [200];
  }
  const text = await res.text();
  const reason = res.status >= 400 ? (JSON.parse(text) as { reason?: string }).reason : undefined;
  return reason ? [res.status, reason] : [res.status];
}

const show = ([status, reason]: [number, string?]) => (reason ? `${status} ${reason}` : String(status));

it('answers every route × caller with the status of the SPEC §4 table', async () => {
  const all = callers(SECRETS);
  const mismatches: string[] = [];
  const rows: Record<string, string>[] = [];
  for (const route of ROUTES) {
    const row: Record<string, string> = { route: `${route.method} ${route.name}` };
    for (const caller of all) {
      const want = expected(route, caller);
      const got = await call(stack.gatewayUrl, route, caller);
      row[caller.name] = show(got).replace(/ .*/, '') + (show(got) === show(want) ? '' : ' ✗');
      if (show(got) !== show(want))
        mismatches.push(`${route.name} / ${caller.name}: got ${show(got)}, want ${show(want)}`);
    }
    rows.push(row);
  }
  printTable('access: status per route (rows) and caller (columns); ✗ = not as the table says', rows);
  figures.cells = ROUTES.length * all.length;
  expect(mismatches).toEqual([]);
}, 300_000);

it('checks issuer and audience when the gateway is configured with them', async () => {
  const mismatches: string[] = [];
  const rows: Record<string, string>[] = [];
  for (const route of ROUTES.filter((r) => r.zone === 'user')) {
    const row: Record<string, string> = { route: `${route.method} ${route.name}` };
    for (const caller of issuerCallers(STRICT)) {
      const want = expected(route, caller);
      const got = await call(strict.url(''), route, caller);
      row[caller.name] = show(got).replace(/ .*/, '') + (show(got) === show(want) ? '' : ' ✗');
      if (show(got) !== show(want))
        mismatches.push(`${route.name} / ${caller.name}: got ${show(got)}, want ${show(want)}`);
    }
    rows.push(row);
  }
  printTable('access: a gateway with OPENQ_JWT_ISSUER/OPENQ_JWT_AUDIENCE', rows);
  expect(mismatches).toEqual([]);
}, 300_000);

it('never writes a secret or a token to the logs', async () => {
  const outputs = [...stack.all(), strict].map((p) => ({ name: p.logPath, text: p.output() }));
  const needles = [
    SECRETS.jwtSecret,
    SECRETS.serviceToken,
    'y'.repeat(48),
    ...used,
    ...[...used].map((t) => t.split('.')[2] ?? '').filter((s) => s.length > 10),
  ];
  const leaks = outputs.flatMap((o) =>
    needles.filter((n) => o.text.includes(n)).map((n) => `${o.name}: ${n.slice(0, 12)}…`),
  );
  const logged = outputs.reduce((a, o) => a + o.text.split('\n').length, 0);
  figures.logLines = logged;
  figures.tokensSearched = used.size;
  expect(logged).toBeGreaterThan(100); // the requests above were logged (LOG_LEVEL=info)
  expect(leaks).toEqual([]);
});

function runToExit(
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number | null; lines: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, ...suiteTagEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, lines: out.split('\n').filter((l) => l.trim() !== '') });
    });
  });
}

it('refuses, in production, to start on the development secrets: exit 1 and one line naming the variable', async () => {
  const base = {
    NODE_ENV: 'production',
    NATS_URL: stack.nats.url,
    DATABASE_URL: stack.db.url,
    PORT: '0',
    HOST: '127.0.0.1',
  };
  const strong = 'p'.repeat(40);
  const cases: [string, Record<string, string>, string[], string][] = [
    ['gateway, both defaults', {}, ['start', 'gateway'], 'OPENQ_JWT_SECRET'],
    [
      'gateway, default service token',
      { OPENQ_JWT_SECRET: strong },
      ['start', 'gateway'],
      'OPENQ_SERVICE_TOKEN',
    ],
    [
      'gateway, short secret',
      { OPENQ_JWT_SECRET: 'short', OPENQ_SERVICE_TOKEN: strong },
      ['start', 'gateway'],
      'OPENQ_JWT_SECRET',
    ],
    ['all four in one process', {}, ['start'], 'OPENQ_JWT_SECRET'],
  ];
  const rows: Record<string, string | number | null>[] = [];
  for (const [what, env, args, variable] of cases) {
    const { code, lines } = await runToExit({ ...base, ...env }, args);
    rows.push({ case: what, exit: code, line: lines.join(' / ') });
    expect({ what, code, lines: lines.length, named: lines[0]?.includes(variable) }).toEqual({
      what,
      code: 1,
      lines: 1,
      named: true,
    });
  }
  printTable('access: production refuses development secrets', rows);
  printFigures('access: figures', figures);
  saveFigures('access', { figures, production: rows });
}, 300_000);
