import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OpenqEvent } from '@openq/contracts';
import { DEV_SERVICE_TOKEN } from '@openq/platform';
import { packAgentSdk, ROOT } from '../../tools/pack-agent-sdk';
import { Stack } from '../support/stack';

// Issue #16 §2: `@openq/agent-sdk` is a package an engine outside this repository installs. The
// test packs it (`npm pack`), installs the tarball into a temporary project outside the workspace
// (from the npm cache: `--offline`, or `--prefer-offline` when the cache lacks the registry's
// metadata), compiles examples/engine-loop/engine.ts there against the package's .d.ts, and runs
// it against the started system: declare, QA verdict, answer by agent, resume, turn context.

const run = promisify(execFile);
let stack: Stack;
let project: string;
let install = '';

beforeAll(async () => {
  stack = await Stack.start();
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
  await run(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      'engine.ts',
      ...['--outDir', 'out', '--strict', '--target', 'es2022', '--lib', 'es2023,dom'],
      ...['--module', 'node16', '--moduleResolution', 'node16'],
      ...['--types', 'node', '--typeRoots', join(ROOT, 'node_modules/@types')],
    ],
    { cwd: project },
  ).catch((error: { stdout?: string }) => {
    throw new Error(`the example does not compile against the package:\n${error.stdout}`);
  });
});

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

it.each(['nats', 'http'])(
  'runs the example engine (agent events over %s): declare, verdict, agent answer, resume, turn context',
  async (transport) => {
    const projectId = `outside-${transport}`;
    const engine = run(process.execPath, [join(project, 'out/engine.js')], {
      cwd: project,
      env: {
        PATH: process.env.PATH,
        OPENQ_URL: stack.baseUrl,
        NATS_URL: stack.nats.url,
        OPENQ_SERVICE_TOKEN: DEV_SERVICE_TOKEN,
        OPENQ_PROJECT: projectId,
        OPENQ_TRANSPORT: transport,
      },
    });
    const { stdout } = await engine.catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(
        `the example engine failed: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`,
      );
    });
    expect(stdout).toContain(`agent events over ${transport.toUpperCase()}`);
    expect(stdout).toContain('1. po (OpenAI tool call declare_open_question): declared');
    expect(stdout).toMatch(
      /2\. qa \(Anthropic tool call emit_qa_verdict\): gate parked \(user_decision\) on 1/,
    );
    expect(stdout).toContain('3. po (Anthropic tool call answer_open_question): recorded');
    expect(stdout).toContain('4. gate resumed (trigger answer) with 1 decision(s)');
    expect(stdout).toContain(
      '5. turn context: "Must the CSV export itemise VAT?" → Yes, one VAT column per rate. (via po)',
    );
    // What openq itself recorded for that project.
    const ofProject = (type: string) => stack.events.ofType(type).filter((e) => e.projectId === projectId);
    expect(ofProject(OpenqEvent.QuestionDeclared)).toHaveLength(2);
    expect(ofProject(OpenqEvent.QuestionAnswered)).toHaveLength(1);
    expect(ofProject(OpenqEvent.GateResumed)).toHaveLength(1);
  },
);
