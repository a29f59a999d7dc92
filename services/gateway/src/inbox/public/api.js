// The page's one way to the gateway: same-origin fetch with the openq_token cookie.

export class ApiError extends Error {
  constructor(status, reason, message, body = {}) {
    super(message);
    this.status = status;
    this.reason = reason;
    this.body = body;
  }
}

/** JSON in, JSON out; an error body `{ statusCode, reason, message }` becomes an ApiError. */
export async function api(path, { method = 'GET', body, headers = {} } = {}) {
  let response;
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
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const reason = data && typeof data.reason === 'string' ? data.reason : 'erro_desconhecido';
    const message = data && typeof data.message === 'string' ? data.message : `HTTP ${response.status}`;
    throw new ApiError(response.status, reason, message, data ?? {});
  }
  return data;
}

/** `/projects/<p>/…` with the id encoded. */
export function projectPath(projectId, rest = '') {
  return `/projects/${encodeURIComponent(projectId)}${rest}`;
}

/** A random `Idempotency-Key` (getRandomValues: unlike randomUUID, also on plain-http hosts). */
export function newIdempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
