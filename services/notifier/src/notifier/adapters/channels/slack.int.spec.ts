import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { parseAllowedTargets } from '@openq/platform';
import { PermanentSendError, TransientSendError } from './channel';
import { renderSlack, SlackRateLimitedError, SlackSender } from './slack';
import { sampleNotification } from './templates/sample-notification';

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/**
 * A real HTTP receiver on a random loopback port standing in for Slack: it records each request
 * and answers with `reply` (default: Slack's 200 `ok`).
 */
async function startReceiver(reply: (res: ServerResponse) => void = (res) => res.end('ok')) {
  const received: Received[] = [];
  const hung = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      hung.add(res);
      res.on('finish', () => hung.delete(res));
      reply(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: `http://127.0.0.1:${port}/services/T000/B000/XXXXsecretXXXX`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hung) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The receivers are on 127.0.0.1: allowed here as an operator would (issue #27). */
const LOCAL = { policy: parseAllowedTargets('127.0.0.1') };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function receiver(reply?: (res: ServerResponse) => void) {
  const r = await startReceiver(reply);
  closers.push(r.close);
  return r;
}

async function failureOf(
  promise: Promise<void>,
): Promise<Error & { reason?: string; retryAfterMs?: number; failure?: string }> {
  return promise.then(
    () => {
      throw new Error('expected the send to fail');
    },
    (e: Error) => e,
  );
}

describe('SlackSender against a real HTTP receiver', () => {
  it('POSTs the Block Kit JSON once, and 200 ok is success', async () => {
    const slack = await receiver();
    const n = sampleNotification();
    await new SlackSender(LOCAL).send({ webhookUrl: slack.url }, n);

    expect(slack.received).toHaveLength(1);
    const [request] = slack.received;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/services/T000/B000/XXXXsecretXXXX');
    expect(request!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(request!.body).toEqual(renderSlack(n));
    expect(request!.body).toMatchObject({
      text: expect.stringContaining('QA gate on T-101 is waiting for your decision'),
      blocks: [
        { type: 'header' },
        { type: 'context' },
        {
          type: 'section',
          text: { type: 'mrkdwn', text: expect.stringContaining('*Should refunds above R$ 500') },
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: expect.stringMatching(/^>\*Suggestion:\*/) }] },
        { type: 'section', text: { type: 'mrkdwn', text: '*Blocks:* QA gate on T-101' } },
        {
          type: 'actions',
          elements: [
            { type: 'button', style: 'primary', url: 'https://openq.example.com/l/accept/tok-123' },
            { type: 'button', url: 'https://openq.example.com/projects/acme/inbox#q-1' },
          ],
        },
      ],
    });
  });

  it.each([
    [400, 'invalid_payload'],
    [403, 'action_prohibited'],
    [404, 'no_service'],
    [410, 'channel_is_archived'],
  ])('turns %i %s into a PermanentSendError that names the answer, not the URL', async (status, body) => {
    const slack = await receiver((res) => {
      res.statusCode = status;
      res.end(body);
    });
    const error = await failureOf(
      new SlackSender(LOCAL).send({ webhookUrl: slack.url }, sampleNotification()),
    );
    expect(error).toBeInstanceOf(PermanentSendError);
    expect(error.reason).toBe('slack_recusou');
    expect(error.failure).toBe('http_4xx');
    expect(error.message).toBe(
      `Slack webhook http://127.0.0.1:${new URL(slack.url).port}/*** refused the message (${status} ${body})`,
    );
    expect(error.message).not.toContain('XXXXsecretXXXX');
  });

  it('turns 429 into a transient SlackRateLimitedError carrying the Retry-After delay', async () => {
    const slack = await receiver((res) => {
      res.statusCode = 429;
      res.setHeader('Retry-After', '17');
      res.end('rate_limited');
    });
    const error = await failureOf(
      new SlackSender(LOCAL).send({ webhookUrl: slack.url }, sampleNotification()),
    );
    expect(error).toBeInstanceOf(SlackRateLimitedError);
    expect(error).toBeInstanceOf(TransientSendError);
    expect(error.retryAfterMs).toBe(17_000);
    expect(error.reason).toBe('slack_limite');
    expect(error.message).not.toContain('XXXXsecretXXXX');
  });

  it('turns 500 and 503 into a TransientSendError', async () => {
    for (const status of [500, 503]) {
      const slack = await receiver((res) => {
        res.statusCode = status;
        res.end('boom');
      });
      const error = await failureOf(
        new SlackSender(LOCAL).send({ webhookUrl: slack.url }, sampleNotification()),
      );
      expect(error).toBeInstanceOf(TransientSendError);
      expect(error).not.toBeInstanceOf(SlackRateLimitedError);
      expect(error.reason).toBe('slack_indisponivel');
      expect(error.failure).toBe('http_5xx');
    }
  });

  it('turns a receiver that never answers into a TransientSendError after the timeout', async () => {
    const slack = await receiver(() => undefined);
    const error = await failureOf(
      new SlackSender({ ...LOCAL, timeoutMs: 300 }).send({ webhookUrl: slack.url }, sampleNotification()),
    );
    expect(error).toBeInstanceOf(TransientSendError);
    expect(error.message).toContain('no answer in 300 ms');
    expect(error.failure).toBe('tempo_esgotado');
    expect(error.message).not.toContain('XXXXsecretXXXX');
    expect(slack.received).toHaveLength(1);
  });

  it('turns a refused connection into a TransientSendError', async () => {
    const probe = createTcpServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await failureOf(
      new SlackSender(LOCAL).send(
        { webhookUrl: `http://127.0.0.1:${port}/services/XXXXsecretXXXX` },
        sampleNotification(),
      ),
    );
    expect(error).toBeInstanceOf(TransientSendError);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.failure).toBe('conexao_recusada');
    expect(error.message).not.toContain('XXXXsecretXXXX');
  });

  it('sends nothing to a loopback receiver the operator does not allow, however the URL is written', async () => {
    const slack = await receiver();
    const port = new URL(slack.url).port;
    for (const webhookUrl of [
      slack.url,
      `http://localhost:${port}/services/XXXXsecretXXXX`,
      `https://hooks.slack.com@127.0.0.1:${port}/services/XXXXsecretXXXX`,
    ]) {
      const error = await failureOf(new SlackSender().send({ webhookUrl }, sampleNotification()));
      expect(error).toBeInstanceOf(PermanentSendError);
      expect(error.failure).toBe('destino_nao_permitido');
      expect(error.message).not.toContain('XXXXsecretXXXX');
    }
    expect(slack.received).toEqual([]);
  });
});
