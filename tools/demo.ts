import { connect, type NatsConnection } from 'nats';
import { AgentEventPublisher, OpenqHttpClient } from '@openq/agent-sdk';
import { DEV_JWT_SECRET, DEV_SERVICE_TOKEN } from '@openq/platform';
import { mintDevToken } from './token';

export interface DemoOptions {
  projectId: string;
  user: string;
  baseUrl: string;
  natsUrl: string;
  serviceToken: string;
  jwtSecret: string;
  /** How long to wait for the person to answer in the browser. */
  waitMs: number;
  out: (line: string) => void;
}

interface QuestionItem {
  questionId: string;
  pergunta: string;
  sugestao: string | null;
  status: 'open' | 'answered';
  resposta: string | null;
  viaAgente: string | null;
}

const QUESTIONS = [
  {
    pergunta: 'Should product codes in GET /:codigo be case-insensitive?',
    sugestao: 'Yes: normalise to upper case before the lookup',
    tarefas: true,
  },
  {
    pergunta: 'Which currency do prices show in the catalogue?',
    sugestao: 'BRL, with two decimals',
    tarefas: true,
  },
  {
    pergunta: 'May guests (not signed in) see stock levels?',
    sugestao: 'No: show only "available" / "unavailable"',
    tarefas: false,
  },
  {
    pergunta: 'Keep discontinued products searchable?',
    sugestao: 'Yes, marked "discontinued", for 12 months',
    tarefas: true,
  },
];

/**
 * A scripted engine, through the agent SDK, against a running openq: a Criativo session declares
 * four questions, a QA round needs the user's decision, an agent records one chat answer; the
 * person answers the rest in the browser; the gate resumes and the dev kickoff shows the decisions.
 */
