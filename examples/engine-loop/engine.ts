/*
 * A minimal engine loop on `@openq/agent-sdk`, with a scripted "model" in place of a real one:
 * the askers' tool calls come back in the OpenAI (chat completions `tool_calls`) and the Anthropic
 * (messages `tool_use` blocks) formats, and the engine turns each call into an openq agent event.
 *
 *   1. a PO turn (OpenAI format): the model declares an open question;
 *   2. a QA round (Anthropic format): the verdict needs the user's decision → the gate parks;
 *   3. the user answers in the chat; the next PO turn (Anthropic format) sees the question in its
 *      turn context and records the answer with answer_open_question → the gate resumes;
 *   4. the next turn context carries the decision.
 *
 * It speaks HTTP only (SPEC §12.5), no NATS: the agent events go to POST /internal/projects/:p/events,
 * and openq's events come back to a small HTTP server of its own through an engine subscription
 * (signed POSTs, checked with verifySignature), then once more through the catch-up route.
 *
 * Run it against a started openq that may POST to this machine (a private address: the operator
 * allows it, SPEC §12.2):
 *   OPENQ_NOTIFY_ALLOWED_TARGETS=127.0.0.1 npm start        # in the openq repository
 *   OPENQ_URL=http://localhost:3000 node engine.js
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DELIVERY_ID_HEADER,
  HttpAgentEventPublisher,
  OpenqEvent,
  OpenqHttpClient,
  SIGNATURE_HEADER,
  STREAM_SEQ_HEADER,
  anthropicToolsFor,
  openAiToolsFor,
  type AgentEvents,
  type AnthropicTool,
  type AskerRole,
  type EmitQaVerdictArgs,
  type EventEnvelope,
  type OpenAiTool,
  type OpenqEventDataMap,
  type QaVerdictEvent,
  type TurnContext,
  verifySignature,
} from '@openq/agent-sdk';

const env = process.env;
const projectId = env.OPENQ_PROJECT ?? 'engine-example';
const sessionAuthorId = env.OPENQ_USER ?? 'ana';
const run = Date.now().toString(36);
const taskId = `T-${run}`;
const out = (line: string) => process.stdout.write(`${line}\n`);

// ---- the scripted model: what a provider would answer, in its own format --------------------

interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
interface OpenAiCompletion {
  choices: { message: { role: 'assistant'; content: string | null; tool_calls?: OpenAiToolCall[] } }[];
}
interface AnthropicMessage {
  stop_reason: 'tool_use' | 'end_turn';
  content: (
    { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown }
  )[];
}

/** OpenAI chat completions: the PO asks instead of guessing. */
function openAiModel(system: string, tools: OpenAiTool[]): OpenAiCompletion {
  if (
    !system.includes('declare_open_question') ||
    !tools.some((t) => t.function.name === 'declare_open_question')
  )
    throw new Error('the turn must carry the central instruction and the tool');
  const args = {
    pergunta: 'Do archived products count in the monthly report?',
    sugestao: 'No, only active products',
    afeta: { regras: [], historias: [], tarefas: [taskId] },
  };
  return {
    choices: [
      {
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `call_${run}_1`,
              type: 'function',
              function: { name: 'declare_open_question', arguments: JSON.stringify(args) },
            },
          ],
        },
      },
    ],
  };
}

/** Anthropic messages, QA: the export rules are the user's call. */
function anthropicQaModel(tools: AnthropicTool[]): AnthropicMessage {
  if (!tools.some((t) => t.name === 'emit_qa_verdict')) throw new Error('QA needs emit_qa_verdict');
  const verdict: EmitQaVerdictArgs = {
    veredito: 'needs_user_decision',
    resumo: 'The export totals depend on a rule nobody has decided',
    itens: [],
    pergunta: 'Must the CSV export itemise VAT?',
    sugestao: 'Yes, one VAT column per rate',
  };
  return {
    stop_reason: 'tool_use',
    content: [{ type: 'tool_use', id: `toolu_${run}_qa`, name: 'emit_qa_verdict', input: verdict }],
  };
}

/** Anthropic messages, PO: the user's chat answer is unequivocal, so the agent records it. */
function anthropicPoModel(
  chat: string,
  openQuestions: { questionId: string; pergunta: string }[],
  tools: AnthropicTool[],
): AnthropicMessage {
  if (!tools.some((t) => t.name === 'answer_open_question'))
    throw new Error('the PO needs answer_open_question');
  const question = openQuestions.find((q) => q.pergunta.includes('VAT'));
  if (!question) return { stop_reason: 'end_turn', content: [{ type: 'text', text: 'Nothing to record.' }] };
  return {
    stop_reason: 'tool_use',
    content: [
      { type: 'text', text: 'Recording your answer.' },
      {
        type: 'tool_use',
        id: `toolu_${run}_answer`,
        name: 'answer_open_question',
        input: { questionId: question.questionId, resposta: chat },
      },
    ],
  };
}

