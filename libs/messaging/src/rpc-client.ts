import { ErrorCode, NatsError, headers as natsHeaders, type NatsConnection } from 'nats';
import {
  requestSubject,
  type CommandDefinition,
  type PayloadOf,
  type Reply,
  type ReplyOf,
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
    const subject = requestSubject(service, verb);
    const h = natsHeaders();
    // A request made while handling an event or a request carries that work's correlation and trace.
    for (const [k, v] of Object.entries({ ...propagationHeaders(), ...options.headers })) h.set(k, v);
    try {
      const msg = await this.nc.request(subject, encodeJson(payload), {
        timeout: options.timeoutMs ?? this.defaultTimeoutMs,
        headers: h,
      });
      const decoded = decodeJson(msg.data);
      if (!decoded.ok || !isReply(decoded.value)) {
        return failure(
          502,
          'resposta_invalida',
          `${subject} answered with something that is not a reply envelope`,
        );
      }
      return decoded.value as Reply<T>;
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

function failure(statusCode: number, reason: string, message: string): Reply<never> {
  return { ok: false, error: { statusCode, reason, message } };
}

function isReply(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { ok?: unknown; error?: { statusCode?: unknown; reason?: unknown } };
  if (v.ok === true) return 'data' in v;
  return v.ok === false && typeof v.error?.statusCode === 'number' && typeof v.error?.reason === 'string';
}
