import {
  AgentEvent,
  type EventEnvelope,
  type Precedent,
  type EngineSubscriptionDeleted,
  type EngineSubscriptionView,
  type AnswerByAgentReply,
  type ArchiveStoryReply,
  type AskerRole,
  type CorrectStoryReply,
  type DevContext,
  type QaCut,
  type StoryChanges,
  type TurnContext,
} from '@openq/contracts';
import type { AnswerOpenQuestionEvent, DeclareOpenQuestionEvent } from './agent-event-data';
import { buildAgentEvent, type PublishOptions } from './envelope';

/**
 * The engine's typed client, part 2 (SPEC §4): the internal routes of the gateway, with the
 * service token. Every call is idempotent (declare by `toolCallId`, answer → `already_answered`,
 * reads), so network errors and 5xx answers are retried with exponential backoff; a 4xx never is.
 */

/** A refusal or failure of an internal route. `status` 0: no HTTP answer at all (network). */
export class OpenqApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    /** The whole error body (a 409 may carry extra fields). */
    readonly body: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = 'OpenqApiError';
  }
}

export interface OpenqHttpClientOptions {
  /** The gateway, e.g. `http://openq-gateway:3000`. */
  baseUrl: string;
  /** `OPENQ_SERVICE_TOKEN`, sent as `X-Service-Token`. */
  serviceToken: string;
  /** Retries after the first attempt (network errors and 5xx only). Default 4. */
  retries?: number;
  /** First backoff; doubles on each retry, up to `maxBackoffMs`. Defaults 200 ms and 5 s. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Per attempt. Default 10 s. */
  timeoutMs?: number;
  /** For tests and custom transports; default the global `fetch` and a timer. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** 0..1; the backoff is `delay/2 + random()·delay/2` (jitter). Default `Math.random`. */
  random?: () => number;
}

/** `POST /internal/.../open-questions` body: the declare event's fields (§3.1 + `toolCallId`). */
export type DeclareQuestionRequest = DeclareOpenQuestionEvent;
/** `POST /internal/.../open-questions/:questionId/answer` body. */
export type AgentAnswerRequest = Omit<AnswerOpenQuestionEvent, 'toolCallId' | 'questionId'>;
export interface StoryCorrectionRequest {
  questionId?: string | null;
  changes: StoryChanges;
}

/**
 * A declaration's outcome (SPEC §12.3, "Ask once"): a new question (`created`); the same tool call
 * again; `joined`: an open question of the project already asks this — `questionId` is that
 * question, its one answer reaches every asker; `precedent`: a decided question already asks this —
 * its decision is the answer and nothing was asked of the person (`questionId` is the decided
 * question's). To ask anyway, declare again with `insistir: true` and a `motivo`.
 */
export interface DeclareQuestionResult {
  questionId: string;
  /** False when this `toolCallId` had declared it already (HTTP 200 instead of 201), or joined, or met a precedent. */
  created: boolean;
  joined?: true;
  precedent?: Precedent;
}

/** `PUT /internal/engines/:engineId/subscription` body (SPEC §12.5). */
export interface EngineSubscriptionRequest {
  /** Where openq POSTs each event (the §8 envelope), signed with `secret` (`verifySignature`). */
  url: string;
  /** 16–256 characters: the HMAC key of `X-Openq-Signature`. */
  secret: string;
  projects: string[];
  /** Event types (`gate.resumed`) or families (`gate.*`). */
  events: string[];
}

/** `GET /internal/projects/:projectId/events` (SPEC §12.5): a catch-up page. */
export interface EventsPage {
  /** `seq`: the event's OPENQ_EVENTS sequence, also `X-Openq-Stream-Seq` of a subscription's POST. */
  events: { seq: number; envelope: EventEnvelope }[];
  /** The `after` of the next page. */
  next: number;
}

export interface EventsQuery {
  /** Events with a sequence after this one (default 0: from the oldest kept). */
  after?: number;
  /** 1..500, default 100. */
  limit?: number;
  /** Event types or families (`gate.*`); default all. */
  types?: string[];
}