// ---- the engine: tool calls → agent events ---------------------------------------------------

interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

const fromOpenAi = (completion: OpenAiCompletion): ToolCall[] =>
  (completion.choices[0]?.message.tool_calls ?? []).map((c) => ({
    id: c.id,
    name: c.function.name,
    input: JSON.parse(c.function.arguments) as Record<string, unknown>,
  }));

const fromAnthropic = (message: AnthropicMessage): ToolCall[] =>
  message.content.flatMap((block) =>
    block.type === 'tool_use'
      ? [{ id: block.id, name: block.name, input: block.input as Record<string, unknown> }]
      : [],
  );

/** An asker's tool call, with what the engine knows and the model does not (session, role, call id). */
async function askerToolCall(
  openq: OpenqHttpClient,
  events: AgentEvents<unknown>,
  role: AskerRole,
  sessionId: string,
  call: ToolCall,
) {
  switch (call.name) {
    case 'declare_open_question': {
      // declareAndWait: the tool's result for the model can carry the questionId.
      const { questionId } = await openq.declareAndWait(projectId, {
        ...(call.input as {
          pergunta: string;
          sugestao?: string;
          afeta: { regras: string[]; historias: string[]; tarefas: string[] };
        }),
        sessionId,
        sessionAuthorId,
        autor: role,
        toolCallId: call.id,
      });
      return `declared (question ${questionId})`;
    }
    case 'answer_open_question':
      await events.answerOpenQuestion(projectId, {
        ...(call.input as { questionId: string; resposta?: string }),
        toolCallId: call.id,
        viaAgente: role,
      });
      return 'recorded';
    default:
      throw new Error(`${role} may not call ${call.name}`);
  }
}

/** The raw body of a request (the signature is over these exact bytes). */
async function rawBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * openq's events of this project, POSTed by openq to a server of the engine's own (an engine
 * subscription): each signature checked, each delivery id taken once (a retry sends it again).
 */
