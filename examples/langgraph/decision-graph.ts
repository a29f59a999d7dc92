/*
 * openq as the human-decision backend of a LangGraph JS graph (no model: the nodes are scripted).
 *
 *   work ──► ask ──► apply ──► END
 *
 * `work` hits a doubt only the user can settle; `ask` declares it in openq (internal HTTP route,
 * idempotent by toolCallId) and calls LangGraph's `interrupt()` with the question id, so the graph
 * stops and its state waits in the checkpointer; `apply` goes on with the user's decision.
 * `decide()` drives one thread: it runs the graph, and while it is interrupted waits for openq's
 * `question.answered` event of that question (a click in the inbox, or an agent recording the
 * chat answer), then resumes it with `Command({ resume: decision })`.
 *
 * LangGraph re-runs an interrupted node from its start on resume, so `ask` declares again: the
 * same toolCallId gives back the same questionId (HTTP 200), nothing is declared twice.
 */
import { Annotation, Command, END, MemorySaver, START, StateGraph, interrupt } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { AckPolicy, DeliverPolicy, nanos, type NatsConnection } from 'nats';
import {
  OpenqEvent,
  STREAMS,
  eventSubject,
  type AskerRole,
  type EventEnvelope,
  type OpenqEventDataMap,
  type OpenqHttpClient,
} from '@openq/agent-sdk';

/** What the graph resumes with: the user's answer as openq recorded it. */
export interface Decision {
  questionId: string;
  resposta: string;
  decisionEventId: string;
  respondidaPor: string;
  viaAgente: string | null;
}

/** What `ask` hands to `interrupt()`: enough for the driver to wait on openq. */
export interface PendingQuestion {
  questionId: string;
  pergunta: string;
}

export const DecisionState = Annotation.Root({
  taskId: Annotation<string>(),
  pergunta: Annotation<string | null>(),
  sugestao: Annotation<string | null>(),
  decision: Annotation<Decision | null>(),
  plan: Annotation<string | null>(),
});
type State = typeof DecisionState.State;

export interface OpenqBackend {
  openq: OpenqHttpClient;
  projectId: string;
  /** The session the question is born in, and its author (the one person who may answer by click). */
  sessionId: string;
  sessionAuthorId: string;
  role: AskerRole;
}

export function buildDecisionGraph(
  backend: OpenqBackend,
  checkpointer: BaseCheckpointSaver = new MemorySaver(),
) {
  return (
    new StateGraph(DecisionState)
      // The agent's work: here it always needs the user to choose the export format.
      .addNode('work', (s: State) => ({
        pergunta: `Which format does the export of ${s.taskId} use?`,
        sugestao: 'CSV, semicolon-separated',
      }))
      .addNode('ask', async (s: State) => {
        const { questionId } = await backend.openq.declare(backend.projectId, {
          sessionId: backend.sessionId,
          sessionAuthorId: backend.sessionAuthorId,
          autor: backend.role,
          pergunta: s.pergunta!,
          ...(s.sugestao ? { sugestao: s.sugestao } : {}),
          afeta: { regras: [], historias: [], tarefas: [s.taskId] },
          toolCallId: `langgraph-${s.taskId}-ask`, // stable across the re-run on resume
        });
        const decision = interrupt<PendingQuestion, Decision>({ questionId, pergunta: s.pergunta! });
        return { decision };
      })
      .addNode('apply', (s: State) => ({ plan: `Export ${s.taskId} as: ${s.decision!.resposta}` }))
      .addEdge(START, 'work')
      .addEdge('work', 'ask')
      .addEdge('ask', 'apply')
      .addEdge('apply', END)
      .compile({ checkpointer })
  );
}

export type DecisionGraph = ReturnType<typeof buildDecisionGraph>;

/**
 * Waits for the answer of `questionId` on openq's event stream: an ephemeral JetStream consumer
 * of the project's `question.answered` events from the stream's start, so an answer given before
 * the wait began is found too.
 */
export async function waitForAnswer(
  nc: NatsConnection,
  projectId: string,
  questionId: string,
  timeoutMs = 10 * 60_000,
): Promise<Decision> {
  const stream = STREAMS.openqEvents.name;
  const jsm = await nc.jetstreamManager();
  const name = `langgraph_${questionId.replace(/-/g, '')}`;
  await jsm.consumers.add(stream, {
    name,
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.All,
    filter_subject: eventSubject(OpenqEvent.QuestionAnswered, projectId),
    inactive_threshold: nanos(60_000),
  });
  const messages = await (await nc.jetstream().consumers.get(stream, name)).consume();
  const timer = setTimeout(() => messages.stop(), timeoutMs);
  try {
    for await (const m of messages) {
      const event = m.json<EventEnvelope<OpenqEventDataMap['question.answered']>>();
      if (event.data.questionId !== questionId) continue;
      const { resposta, decisionEventId, respondidaPor, viaAgente } = event.data;
      return { questionId, resposta, decisionEventId, respondidaPor, viaAgente };
    }
    throw new Error(`no answer to ${questionId} within ${timeoutMs} ms`);
  } finally {
    clearTimeout(timer);
    messages.stop();
  }
}

/**
 * Runs one thread of the graph to its end with openq deciding: every interrupt is a question in
 * openq, and the thread resumes with its answer. `onPark` tells the caller what is waiting.
 */
export async function decide(
  graph: DecisionGraph,
  threadId: string,
  input: Partial<State>,
  wait: (pending: PendingQuestion) => Promise<Decision>,
  onPark: (pending: PendingQuestion) => void = () => undefined,
): Promise<State> {
  const config = { configurable: { thread_id: threadId } };
  let state = (await graph.invoke(input, config)) as State;
  for (;;) {
    const snapshot = await graph.getState(config);
    const pending = snapshot.tasks.flatMap((t) => t.interrupts).map((i) => i.value as PendingQuestion)[0];
    if (!pending) return state;
    onPark(pending);
    state = (await graph.invoke(new Command({ resume: await wait(pending) }), config)) as State;
  }
}
