import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino, { type LoggerOptions } from 'pino';
import pinoHttp from 'pino-http';
import { runInScope } from '@openq/messaging';
import { pinoHttpOptions, redactUrl } from './logging';

describe('pinoHttpOptions', () => {
  const options = pinoHttpOptions({ service: 'gateway', level: 'info' });

  it('redacts credentials from request headers and token fields', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ level: 'info', redact: options.redact, base: options.base } as LoggerOptions, sink);
    logger.info({
      req: {
        headers: {
          authorization: 'Bearer abc.def.ghi',
          'x-service-token': 'sekret',
          cookie: 'openq_token=abc',
          accept: 'json',
        },
      },
      body: { token: 'abc' },
    });
    const line = JSON.parse(lines[0] ?? '{}') as {
      service: string;
      req: { headers: Record<string, string> };
      body: { token: string };
    };
    expect(line.service).toBe('gateway');
    expect(line.req.headers).toEqual({
      authorization: '[redacted]',
      'x-service-token': '[redacted]',
      cookie: '[redacted]',
      accept: 'json',
    });
    expect(line.body.token).toBe('[redacted]');
  });

  it('does not log successful health, readiness and metrics polls, even behind a middleware mount', () => {
    const ignore = (options.autoLogging as { ignore: (req: IncomingMessage) => boolean }).ignore;
    expect(ignore({ url: '/', originalUrl: '/healthz' } as unknown as IncomingMessage)).toBe(true);
    expect(ignore({ url: '/metrics?x=1' } as IncomingMessage)).toBe(true);
    expect(ignore({ url: '/projects/p1/open-questions' } as IncomingMessage)).toBe(false);
  });

  it('puts the correlation and trace id of the message being handled on every line logged meanwhile', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ level: 'info', mixin: options.mixin } as LoggerOptions, sink);
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    logger.info('outside');
    await runInScope(
      (name) => (name === 'traceparent' ? traceparent : undefined),
      'corr-7',
      { name: 'x', kind: 'consumer' },
      async () => {
        await Promise.resolve();
        logger.warn('inside');
      },
    );
    const [outside, inside] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(outside).not.toHaveProperty('correlationId');
    expect(inside).toMatchObject({
      msg: 'inside',
      correlationId: 'corr-7',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    });
  });

  it('uses the caller correlation id as the request id when it is safe, else a fresh one', () => {
    const genReqId = options.genReqId as (req: IncomingMessage) => string;
    expect(genReqId({ headers: { 'x-correlation-id': 'corr-1' } } as unknown as IncomingMessage)).toBe(
      'corr-1',
    );
    expect(genReqId({ headers: { 'x-correlation-id': 'bad id\n' } } as unknown as IncomingMessage)).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });

  it('never logs the token of a one-tap link: /l/<token> is logged as /l/[redacted]', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJwIjoiZGVtbyJ9.c2lnbmF0dXJlLW9mLXRoZS1saW5r';
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pinoHttp({ ...options, level: 'info' }, sink);
    const server = createServer((req, res) => {
      logger(req, res);
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const path of [`/l/${token}`, `/l/${token}?x=1`, '/projects/p1/open-questions'])
        expect((await fetch(`${base}${path}`, { method: 'POST' })).status).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const urls = lines.map((l) => (JSON.parse(l) as { req: { url: string } }).req.url);
    expect(urls).toEqual(['/l/[redacted]', '/l/[redacted]?x=1', '/projects/p1/open-questions']);
    expect(lines.join('\n')).not.toContain(token);
    expect(redactUrl('/links/abc')).toBe('/links/abc');
  });
});
