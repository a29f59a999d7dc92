import { Agent, request } from 'node:http';

/**
 * The load generator's HTTP client: node:http with a keep-alive agent. Lighter than fetch (undici)
 * by a good fraction of a millisecond of CPU per request, which in-process would otherwise be
 * charged to openq.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export function http(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers:
          body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent,
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