export async function runDemo(options: DemoOptions): Promise<void> {
  const { projectId: p, user, out } = options;
  const run = Date.now().toString(36);
  const storyId = `S-${run}`;
  const taskId = `T-${run}`;
  const nc: NatsConnection = await connect({ servers: options.natsUrl });
  try {
    const engine = new AgentEventPublisher(nc);
    const api = new OpenqHttpClient({ baseUrl: options.baseUrl, serviceToken: options.serviceToken });
    const token = mintDevToken({ user, project: p, role: 'developer', secret: options.jwtSecret });
    const asUser = async <T>(path: string): Promise<T> => {
      const res = await fetch(`${options.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (!res.ok) throw new Error(`GET ${path} → ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const until = async <T>(
      what: string,
      probe: () => Promise<T | null | false>,
      ms = 15_000,
    ): Promise<T> => {
      const deadline = Date.now() + ms;
      for (;;) {
        const value = await probe().catch(() => null);
        if (value) return value;
        if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    out(`1. The engine opens story ${storyId} with task ${taskId} (project ${p}, session author ${user}).`);
    await engine.storyUpserted(
      p,
      {
        storyId,
        status: 'ready',
        archived: false,
        title: 'Product lookup by code',
        rf: ['GET /:codigo returns the product'],
        rnf: ['p99 < 200 ms'],
        dod: ['contract tests green'],
        dor: ['codes format not confirmed by the user'],
        regras: ['RN-codes'],
        taskIds: [taskId],
      },
      { idempotencyKey: `story-${run}` },
    );
    await engine.taskStatus(p, { taskId, storyId, status: 'in_progress' }, { idempotencyKey: `task-${run}` });

    out('2. A Criativo session ends its turn with four doubts — each becomes declare_open_question:');
    for (const [i, q] of QUESTIONS.entries()) {
      await engine.declareOpenQuestion(p, {
        toolCallId: `demo-${run}-${i}`,
        sessionId: `criativo-${run}`,
        sessionAuthorId: user,
        autor: 'criativo',
        pergunta: q.pergunta,
        sugestao: q.sugestao,
        afeta: { regras: [], historias: [storyId], tarefas: q.tarefas ? [taskId] : [] },
      });
      out(`   • ${q.pergunta}`);
    }
    const open = await until('the four questions in the queue', async () => {
      const list = await asUser<{ items: QuestionItem[] }>(`/projects/${p}/open-questions?status=all`);
      const mine = list.items.filter(
        (i) => QUESTIONS.some((q) => q.pergunta === i.pergunta) && i.status === 'open',
      );
      return mine.length >= QUESTIONS.length ? mine.slice(-QUESTIONS.length) : null;
    });

    out(
      `3. QA runs on ${taskId}: the code format is "not confirmed by the user" → needs_user_decision (no correction cycle spent).`,
    );
    await engine.gateStarted(
      p,
      { taskId, gate: 'qa', sessionId: `exec-${run}`, sessionAuthorId: user },
      { idempotencyKey: `gate-${run}` },
    );
    await engine.emitQaVerdict(p, {
      roundId: `round-${run}`,
      taskId,
      gate: 'qa',
      sessionId: `exec-${run}`,
      sessionAuthorId: user,
      verdicts: [
        { subspecialty: 'contract', veredito: 'approved', resumo: 'contract tests pass', itens: [] },
        {
          subspecialty: 'rules',
          veredito: 'needs_user_decision',
          resumo: 'code format not confirmed',
          itens: ['DoR: codes format not confirmed by the user'],
          pergunta: 'Are product codes always 8 upper-case letters and digits?',
          sugestao: 'Yes: [A-Z0-9]{8}',
        },
      ],
    });
    const parked = await until('the QA gate to park', async () => {
      const gates = await asUser<
        { gate: string; state: string; waitingForYou: boolean; questionIds: string[] }[]
      >(`/projects/${p}/tasks/${taskId}/gates`);
      const qa = gates.find((g) => g.gate === 'qa');
      return qa && qa.state === 'parked' && qa.waitingForYou ? qa : null;
    });
    out(`   QA gate parked, waiting for you on ${parked.questionIds.length} question(s).`);

    // Declarations are applied concurrently: find the currency question by its text, not its place.
    const chat = open.find((q) => q.pergunta === QUESTIONS[1]!.pergunta)!;
    out(
      `4. In the chat, ${user} says "prices in reais, two decimals, please" — the Criativo records it (answer_open_question):`,
    );
    const recorded = await api.answer(p, chat.questionId, {
      viaAgente: 'criativo',
      resposta: 'BRL with two decimals',
    });
    out(`   ${recorded.status}: "${chat.pergunta}" → BRL with two decimals`);

    const pending = await asUser<{ items: QuestionItem[] }>(`/projects/${p}/open-questions`);
    out(`5. Left for you to answer in the browser (${pending.items.length}):`);
    for (const q of pending.items) out(`   • ${q.pergunta}  (suggestion: ${q.sugestao ?? '—'})`);
    out(`   Open ${options.baseUrl}/dev/login?user=${user}&project=${p}&role=developer and answer them.`);
    out('   waiting for your answers…');

    const seen = new Set<string>();
    await until(
      'your answers (the QA gate to resume)',
      async () => {
        // The gate first: every answer that resumed it is in the list read after it.
        const gates = await asUser<{ gate: string; state: string }[]>(`/projects/${p}/tasks/${taskId}/gates`);
        const answered = await asUser<{ items: QuestionItem[] }>(
          `/projects/${p}/open-questions?status=answered`,
        );
        for (const q of answered.items) {
          if (seen.has(q.questionId)) continue;
          seen.add(q.questionId);
          out(
            `   ✓ answered${q.viaAgente ? ` via ${q.viaAgente}` : ' by click'}: ${q.pergunta} → ${q.resposta}`,
          );
        }
        return gates.find((g) => g.gate === 'qa' && g.state === 'running') ?? null;
      },
      options.waitMs,
    );
    out(
      '6. The QA gate resumed (gate.resumed, trigger "answer"): the engine re-runs QA with the decision in context.',
    );

    const kickoff = await until('the dev kickoff with the decisions', async () => {
      const ctx = await api.devContext(p, taskId);
      return ctx.decisoesTotal >= 2 ? ctx : null;
    });
    out(`7. The dev kickoff for ${taskId} now carries ${kickoff.decisoesTotal} decision(s):`);
    for (const line of kickoff.text.split('\n')) out(`   ${line}`);
    out('Done.');
  } finally {
    await nc.close();
  }
}

export function demoOptionsFromEnv(argv: string[], env: NodeJS.ProcessEnv = process.env): DemoOptions {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    // A project of its own per run (issue #34): a second `npm run demo` starts fresh instead of
    // mixing with the first run's questions; `--project` plays into a project named on purpose.
    projectId: arg('project') ?? `demo-${Date.now().toString(36)}`,
    user: arg('user') ?? 'ana',
    baseUrl: arg('url') ?? env.OPENQ_URL ?? `http://localhost:${env.PORT ?? 3000}`,
    natsUrl: env.NATS_URL ?? 'nats://127.0.0.1:4222',
    serviceToken: env.OPENQ_SERVICE_TOKEN ?? DEV_SERVICE_TOKEN,
    jwtSecret: env.OPENQ_JWT_SECRET ?? DEV_JWT_SECRET,
    waitMs: Number(arg('wait-seconds') ?? 1800) * 1000,
    out: (line) => process.stdout.write(`${line}\n`),
  };
}
