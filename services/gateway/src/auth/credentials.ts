import type { IncomingHttpHeaders } from 'node:http';

/** Cookie the inbox page keeps its token in (the browser cannot set `Authorization` on SSE). */
export const AUTH_COOKIE = 'openq_token';
export const SERVICE_TOKEN_HEADER = 'x-service-token';

/**
 * The user token of a request: `Authorization: Bearer <jwt>` first, else the `openq_token`
 * cookie. Anything else (another scheme, an empty value) counts as no token.
 */
export function userTokenOf(headers: IncomingHttpHeaders): string | null {
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization);
    return match?.[1] ?? null;
  }
  const cookie = headers.cookie;
  if (typeof cookie !== 'string') return null;
  return cookieValue(cookie, AUTH_COOKIE);
}

/** Reads one cookie from a `Cookie` header (RFC 6265 pairs separated by `;`). */
export function cookieValue(header: string, name: string): string | null {
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      return null;
    }
    return value === '' ? null : value;
  }
  return null;
}

/** The `X-Service-Token` header, or null when missing, empty or repeated. */
export function serviceTokenOf(headers: IncomingHttpHeaders): string | null {
  const value = headers[SERVICE_TOKEN_HEADER];
  return typeof value === 'string' && value !== '' ? value : null;
}
