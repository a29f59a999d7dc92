import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OpenqHttpClient, verifySignature } from '@openq/agent-sdk';
import { OpenqEvent } from '@openq/contracts';
import { DEV_SERVICE_TOKEN } from '@openq/platform';
import { packAgentSdk, ROOT } from '../../tools/pack-agent-sdk';
import { waitFor } from '@openq/testing';
import { RECEIVERS_ALLOWED, WebhookReceiver } from '@openq/testing/webhook-receiver';
import { Stack } from '../support/stack';

// Issue #16 §2: `@openq/agent-sdk` is a package an engine outside this repository installs. The
// test packs it (`npm pack`), installs the tarball into a temporary project outside the workspace
// (from the npm cache: `--offline`, or `--prefer-offline` when the cache lacks the registry's
// metadata), compiles examples/engine-loop/engine.ts there against the package's .d.ts, and runs
// it against the started system: declare, QA verdict, answer by agent, resume, turn context.
// Issue #34's "Done when": that engine imports only the SDK and speaks only HTTP — openq's events
// reach it by its subscription (signed POSTs) and by the catch-up route, gate.resumed once each.

const run = promisify(execFile);
let stack: Stack;
let project: string;
let install = '';
let readmeBlocks: string[] = [];

beforeAll(async () => {
  stack = await Stack.start({
    services: ['questions', 'gates', 'context', 'notifier'],
    env: { ...RECEIVERS_ALLOWED, NOTIFIER_POLL_MS: '50', NOTIFIER_RETRY_BASE_MS: '100' },
  });
  const tarball = packAgentSdk();
  project = mkdtempSync(join(tmpdir(), 'openq-engine-'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'outside-engine', version: '1.0.0', private: true }),
  );
  const npm = (mode: string) =>
    run('npm', ['install', mode, '--no-audit', '--no-fund', tarball], {
      cwd: project,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
  try {
    await npm('--offline');
    install = '--offline';
  } catch (error) {
    // A cache filled by `npm ci` holds the tarballs but not the registry's metadata for them.
    if (!String((error as { stderr?: string }).stderr).includes('ENOTCACHED')) throw error;
    await npm('--prefer-offline');
    install = '--prefer-offline';
  }
  cpSync(join(ROOT, 'examples/engine-loop/engine.ts'), join(project, 'engine.ts'));
  readmeBlocks = tsBlocks(readFileSync(join(ROOT, 'libs/agent-sdk/README.md'), 'utf8'));
  readmeBlocks.forEach((code, i) => writeFileSync(join(project, `readme-${i + 1}.ts`), code));
  await compile(['engine.ts', ...readmeBlocks.map((_, i) => `readme-${i + 1}.ts`)]);
});

/** The ```ts blocks of a Markdown file, in order. */
function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map(([, code]) => code!);
}

/** Compiles the .ts files of the engine's project as an engine would: strict, CommonJS, the package's types. */
function compile(files: string[]) {
  return run(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      ...files,
      ...['--outDir', 'out', '--strict', '--target', 'es2022', '--lib', 'es2023,dom'],
      ...['--module', 'node16', '--moduleResolution', 'node16'],
      ...['--types', 'node', '--typeRoots', join(ROOT, 'node_modules/@types')],
    ],
    { cwd: project },
  ).catch((error: { stdout?: string }) => {
    throw new Error(`${files.join(', ')} do not compile against the package:\n${error.stdout}`);
  });
}

afterAll(async () => {
  await stack?.stop();
  if (project) rmSync(project, { recursive: true, force: true });
});

it('installs as a package of its own: entry point, types, the contracts bundled inside', () => {
  process.stdout.write(`agent SDK installed with npm install ${install}\n`);
  const installed = join(project, 'node_modules/@openq/agent-sdk');
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  expect(manifest).toMatchObject({ name: '@openq/agent-sdk', types: './dist/index.d.ts' });
  expect(existsSync(join(installed, 'dist/index.d.ts'))).toBe(true);
  expect(existsSync(join(installed, 'node_modules/@openq/contracts/dist/index.js'))).toBe(true);
  // Nothing of the workspace leaks in: no sources, no tests.
  expect(existsSync(join(installed, 'src'))).toBe(false);
  expect(existsSync(join(installed, 'dist/client.spec.js'))).toBe(false);
  // Its runtime dependencies resolve in the engine's project.
  expect(existsSync(join(project, 'node_modules/nats/package.json'))).toBe(true);
});

