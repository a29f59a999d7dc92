// The page's one way to the gateway: same-origin fetch with the openq_token cookie.

/** A refusal's JSON body: `{ statusCode, reason, message }` and whatever else the route adds. */
export type ErrorBody = Record<string, unknown>;

export class ApiError extends Error {
  readonly status: number;
  readonly reason: string;
  readonly body: ErrorBody;
  constructor(status: number, reason: string, message: string, body: ErrorBody = {}) {
    super(message);
    this.status = status;
    this.reason = reason;
    this.body = body;
  }
}

/**
 * An error the page shows: the gateway's refusal (an ApiError) or the page's own check before
 * sending (`local`, its sentence already in the person's language, `field` the input it is about).
 */
export interface PageError {
  status?: number;
  reason?: string;
  message?: string;
  body?: ErrorBody;
  local?: boolean;
  field?: string | null;
}

/** JSON in, JSON out; an error body `{ statusCode, reason, message }` becomes an ApiError. */
export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
}

// The replies are the gateway's JSON: each caller reads the fields it needs.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function api<T = any>(
  path: string,
  { method = 'GET', body, headers = {} }: ApiOptions = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      // X-Openq-Csrf: the gateway takes a cookie-authenticated write only with it (another origin
      // cannot send it without a CORS preflight that openq never grants).
      headers:
        body === undefined
          ? { accept: 'application/json', 'x-openq-csrf': '1', ...headers }
          : {
              accept: 'application/json',
              'content-type': 'application/json',
              'x-openq-csrf': '1',
              ...headers,
            },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'sem_conexao', 'Cannot reach openq — check your connection.');
  }
  const text = await response.text();
  let data: { reason?: unknown; message?: unknown } | null = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const reason = data && typeof data.reason === 'string' ? data.reason : 'erro_desconhecido';
    const message = data && typeof data.message === 'string' ? data.message : `HTTP ${response.status}`;
    throw new ApiError(response.status, reason, message, (data ?? {}) as ErrorBody);
  }
  return data as T;
}

/** `/projects/<p>/…` with the id encoded. */
export function projectPath(projectId: string, rest = ''): string {
  return `/projects/${encodeURIComponent(projectId)}${rest}`;
}

/** A random `Idempotency-Key` (getRandomValues: unlike randomUUID, also on plain-http hosts). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
