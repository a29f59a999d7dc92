import { ErrorCode, NatsError, headers as natsHeaders, type Msg, type NatsConnection } from 'nats';
import {
  requestSubject,
  type CommandDefinition,
  type ErrorBody,
  type PayloadOf,
  type Reply,
  type ReplyOf,
  type RefusalReason,
} from '@openq/contracts';
import { decodeJson, encodeJson } from './codec';
import { replyFailure } from './retry-later';
import { propagationHeaders } from './trace-context';

export interface RequestOptions {
  timeoutMs?: number;
  /** Carried as NATS headers (e.g. `traceparent`, `x-correlation-id`). */
  headers?: Record<string, string>;
}

/**
 * Request/reply to `openq.<service>.<verb>`. Never throws for the remote side's sake and never
 * hangs: a missing service, a timeout or a garbled reply all come back as `{ ok: false, error }`.
 */
export class RpcClient {
  /** Requests made in this turn of the event loop, sent together at its end (`sendInTurn`). */
  private queued: (() => void)[] | null = null;

  constructor(
    private readonly nc: NatsConnection,
    private readonly defaultTimeoutMs = 5000,
  ) {}

  async request<T>(
    service: string,
    verb: string,
    payload: unknown,
    options: RequestOptions = {},
  ): Promise<Reply<T>> {
    const answered = await this.exchange(service, verb, payload, options);
    if (!answered.ok) return answered;
    const decoded = decodeJson(answered.msg.data);
    if (!decoded.ok || !isReply(decoded.value)) return notAReply(answered.subject);
    return decoded.value as Reply<T>;
  }

  /**
   * `request` for a caller that only relays the reply's data (the gateway's reads): on success
   * its `data` as the service encoded it, sliced out of the reply without parsing it (replies are
   * encoded `{"ok":true,"data":…}`); anything else is parsed as `request` does.
   */
  async requestBytes(
    service: string,
    verb: string,
    payload: unknown,
    options: RequestOptions = {},
  ): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; error: ErrorBody }> {
    const answered = await this.exchange(service, verb, payload, options);
    if (!answered.ok) return answered;
    const bytes = answered.msg.data;
    if (
      startsWith(bytes, OK_PREFIX) &&
      bytes[bytes.length - 1] === CLOSE_BRACE &&
      bytes.length > OK_PREFIX.length + 1
    )
      return { ok: true, bytes: bytes.subarray(OK_PREFIX.length, bytes.length - 1) };
    const decoded = decodeJson(bytes);
    if (!decoded.ok || !isReply(decoded.value)) return notAReply(answered.subject);
    const reply = decoded.value as Reply<unknown>;
    return reply.ok ? { ok: true, bytes: encodeJson(reply.data) } : reply;
  }

  private async exchange(
    service: string,
    verb: string,
    payload: unknown,
    options: RequestOptions,
  ): Promise<{ ok: true; subject: string; msg: Msg } | { ok: false; error: ErrorBody }> {
    const subject = requestSubject(service, verb);
    const h = natsHeaders();
    // A request made while handling an event or a request carries that work's correlation and trace.
    for (const [k, v] of Object.entries({ ...propagationHeaders(), ...options.headers })) h.set(k, v);
    const data = encodeJson(payload);
    try {
      const msg = await this.sendInTurn(() =>
        this.nc.request(subject, data, { timeout: options.timeoutMs ?? this.defaultTimeoutMs, headers: h }),
      );
      return { ok: true, subject, msg };
    } catch (error) {
      if (error instanceof NatsError && error.code === ErrorCode.NoResponders) {
        return failure(503, 'servico_indisponivel', `no ${service} service is answering ${subject}`);
      }
      if (error instanceof NatsError && error.code === ErrorCode.Timeout) {
        return failure(504, 'servico_sem_resposta', `${subject} did not answer in time`);
      }
      return failure(
        503,
        'servico_indisponivel',
        `${subject}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * Sends a request at the end of this turn of the event loop (`setImmediate`), with every other
   * request made in the same turn: nats.js writes what it was given in one turn of microtasks to
   * the socket at once, so requests that arrive in separate I/O callbacks (a burst of HTTP
   * requests, each parsed in its own) share one write instead of one each. A lone request waits
   * for nothing but the end of the current turn.
   */
  private sendInTurn<T>(send: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const go = () => {
        try {
          send().then(resolve, reject);
        } catch (error) {
          reject(error); // a closed connection throws at once: it fails this request, no other
        }
      };
      if (this.queued) {
        this.queued.push(go);
        return;
      }
      this.queued = [go];
      setImmediate(() => {
        const turn = this.queued!;
        this.queued = null;
        for (const request of turn) request();
      });
    });
  }

  /**
   * A command whose every failure is the caller's failure, not a refusal to pass on (a query
   * another service must answer before this one can decide): its reply's data, or a thrown
   * `replyFailure` — 503/504 a `RetryLaterError` (an event is retried while the outage lasts, a
   * request answers 503), anything else a plain `Error`.
   */
  async call<C extends CommandDefinition>(
    command: C,
    payload: PayloadOf<C>,
    options: RequestOptions = {},
  ): Promise<ReplyOf<C>> {
    const reply = await this.request<ReplyOf<C>>(command.service, command.verb, payload, options);
    if (!reply.ok) throw replyFailure(command.type, reply.error);
    return reply.data;
  }
}

function failure(
  statusCode: number,
  reason: RefusalReason,
  message: string,
): { ok: false; error: ErrorBody } {
  return { ok: false, error: { statusCode, reason, message } };
}

function notAReply(subject: string): { ok: false; error: ErrorBody } {
  return failure(502, 'resposta_invalida', `${subject} answered with something that is not a reply envelope`);
}

/** How `JetStreamServer` encodes a successful reply (`encodeJson(okReply(data))`) up to its data. */
const OK_PREFIX = new TextEncoder().encode('{"ok":true,"data":');
const CLOSE_BRACE = '}'.charCodeAt(0);

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

function isReply(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { ok?: unknown; error?: { statusCode?: unknown; reason?: unknown } };
  if (v.ok === true) return 'data' in v;
  return v.ok === false && typeof v.error?.statusCode === 'number' && typeof v.error?.reason === 'string';
}