async function follow(openq: OpenqHttpClient): Promise<{
  next<T extends keyof OpenqEventDataMap>(type: T): Promise<EventEnvelope<OpenqEventDataMap[T]>>;
  received(type: string): { seq: number; envelope: EventEnvelope }[];
  stop(): Promise<void>;
}> {
  const engineId = `engine-example-${run}`;
  const secret = randomBytes(24).toString('hex');
  const seen: { seq: number; envelope: EventEnvelope }[] = [];
  const deliveries = new Set<string>();
  const waiters: (() => void)[] = [];
  const server: Server = createServer((request, response) => {
    void rawBody(request).then((body) => {
      const checked = verifySignature(
        secret,
        request.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined,
        body,
        Math.floor(Date.now() / 1000),
      );
      if (!checked.ok) {
        response.writeHead(401).end();
        return;
      }
      const deliveryId = String(request.headers[DELIVERY_ID_HEADER.toLowerCase()]);
      if (!deliveries.has(deliveryId)) {
        deliveries.add(deliveryId);
        const seq = Number(request.headers[STREAM_SEQ_HEADER.toLowerCase()]);
        seen.push({ seq, envelope: JSON.parse(body) as EventEnvelope });
        waiters.splice(0).forEach((wake) => wake());
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await openq.subscribe(engineId, {
    url: `http://127.0.0.1:${port}/openq-events`,
    secret,
    projects: [projectId],
    events: ['gate.*'],
  });
  const ofTask = (type: string) =>
    seen.filter(
      (e) => e.envelope.type === type && (e.envelope.data as { taskId?: string }).taskId === taskId,
    );
  return {
    async next(type) {
      for (;;) {
        const found = ofTask(type)[0];
        if (found) return found.envelope as never;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    received: ofTask,
    async stop() {
      await openq.unsubscribe(engineId);
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The PO's turn context once it satisfies `ready` (asked again every 100 ms; the caller's timeout bounds it). */
async function turnContextWhere(
  openq: OpenqHttpClient,
  ready: (turn: TurnContext) => boolean,
): Promise<TurnContext> {
  for (;;) {
    const turn = await openq.turnContext(projectId, 'po');
    if (ready(turn)) return turn;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  const openq = new OpenqHttpClient({
    baseUrl: env.OPENQ_URL ?? 'http://localhost:3000',
    // The dev default of `npm start`; production names its own OPENQ_SERVICE_TOKEN.
    serviceToken: env.OPENQ_SERVICE_TOKEN ?? 'openq-dev-service-token-not-for-production',
  });
  const events: AgentEvents<unknown> = new HttpAgentEventPublisher(openq);
  out(`engine: project ${projectId}, task ${taskId}, over HTTP alone`);
  const gateEvents = await follow(openq);
  let waitingFor = 'openq';
  const timeout = setTimeout(
    () => {
      out(`engine: gave up waiting for ${waitingFor}`);
      process.exit(1);
    },
    Number(env.ENGINE_TIMEOUT_MS ?? 60_000),
  );

  // 1. A PO turn, OpenAI format: the turn context opens the prompt, the askers' tools go along.
  const turn = await openq.turnContext(projectId, 'po');
  for (const call of fromOpenAi(openAiModel(turn.text, openAiToolsFor('po'))))
    out(
      `1. po (OpenAI tool call ${call.name}): ${await askerToolCall(openq, events, 'po', `po-${run}`, call)}`,
    );

  // 2. The QA gate, Anthropic format: every subspecialty's emit_qa_verdict makes one round.
  await events.gateStarted(
    projectId,
    { taskId, gate: 'qa', sessionId: `exec-${run}`, sessionAuthorId },
    { idempotencyKey: `gate-${run}` },
  );
  const verdicts: QaVerdictEvent['verdicts'] = fromAnthropic(anthropicQaModel(anthropicToolsFor('qa'))).map(
    (call) => ({
      ...(call.input as unknown as EmitQaVerdictArgs),
      subspecialty: 'functional',
    }),
  );
  await events.emitQaVerdict(projectId, {
    roundId: `round-${run}-1`,
    taskId,
    gate: 'qa',
    sessionId: `qa-${run}`,
    sessionAuthorId,
    verdicts,
  });
  waitingFor = 'gate.rescue_parked';
  const parked = await gateEvents.next(OpenqEvent.GateRescueParked);
  out(
    `2. qa (Anthropic tool call emit_qa_verdict): gate parked (${parked.data.reason}) on ${parked.data.questionIds.length} question(s)`,
  );

  // 3. The user answers in the chat; the PO's next turn sees the question and records the answer.
  const chat = 'Yes, one VAT column per rate.';
  // The turn context is a read model of the context service: it shows the park's question shortly
  // after the park (the engine learnt of it first, from the event), so the next turn waits for it.
  waitingFor = "the parked question in the PO's turn context";
  const next = await turnContextWhere(openq, (t) =>
    t.openQuestions.some((q) => parked.data.questionIds.includes(q.questionId)),
  );
  for (const call of fromAnthropic(anthropicPoModel(chat, next.openQuestions, anthropicToolsFor('po'))))
    out(
      `3. po (Anthropic tool call ${call.name}): ${await askerToolCall(openq, events, 'po', `po-${run}`, call)}`,
    );
  waitingFor = 'gate.resumed';
  const resumed = await gateEvents.next(OpenqEvent.GateResumed);
  out(
    `4. gate resumed (trigger ${resumed.data.trigger}) with ${resumed.data.decisionEventIds.length} decision(s)`,
  );

  // 4. The askers' next turn carries the decision.
  waitingFor = "the decision in the PO's turn context";
  const after = await turnContextWhere(openq, (t) =>
    t.decisoes.some((d) => parked.data.questionIds.includes(d.questionId)),
  );
  const decision = after.decisoes.find((d) => parked.data.questionIds.includes(d.questionId));
  out(`5. turn context: "${decision?.pergunta}" → ${decision?.resposta} (via ${decision?.viaAgente})`);

  // 5. The same event once more through the catch-up route (what an engine does after a restart),
  //    counted with what the subscription delivered: each way, once.
  const caughtUp = [];
  for (let after = 0; ;) {
    const page = await openq.events(projectId, { after, types: [OpenqEvent.GateResumed] });
    caughtUp.push(...page.events.filter((e) => (e.envelope.data as { taskId?: string }).taskId === taskId));
    if (page.events.length === 0) break;
    after = page.next;
  }
  const byWebhook = gateEvents.received(OpenqEvent.GateResumed);
  const sameEvent = caughtUp[0]?.seq === byWebhook[0]?.seq;
  out(
    `6. gate.resumed: ${byWebhook.length} by webhook, ${caughtUp.length} by catch-up (${sameEvent ? 'the same event' : 'different events'})`,
  );

  clearTimeout(timeout);
  await gateEvents.stop();
}

main().catch((error: unknown) => {
  out(`engine: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
