import { eventSubject, makeEnvelope, type EventEnvelope } from '@openq/contracts';
import { encodeJson } from '@openq/messaging';
import { DEV_JWT_SECRET, DEV_SERVICE_TOKEN } from '@openq/platform';
import { mintDevToken, type DevTokenRole } from '../../../tools/token';
import type { StackView } from '../../support/processes';

/** What an HTTP call came back with; status 0 when nothing answered (refused, reset). */
export interface HttpResult {
  status: number;
  // Tests read arbitrary JSON bodies.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface HttpOptions {
  token?: string;
  serviceToken?: string;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** One HTTP call; never throws (a refused or reset connection is status 0). */
export async function http(
  baseUrl: string,
  method: string,
  path: string,
  options: HttpOptions = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.serviceToken) headers['x-service-token'] = options.serviceToken;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  try {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, text };
  } catch (error) {
    return {
      status: 0,
      body: null,
      text: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
  }
}

export function devToken(user: string, project: string, role: DevTokenRole = 'viewer'): string {
  return mintDevToken({ user, project, role, secret: DEV_JWT_SECRET });
}

export const SERVICE_TOKEN = DEV_SERVICE_TOKEN;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The engine's side: publishes agent events on JetStream (retrying the same message id until the
 * broker acknowledges it, so a publish across a broker restart is stored once), and counts them.
 */
export class Engine {
  published = 0;
  publishRetries = 0;

  constructor(private readonly stack: StackView) {}

  envelope<T>(type: string, projectId: string, data: T, eventId?: string): EventEnvelope<T> {
    return makeEnvelope(type, projectId, data, eventId ? { eventId } : {});
  }

  /** Publishes (with `msgID`, default the envelope's id) until JetStream acks it. */
  async publish(
    envelope: EventEnvelope,
    msgID: string = envelope.eventId,
    deadlineMs = 120_000,
  ): Promise<void> {
    await this.publishRaw(
      eventSubject(envelope.type, envelope.projectId),
      encodeJson(envelope),
      msgID,
      deadlineMs,
    );
  }

  async publishRaw(
    subject: string,
    payload: Uint8Array,
    msgID?: string,
    deadlineMs = 120_000,
  ): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      try {
        await this.stack.nc
          .jetstream()
          .publish(subject, payload, { ...(msgID ? { msgID } : {}), timeout: 5000 });
        this.published++;
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        this.publishRetries++;
        await pause(100);
      }
    }
  }

  async emit<T>(type: string, projectId: string, data: T, eventId?: string): Promise<EventEnvelope<T>> {
    const envelope = this.envelope(type, projectId, data, eventId);
    await this.publish(envelope);
    return envelope;
  }
}

/** An HTTP call retried while the edge or a service is away (no answer, 502, 503, 504). */
export async function httpUntilDefinitive(
  baseUrl: () => string,
  method: string,
  path: string,
  options: HttpOptions,
  onRetry: (result: HttpResult) => void = () => undefined,
  deadlineMs = 120_000,
): Promise<HttpResult> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const result = await http(baseUrl(), method, path, options);
    if (![0, 502, 503, 504].includes(result.status) || Date.now() > deadline) return result;
    onRetry(result);
    await pause(100);
  }
}
