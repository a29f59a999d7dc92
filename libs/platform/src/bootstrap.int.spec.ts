import { Controller, Get, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { request as httpRequest, Agent, type IncomingMessage } from 'node:http';
import { runService } from './bootstrap';

let release: () => void = () => undefined;
let arrived: () => void = () => undefined;

@Controller()
class SlowController {
  @Get('slow')
  async slow(): Promise<{ ok: true }> {
    arrived();
    await new Promise<void>((resolve) => (release = resolve));
    return { ok: true };
  }
}

@Module({ controllers: [SlowController] })
class SlowModule {}

describe('runService shutdown', () => {
  it('answers a request in flight when it closes, then closes its keep-alive connection instead of waiting for it to idle out', async () => {
    const app: NestFastifyApplication = await runService({
      name: 'slow',
      module: SlowModule,
      httpPort: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      exitOnFailure: false,
      handleSignals: false,
    });
    const server = app.getHttpServer();
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true });
    const inRoute = new Promise<void>((resolve) => (arrived = resolve));
    const response = new Promise<{ res: IncomingMessage; body: string }>((resolve, reject) => {
      const req = httpRequest({ port, host: '127.0.0.1', path: '/slow', agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ res, body }));
      });
      req.on('error', reject);
      req.end();
    });
    await inRoute;
    const closed = app.close();
    // The server is closing (the listener is gone) while the request is still being handled.
    await new Promise<void>((resolve) => {
      const poll = () => (server.listening ? setImmediate(poll) : resolve());
      poll();
    });
    release();
    const { res, body } = await response;
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(body)).toEqual({ ok: true });
    expect(res.headers.connection).toBe('close');
    await closed;
    const open = await new Promise<number>((resolve, reject) =>
      server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
    expect(open).toBe(0);
    agent.destroy();
  });
});

describe('runService errors', () => {
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    // A service with only its health port's kind of routes: what every domain service runs.
    app = await runService({
      name: 'plain',
      module: SlowModule,
      httpPort: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      exitOnFailure: false,
      handleSignals: false,
    });
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  it.each<[string, string, RequestInit, number, string]>([
    ['an unknown route', '/nope', {}, 404, 'rota_nao_encontrada'],
    ['an unknown method', '/slow', { method: 'DELETE' }, 404, 'rota_nao_encontrada'],
    ['a URL over 16 KiB', `/slow?x=${'a'.repeat(20_000)}`, {}, 431, 'cabecalhos_grandes_demais'],
    [
      'headers over 16 KiB',
      '/slow',
      { headers: { 'x-pad': 'b'.repeat(20_000) } },
      431,
      'cabecalhos_grandes_demais',
    ],
  ])('answers %s with the contract body', async (_what, path, init, status, reason) => {
    const response = await fetch(`${base}${path}`, init);
    expect(response.status).toBe(status);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ statusCode: status, reason });
    expect(Object.keys(body).sort()).toEqual(['message', 'reason', 'statusCode']);
  });
});
