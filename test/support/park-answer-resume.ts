import '../../tools/register-paths';
import 'reflect-metadata';
import { connect } from 'nats';
import { AgentEventPublisher } from '@openq/agent-sdk';
import { DEV_JWT_SECRET } from '@openq/platform';
import { mintDevToken } from '../../tools/token';

/*
 * One park → answer → resume through a running openq at the default addresses (gateway
 * http://127.0.0.1:3000, NATS nats://127.0.0.1:4222), as the engine and the person: a QA verdict
 * needs the user's decision, the gate parks, the session author answers by click, the gate
 * resumes. Compiled by `npm run build` and run inside the network namespace of the zero-setup
 * test (`nsenter --net`), where only the openq under test listens. Prints one JSON line.
 */

const BASE = 'http://127.0.0.1:3000';
const project = process.argv[2] ?? 'zero';
const run = Date.now().toString(36);
const taskId = `T-${run}`;

interface Gate {
  gate: string;
  state: string;
  parkedReason: string | null;
  questionIds: string[];
}

async function until<T>(what: string, probe: () => Promise<T | null | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main(): Promise<void> {
  const token = mintDevToken({ user: 'ana', project, role: 'developer', secret: DEV_JWT_SECRET });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${BASE}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  const qaGate = async () => {
    const r = await call('GET', `/projects/${project}/tasks/${taskId}/gates`);
    return r.status === 200 ? (r.body as Gate[]).find((g) => g.gate === 'qa') : undefined;
  };

  const nc = await connect({ servers: 'nats://127.0.0.1:4222' });
  const engine = new AgentEventPublisher(nc);
  await engine.gateStarted(project, { taskId, gate: 'qa', sessionId: `exec-${run}`, sessionAuthorId: 'ana' });
  await engine.emitQaVerdict(project, {
    roundId: `round-${run}`,
    taskId,
    gate: 'qa',
    sessionId: `qa-${run}`,
    sessionAuthorId: 'ana',
    verdicts: [
      {
        subspecialty: 'functional',
        veredito: 'needs_user_decision',
        resumo: 'needs the user',
        itens: [],
        pergunta: 'Round prices half up or half even?',
        sugestao: 'Half up',
      },
    ],
  });
  const parked = await until('the QA gate to park', async () => {
    const qa = await qaGate();
    return qa?.state === 'parked' ? qa : null;
  });
  const questionId = parked.questionIds[0]!;
  const answered = await call('POST', `/projects/${project}/open-questions/${questionId}/answer`, {
    aceitarSugestao: true,
  });
  const resumed = await until('the QA gate to resume', async () => {
    const qa = await qaGate();
    return qa?.state === 'running' ? qa : null;
  });
  await nc.close();
  process.stdout.write(
    `${JSON.stringify({ parked: parked.parkedReason, answered: answered.status, resumed: resumed.state, questionId })}\n`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