export interface DeclareAndWaitOptions extends PublishOptions {
  /** How long to wait for the questions service to have the declaration. Default 30 s. */
  timeoutMs?: number;
  /** Between two asks. Default 200 ms. */
  pollMs?: number;
}

const segment = (value: string) => encodeURIComponent(value);

export class OpenqHttpClient {
  private readonly base: string;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(private readonly options: OpenqHttpClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
  }

  /** Declares an open question; the same `toolCallId` again returns the same `questionId`. */
  async declare(projectId: string, body: DeclareQuestionRequest): Promise<DeclareQuestionResult> {
    const { status, body: reply } = await this.call<{
      questionId?: string;
      joined?: true;
      precedent?: Precedent;
    }>('POST', `/internal/projects/${segment(projectId)}/open-questions`, body);
    const questionId = reply.questionId ?? reply.precedent?.questionId ?? '';
    return {
      questionId,
      created: status === 201,
      ...(reply.joined ? { joined: true as const } : {}),
      ...(reply.precedent ? { precedent: reply.precedent } : {}),
    };
  }

  /** Records the user's unequivocal chat answer (ADR 0258): `answered` or `already_answered`, never 409. */
  async answer(projectId: string, questionId: string, body: AgentAnswerRequest): Promise<AnswerByAgentReply> {
    const path = `/internal/projects/${segment(projectId)}/open-questions/${segment(questionId)}/answer`;
    return (await this.call<AnswerByAgentReply>('POST', path, body)).body;
  }

  /** §6.1 dev kickoff. */
  async devContext(projectId: string, taskId: string): Promise<DevContext> {
    const path = `/internal/projects/${segment(projectId)}/tasks/${segment(taskId)}/dev-context`;
    return (await this.call<DevContext>('GET', path)).body;
  }

  /** §6.2 QA cut. */
  async qaCut(projectId: string, taskId: string): Promise<QaCut> {
    const path = `/internal/projects/${segment(projectId)}/tasks/${segment(taskId)}/qa-cut`;
    return (await this.call<QaCut>('GET', path)).body;
  }

  /** §6.3 an asker's turn: the central instruction, the answer rule and the open questions. */
  async turnContext(projectId: string, role: AskerRole): Promise<TurnContext> {
    const path = `/internal/projects/${segment(projectId)}/turn-context?role=${segment(role)}`;
    return (await this.call<TurnContext>('GET', path)).body;
  }

  /** §6.4 a story correction as `agent/po`. */
  async correctStory(
    projectId: string,
    storyId: string,
    body: StoryCorrectionRequest,
  ): Promise<CorrectStoryReply> {
    const path = `/internal/projects/${segment(projectId)}/stories/${segment(storyId)}/corrections`;
    return (await this.call<CorrectStoryReply>('POST', path, body)).body;
  }

  /**
   * SPEC §11.4: one agent event envelope (`buildAgentEvent`), published by the gateway on JetStream
   * with `Nats-Msg-Id = eventId`. Posting the same envelope again is harmless (nothing doubled),
   * so failures are retried like every other call. A 400 names the failing field.
   */
  async publishEvent(envelope: EventEnvelope): Promise<{ eventId: string; questionId?: string }> {
    const path = `/internal/projects/${segment(envelope.projectId)}/events`;
    return (await this.call<{ eventId: string; questionId?: string }>('POST', path, envelope)).body;
  }

  /**
   * SPEC §12.5: declares an open question over the events route (`agent.question.declare`) and
   * waits until openq has it, returning its `questionId` — the same envelope is posted again
   * (harmless: the same eventId, the same toolCallId) until the 202 carries the id.
   */
  async declareAndWait(
    projectId: string,
    data: DeclareOpenQuestionEvent,
    options: DeclareAndWaitOptions = {},
  ): Promise<{ questionId: string; eventId: string }> {
    const envelope = buildAgentEvent(AgentEvent.QuestionDeclare, projectId, data, data.toolCallId, options);
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    for (;;) {
      const { eventId, questionId } = await this.publishEvent(envelope);
      if (questionId) return { questionId, eventId };
      if (Date.now() >= deadline)
        throw new OpenqApiError(
          0,
          'tempo_esgotado',
          `openq did not record the declaration of tool call ${data.toolCallId} in time (rejected? see question.rejected)`,
        );
      await this.sleep(options.pollMs ?? 200);
    }
  }