it('runs the example engine on HTTP alone: declare, verdict, agent answer, resume by webhook and catch-up', async () => {
  const source = readFileSync(join(ROOT, 'examples/engine-loop/engine.ts'), 'utf8');
  const imported = [...source.matchAll(/from '([^']+)'/g)].map(([, from]) => from ?? '');
  expect(imported.filter((from) => !from.startsWith('node:'))).toEqual(['@openq/agent-sdk']);
  const projectId = 'outside-http';
  const engine = run(process.execPath, [join(project, 'out/engine.js')], {
    cwd: project,
    env: {
      PATH: process.env.PATH,
      OPENQ_URL: stack.baseUrl,
      OPENQ_SERVICE_TOKEN: DEV_SERVICE_TOKEN,
      OPENQ_PROJECT: projectId,
    },
  });
  const { stdout } = await engine.catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(
      `the example engine failed: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
  });
  expect(stdout).toContain('over HTTP alone');
  expect(stdout).toMatch(
    /1\. po \(OpenAI tool call declare_open_question\): declared \(question [0-9a-f-]{36}\)/,
  );
  expect(stdout).toMatch(
    /2\. qa \(Anthropic tool call emit_qa_verdict\): gate parked \(user_decision\) on 1/,
  );
  expect(stdout).toContain('3. po (Anthropic tool call answer_open_question): recorded');
  expect(stdout).toContain('4. gate resumed (trigger answer) with 1 decision(s)');
  expect(stdout).toContain(
    '5. turn context: "Must the CSV export itemise VAT?" → Yes, one VAT column per rate. (via po)',
  );
  expect(stdout).toContain('6. gate.resumed: 1 by webhook, 1 by catch-up (the same event)');
  // What openq itself recorded for that project.
  const ofProject = (type: string) => stack.events.ofType(type).filter((e) => e.projectId === projectId);
  expect(ofProject(OpenqEvent.QuestionDeclared)).toHaveLength(2);
  expect(ofProject(OpenqEvent.QuestionAnswered)).toHaveLength(1);
  expect(ofProject(OpenqEvent.GateResumed)).toHaveLength(1);
});

// Issue #34: the README's examples run as written — every ```ts block compiled above (strict, CommonJS:
// a top-level await does not compile) and run here against the stack, each a program of its own. Its
// ```sh block is what this suite's beforeAll does (pack, install).
it('runs every TypeScript block of libs/agent-sdk/README.md as written', async () => {
  expect(readmeBlocks.length).toBeGreaterThanOrEqual(5);
  // Each block is a program of its own: they run side by side, as independent engines would.
  const outputs = await Promise.all(
    readmeBlocks.map(async (code, i) => {
      expect(code).not.toMatch(/\/\/openq[:/]/); // no host that only exists in a compose network
      const ran = run(process.execPath, [join(project, `out/readme-${i + 1}.js`)], {
        cwd: project,
        env: {
          PATH: process.env.PATH,
          OPENQ_URL: stack.baseUrl,
          NATS_URL: stack.nats.url,
          OPENQ_SERVICE_TOKEN: DEV_SERVICE_TOKEN,
        },
      });
      const { stdout } = await ran.catch((error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(
          `README block ${i + 1} failed: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`,
        );
      });
      return [i + 1, stdout.trim() !== ''];
    }),
  );
  expect(outputs).toEqual(readmeBlocks.map((_, i) => [i + 1, true]));
  // What the blocks did, as openq recorded it.
  const ofP1 = (type: string) => stack.events.ofType(type).filter((e) => e.projectId === 'p1');
  // (the NATS block's declaration is applied after its program ended).
  await waitFor(() => ofP1(OpenqEvent.QuestionDeclared).length >= 3);
  expect(ofP1(OpenqEvent.QuestionAnswered)).toHaveLength(1);
});

describe('engine subscriptions and the catch-up (SPEC §12.5), through the SDK’s HTTP client', () => {
  const secret = 'engine-secret-0123456789';
  let receiver: WebhookReceiver;
  let openq: OpenqHttpClient;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    openq = new OpenqHttpClient({ baseUrl: stack.baseUrl, serviceToken: DEV_SERVICE_TOKEN, retries: 0 });
  });
  afterAll(() => receiver?.stop());

  const declaration = (toolCallId: string) => ({
    pergunta: `Which rounding applies to invoice ${toolCallId}?`,
    sugestao: 'Half-even',
    afeta: { regras: [], historias: [], tarefas: [] },
    sessionId: 'po-session',
    sessionAuthorId: 'ana',
    autor: 'po' as const,
    toolCallId,
  });

  it('sends each subject’s events in stream order, signed, a failed one retried before the next goes', async () => {
    receiver.answer('/ordered', (n) => (n === 1 ? 500 : 204));
    const view = await openq.subscribe('engine-ordered', {
      url: receiver.url('/ordered'),
      secret,
      projects: ['engine-order'],
      events: ['question.declared'],
    });
    expect(view).toMatchObject({
      engineId: 'engine-ordered',
      secretSet: true,
      events: ['question.declared'],
    });
    expect(JSON.stringify(view)).not.toContain(secret);
    const ids: string[] = [];
    for (const call of ['call-o1', 'call-o2', 'call-o3'])
      ids.push((await openq.declareAndWait('engine-order', declaration(call))).questionId);

    await waitFor(() => receiver.at('/ordered').filter((r) => r.status === 204).length === 3);
    const receipts = receiver.at('/ordered');
    const now = Math.floor(Date.now() / 1000);
    for (const r of receipts)
      expect(verifySignature(secret, r.headers['x-openq-signature'] as string, r.body, now)).toMatchObject({
        ok: true,
      });
    const seen = receipts.map((r) => ({
      status: r.status,
      delivery: r.headers['x-openq-delivery-id'],
      seq: Number(r.headers['x-openq-stream-seq']),
      questionId: (JSON.parse(r.body) as { data: { questionId: string } }).data.questionId,
    }));
    // The first one failed and went again (same delivery id) before the second was sent.
    expect(seen.map((s) => [s.questionId, s.status])).toEqual([
      [ids[0], 500],
      [ids[0], 204],
      [ids[1], 204],
      [ids[2], 204],
    ]);
    expect(seen[0]!.delivery).toBe(seen[1]!.delivery);
    expect(seen.map((s) => s.seq)).toEqual([...seen.map((s) => s.seq)].sort((a, b) => a - b));

    // The catch-up reads the same events from a sequence, a page at a time.
    const first = await openq.events('engine-order', { types: ['question.declared'], limit: 2 });
    expect(first.events.map((e) => e.envelope.data)).toMatchObject([
      { questionId: ids[0] },
      { questionId: ids[1] },
    ]);
    expect(first.events.map((e) => e.seq)).toEqual([seen[0]!.seq, seen[2]!.seq]);
    const rest = await openq.events('engine-order', { after: first.next, types: ['question.*'] });
    expect(rest.events.map((e) => (e.envelope.data as { questionId: string }).questionId)).toEqual([ids[2]]);
    expect((await openq.events('engine-order', { after: rest.next })).events).toEqual([]);
  });

  it('refuses bad subscriptions and queries, and says when there is none', async () => {
    const put = (body: unknown) =>
      stack.http('PUT', '/internal/engines/engine-refused/subscription', { service: true, body });
    const good = { url: 'https://engine.example.com/in', secret, projects: ['p1'], events: ['gate.*'] };
    expect((await put({ ...good, events: ['gate.nope'] })).status).toBe(400);
    expect((await put({ ...good, secret: 'short' })).status).toBe(400);
    expect(await put({ ...good, url: 'http://10.1.2.3/in' })).toMatchObject({
      status: 400,
      body: { reason: 'destino_nao_permitido' },
    });
    const none = { status: 404, body: { reason: 'inscricao_nao_encontrada' } };
    expect(
      await stack.http('GET', '/internal/engines/engine-refused/subscription', { service: true }),
    ).toMatchObject(none);
    await openq.subscribe('engine-gone', { ...good, url: receiver.url('/gone') });
    await openq.unsubscribe('engine-gone');
    expect(
      await stack.http('DELETE', '/internal/engines/engine-gone/subscription', { service: true }),
    ).toMatchObject(none);
    for (const query of ['limit=0', 'limit=501', 'after=-1', 'types=gate.nope'])
      expect(
        (await stack.http('GET', `/internal/projects/p1/events?${query}`, { service: true })).status,
      ).toBe(400);
    // A user token never opens them.
    const user = stack.token('ana', 'p1', 'owner');
    expect((await stack.http('GET', '/internal/projects/p1/events', { token: user })).status).toBe(401);
  });
});
