import { headers as natsHeaders, type JetStreamClient, type NatsConnection, type PubAck } from 'nats';
import { AgentEvent, eventSubject, type AgentEventDataMap, type AgentEventType } from '@openq/contracts';
import { buildAgentEvent, type PublishOptions } from './envelope';
import type {
  AnalysisFinishedEvent,
  AnswerOpenQuestionEvent,
  DeclareOpenQuestionEvent,
  GateActivityEvent,
  GateStartedEvent,
  QaVerdictEvent,
  RepoFreezeEvent,
  StoryUpsertedEvent,
  TaskCreatedEvent,
  TaskStatusEvent,
  WithdrawOpenQuestionEvent,
} from './agent-event-data';
import type { OpenqHttpClient } from './http-client';

/**
 * The engine's typed client (SPEC §8, §9). Part 1, here: `AgentEventPublisher` publishes agent
 * events on JetStream (stream `AGENT_EVENTS`, subject `<type>.<projectId>`), each validated with
 * the contract first. Part 2: `OpenqHttpClient` for the internal HTTP routes (./http-client).
 */
export * from './envelope';
export * from './http-client';
export * from './agent-event-data';

export interface Published {
  eventId: string;
  subject: string;
  stream: string;
  seq: number;
  /** True when JetStream had it already (a retried publish): the event counts once. */
  duplicate: boolean;
}

export interface AgentEventPublisherOptions {
  /** How long to wait for the PubAck; default 10 s. */
  timeoutMs?: number;
}

const encoder = new TextEncoder();

/**
 * The typed agent events (SPEC §8), one method each, over a transport the subclass chooses:
 * `AgentEventPublisher` (NATS JetStream) or `HttpAgentEventPublisher` (the gateway's events route,
 * SPEC §11.4). `R` is what the transport says about a publish.
 */
export abstract class AgentEvents<R> {
  /** Any agent event by type: validated, enveloped, published, acknowledged. */
  abstract publish<T extends AgentEventType>(
    type: T,
    projectId: string,
    data: AgentEventDataMap[T],
    key?: string,
    options?: PublishOptions,
  ): Promise<R>;

  /** `declare_open_question` (§3.1 fields + `toolCallId`, `autor` = the asker). */
  declareOpenQuestion(projectId: string, data: DeclareOpenQuestionEvent, options?: PublishOptions) {
    return this.publish(AgentEvent.QuestionDeclare, projectId, data, data.toolCallId, options);
  }

  /** `answer_open_question` (ADR 0258): `viaAgente` is the calling asker; no `resposta` = accept the `sugestao`. */
  answerOpenQuestion(projectId: string, data: AnswerOpenQuestionEvent, options?: PublishOptions) {
    return this.publish(AgentEvent.QuestionAnswer, projectId, data, data.toolCallId, options);
  }

  /**
   * §11.5 `withdraw_open_question`: `viaAgente` is the calling asker and `sessionId` its session;
   * the question no longer needs the user (`motivo` says why). §12.1 only the agent that asked (the
   * same role, the same session) may withdraw it. Refused (not the asker: `so_quem_perguntou`;
   * answered, unknown) → `question.rejected` with the toolCallId.
   */
  withdrawOpenQuestion(projectId: string, data: WithdrawOpenQuestionEvent, options?: PublishOptions) {
    return this.publish(AgentEvent.QuestionWithdraw, projectId, data, data.toolCallId, options);
  }

  /** A QA round (`emit_qa_verdict` of every subspecialty); dedupes by `roundId`. */
  emitQaVerdict(projectId: string, data: QaVerdictEvent, options?: PublishOptions) {
    return this.publish(
      AgentEvent.QaVerdict,
      projectId,
      data,
      options?.idempotencyKey ?? data.roundId,
      options,
    );
  }

  gateStarted(projectId: string, data: GateStartedEvent, options?: PublishOptions) {
    return this.publish(AgentEvent.GateStarted, projectId, data, options?.idempotencyKey, options);
  }

  gateActivity(projectId: string, data: GateActivityEvent, options?: PublishOptions) {
    return this.publish(AgentEvent.GateActivity, projectId, data, options?.idempotencyKey, options);
  }

  taskCreated(projectId: string, data: TaskCreatedEvent, options?: PublishOptions) {
    return this.publish(AgentEvent.TaskCreated, projectId, data, options?.idempotencyKey, options);
  }

  taskStatus(projectId: string, data: TaskStatusEvent, options?: PublishOptions) {
    return this.publish(AgentEvent.TaskStatus, projectId, data, options?.idempotencyKey, options);
  }

  storyUpserted(projectId: string, data: StoryUpsertedEvent, options?: PublishOptions) {
    return this.publish(AgentEvent.StoryUpserted, projectId, data, options?.idempotencyKey, options);
  }

  analysisFinished(projectId: string, data: AnalysisFinishedEvent, options?: PublishOptions) {
    return this.publish(AgentEvent.AnalysisFinished, projectId, data, options?.idempotencyKey, options);
  }

  /** §11.3 freeze (`frozen: true`, with `motivo`) or unfreeze a repo of the project. */
  repoFreeze(projectId: string, data: RepoFreezeEvent, options?: PublishOptions) {
    return this.publish(AgentEvent.RepoFreeze, projectId, data, options?.idempotencyKey, options);
  }
}

/**
 * Publishes the engine's events on JetStream and waits for the PubAck. A failed publish may be
 * retried as is: tool-call events dedupe by `toolCallId` (same eventId), verdicts by `roundId`.
 */
export class AgentEventPublisher extends AgentEvents<Published> {
  private readonly js: JetStreamClient;
  private readonly timeoutMs: number;

  constructor(nc: NatsConnection, options: AgentEventPublisherOptions = {}) {
    super();
    this.js = nc.jetstream();
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async publish<T extends AgentEventType>(
    type: T,
    projectId: string,
    data: AgentEventDataMap[T],
    key?: string,
    options: PublishOptions = {},
  ): Promise<Published> {
    const envelope = buildAgentEvent(type, projectId, data, key, options);
    const subject = eventSubject(type, projectId);
    const hdrs = natsHeaders();
    if (options.traceparent) hdrs.set('traceparent', options.traceparent);
    const ack: PubAck = await this.js.publish(subject, encoder.encode(JSON.stringify(envelope)), {
      msgID: envelope.eventId,
      headers: hdrs,
      timeout: this.timeoutMs,
    });
    return { eventId: envelope.eventId, subject, stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate };
  }
}

/**
 * The same typed events for an engine that speaks HTTP only (SPEC §11.4): each envelope is built
 * and checked here exactly as `AgentEventPublisher` does, then posted to
 * `POST /internal/projects/:projectId/events`, which publishes it with the same dedupe id. The
 * client's retries repeat the same envelope, so a retried event still counts once.
 */
export class HttpAgentEventPublisher extends AgentEvents<{ eventId: string }> {
  constructor(private readonly client: OpenqHttpClient) {
    super();
  }

  async publish<T extends AgentEventType>(
    type: T,
    projectId: string,
    data: AgentEventDataMap[T],
    key?: string,
    options: PublishOptions = {},
  ): Promise<{ eventId: string }> {
    return this.client.publishEvent(buildAgentEvent(type, projectId, data, key, options));
  }
}
