import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitFor } from '@openq/testing';
import { Stack } from '../support/stack';

// Runs the real `openq demo` (compiled: `npm test` builds first) against the started system and
// plays the person: answers in the API what the demo says is left to answer in the browser.
const CLI = join(__dirname, '../../dist/tools/cli.js');
let stack: Stack;
beforeAll(async () => {
  stack = await Stack.start();
});
afterAll(() => stack.stop());

it('plays the scripted engine end to end: questions, park, chat answer, browser answers, resume, kickoff', async () => {
  const project = 'demo1';
  const child = spawn(
    process.execPath,
    [CLI, 'demo', '--project', project, '--user', 'ana', '--url', stack.baseUrl, '--wait-seconds', '90'],
    {
      env: { ...process.env, NATS_URL: stack.nats.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));

  await waitFor(() => out.includes('waiting for your answers'), {
    timeoutMs: 60_000,
    what: `the demo to hand over to the person; output so far:\n${out}`,
  });
  const token = stack.token('ana', project, 'developer');
  const open = await stack.http('GET', `/projects/${project}/open-questions`, { token });
  // four from Criativo + one from QA, minus the one the agent recorded from the chat
  expect(open.body.total).toBe(4);
  for (const q of open.body.items) {
    const r = await stack.http('POST', `/projects/${project}/open-questions/${q.questionId}/answer`, {
      token,
      body: { aceitarSugestao: true },
    });
    expect(r.status).toBe(200);
  }
  expect(await exited).toBe(0);
  expect(out).toContain('QA gate parked, waiting for you on 1 question(s).');
  expect(out).toContain(
    'answered: "Which currency do prices show in the catalogue?" → BRL with two decimals',
  );
  expect(out).toContain('The QA gate resumed');
  expect(out).toContain('User decisions — they win over FR/DoR when they conflict');
  expect(out).toMatch(/✓ answered via criativo: Which currency/);
  expect(out).toMatch(/✓ answered by click: Are product codes always 8/);
});