  /**
   * SPEC §12.5: openq POSTs each event of `projects` and `events` to `url`, signed with `secret`
   * (`X-Openq-Signature`; check it with `verifySignature`), in order per subject, retried with
   * backoff; `X-Openq-Delivery-Id` is stable across retries. Replaces an earlier subscription.
   */
  async subscribe(engineId: string, body: EngineSubscriptionRequest): Promise<EngineSubscriptionView> {
    const path = `/internal/engines/${segment(engineId)}/subscription`;
    return (await this.call<EngineSubscriptionView>('PUT', path, body)).body;
  }

  /** The engine's subscription (404 `inscricao_nao_encontrada` when it has none). */
  async subscription(engineId: string): Promise<EngineSubscriptionView> {
    const path = `/internal/engines/${segment(engineId)}/subscription`;
    return (await this.call<EngineSubscriptionView>('GET', path)).body;
  }

  async unsubscribe(engineId: string): Promise<EngineSubscriptionDeleted> {
    const path = `/internal/engines/${segment(engineId)}/subscription`;
    return (await this.call<EngineSubscriptionDeleted>('DELETE', path)).body;
  }

  /**
   * SPEC §12.5 the catch-up: the project's events after `after`, oldest first. Keep the last `seq`
   * you handled and ask again from it (after a restart, or to fill a gap in the webhooks).
   */
  async events(projectId: string, query: EventsQuery = {}): Promise<EventsPage> {
    const params = new URLSearchParams();
    if (query.after !== undefined) params.set('after', String(query.after));
    if (query.limit !== undefined) params.set('limit', String(query.limit));
    if (query.types?.length) params.set('types', query.types.join(','));
    const qs = params.toString() === '' ? '' : `?${params.toString()}`;
    return (await this.call<EventsPage>('GET', `/internal/projects/${segment(projectId)}/events${qs}`)).body;
  }

  /** §11.3 archive a draft story as `agent/po` (already archived: the same reply again). */
  async archiveStory(projectId: string, storyId: string): Promise<ArchiveStoryReply> {
    const path = `/internal/projects/${segment(projectId)}/stories/${segment(storyId)}/archive`;
    return (await this.call<ArchiveStoryReply>('POST', path)).body;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const retries = this.options.retries ?? 4;
    for (let attempt = 0; ; attempt += 1) {
      let failure: OpenqApiError;
      try {
        const response = await this.fetchImpl(`${this.base}${path}`, {
          method,
          headers: {
            'x-service-token': this.options.serviceToken,
            accept: 'application/json',
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        });
        const parsed = await readJson(response);
        if (response.ok) return { status: response.status, body: parsed as T };
        failure = apiError(method, path, response.status, parsed);
        if (response.status < 500) throw failure; // 4xx: the request is wrong; repeating it will not help
      } catch (error) {
        if (error instanceof OpenqApiError) {
          if (error.status !== 0 && error.status < 500) throw error;
          failure = error;
        } else {
          const why = error instanceof Error ? error.message : String(error);
          failure = new OpenqApiError(0, 'network_error', `${method} ${path}: no answer from openq (${why})`);
        }
      }
      if (attempt >= retries) throw failure;
      await this.sleep(this.backoff(attempt));
    }
  }

  private backoff(attempt: number): number {
    const delay = Math.min(this.options.maxBackoffMs ?? 5000, (this.options.backoffMs ?? 200) * 2 ** attempt);
    return Math.round(delay / 2 + this.random() * (delay / 2));
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text.slice(0, 500) };
  }
}

function apiError(method: string, path: string, status: number, body: unknown): OpenqApiError {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : null;
  const reason = typeof fields?.reason === 'string' ? fields.reason : `http_${status}`;
  const message =
    typeof fields?.message === 'string' ? fields.message : `${method} ${path} answered ${status}`;
  return new OpenqApiError(status, reason, message, fields);
}
