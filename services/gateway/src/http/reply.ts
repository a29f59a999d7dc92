import type { ErrorBody, Reply } from '@openq/contracts';
import { forwardedHttpError, httpError, Reason } from './http-error';

/**
 * A service's reply as the HTTP outcome: `ok` → its data; an error → an HttpException with the
 * same status and body (extra fields such as the open `questionIds` of a 409 are kept).
 */
export function replyToHttp<T>(reply: Reply<T>): T {
  if (reply.ok) return reply.data;
  const { statusCode, reason, message, ...extra } = reply.error as ErrorBody & Record<string, unknown>;
  if (!Number.isInteger(statusCode) || statusCode < 400 || statusCode > 599) {
    throw httpError(
      502,
      Reason.invalidReply,
      `a service answered with an invalid status ${String(statusCode)}`,
    );
  }
  throw forwardedHttpError(statusCode, reason, typeof message === 'string' ? message : reason, extra);
}
