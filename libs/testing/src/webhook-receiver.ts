import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got. */
export interface Receipt {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status it answered. */
  status: number;
}

/**
 * A real HTTP receiver for the notifier's webhooks (issue #17): a node:http server on a free
 * port that records every POST and answers what the test says per path (default 200).
 */
export class WebhookReceiver {
  readonly receipts: Receipt[] = [];
  private readonly answers = new Map<string, (count: number) => number>();

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const seen = receiver!.receipts.filter((r) => r.path === path).length;
        const status = receiver!.answers.get(path)?.(seen + 1) ?? 200;
        receiver!.receipts.push({
          path,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          status,
        });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}`);
    return receiver;
  }

  url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  /** What `path` answers to its n-th request (1-based). */
  answer(path: string, status: (n: number) => number): void {
    this.answers.set(path, status);
  }

  at(path: string): Receipt[] {
    return this.receipts.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * The receivers listen on 127.0.0.1, which the notifier refuses unless the operator allows it
 * (issue #27, `OPENQ_NOTIFY_ALLOWED_TARGETS`): a stack whose tests deliver to one adds this to its env.
 */
export const RECEIVERS_ALLOWED: Readonly<Record<string, string>> = {
  OPENQ_NOTIFY_ALLOWED_TARGETS: '127.0.0.1',
};
