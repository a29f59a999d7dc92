import { Agent, request } from 'node:http';

/**
 * The load generator's HTTP client: node:http with a keep-alive agent. Lighter than fetch (undici)
 * by a good fraction of a millisecond of CPU per request, which in-process would otherwise be
 * charged to openq.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export interface HttpOptions {
  /** Another agent than the shared keep-alive one (a burst: a connection per request). */
  agent?: Agent;
  /** A request that gets no response resolves with status 0 (a burst counts them) instead of failing. */
  noResponseAsZero?: boolean;
}

export function http(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
  options: HttpOptions = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, rejectWith) => {
    const reject = (error: Error) =>
      options.noResponseAsZero ? resolve({ status: 0, body: String(error) }) : rejectWith(error);
    const req = request(
      url,
      {
        method,
        headers:
          body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: options.agent ?? agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
