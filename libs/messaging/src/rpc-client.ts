import { ErrorCode, NatsError, headers as natsHeaders, type NatsConnection } from 'nats';
import { requestSubject, type Reply } from '@openq/contracts';
import { decodeJson, encodeJson } from './codec';
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

  async request<T>(service: string, verb: string, payload: unknown, options: RequestOptions = {}): Promise<Reply<T>> {
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
        return failure(502, 'resposta_invalida', `${subject} answered with something that is not a reply envelope`);
      }
      return decoded.value as Reply<T>;
    } catch (error) {
      if (error instanceof NatsError && error.code === ErrorCode.NoResponders) {
        return failure(503, 'servico_indisponivel', `no ${service} service is answering ${subject}`);
      }
      if (error instanceof NatsError && error.code === ErrorCode.Timeout) {
        return failure(504, 'servico_sem_resposta', `${subject} did not answer in time`);
      }
      return failure(503, 'servico_indisponivel', `${subject}: ${error instanceof Error ? error.message : String(error)}`);
    }
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
