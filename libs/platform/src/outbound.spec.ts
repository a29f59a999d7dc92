import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkOutboundTarget,
  guardedRequest,
  isPublicAddress,
  OutboundError,
  parseAllowedTargets,
  PUBLIC_ONLY,
  type OutboundPolicy,
} from './outbound';

/*
 * Issue #27 the guarded outbound client against a real HTTP server on 127.0.0.1 (no mocks): what
 * it refuses before any byte leaves, that it connects to the address it checked, and that it
 * follows no redirect and waits and reads only so much.
 */

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
}
let server: Server;
let base: string;
let port: number;
const hits: Hit[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push({ path: req.url ?? '/', headers: req.headers });
    req.resume();
    req.on('end', () => {
      if (req.url === '/redirect') res.writeHead(302, { location: '/elsewhere' }).end();
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('late'), 2_000).unref();
      else if (req.url === '/big') res.writeHead(200).end('x'.repeat(1_000_000));
      else if (req.url === '/refuse') res.writeHead(403).end('no');
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  hits.length = 0;
});

const post = (url: string, policy: OutboundPolicy, timeoutMs = 1_000, maxResponseBytes?: number) =>
  guardedRequest(
    url,
    {
      headers: { 'content-type': 'application/json' },
      body: '{}',
      timeoutMs,
      ...(maxResponseBytes ? { maxResponseBytes } : {}),
    },
    policy,
  );

async function failureOf(promise: Promise<unknown>): Promise<OutboundError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OutboundError) return error;
    throw error;
  }
  throw new Error('expected an OutboundError');
}

describe('which addresses are public', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '2002:7f00:1::',
    '64:ff9b::7f00:1',
  ])('%s is not', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888'])('%s is', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('the rules at save time (checkOutboundTarget)', () => {
  it.each([
    'http://127.0.0.1:9/x',
    'http://localhost:9/x',
    'http://[::1]:9/x',
    'http://0.0.0.0:9/x',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/h',
    'http://2130706433/h',
    'http://0x7f.1/h',
    'http://[::ffff:127.0.0.1]/h',
    'https://hooks.slack.com@127.0.0.1:9/services/x',
    'https://user:pass@example.com/h',
    'ftp://example.com/h',
  ])('refuses %s with destino_nao_permitido', async (url) => {
    const error = await failureOf(checkOutboundTarget(url, PUBLIC_ONLY));
    expect(error).toMatchObject({ failure: 'destino_nao_permitido', transient: false });
  });

  it('refuses a name that resolves to a private address, and one of whose addresses is', async () => {
    const resolve = async (host: string) =>
      host === 'intranet.example'
        ? [{ address: '10.1.2.3', family: 4 }]
        : [
            { address: '93.184.216.34', family: 4 },
            { address: '127.0.0.1', family: 4 },
          ];
    for (const host of ['intranet.example', 'mixed.example']) {
      const error = await failureOf(checkOutboundTarget(`https://${host}/h`, { ...PUBLIC_ONLY, resolve }));
      expect(error.failure).toBe('destino_nao_permitido');
    }
  });

  it('takes a public name, and the operator’s hosts and ranges', async () => {
    const resolve = async () => [{ address: '10.1.2.3', family: 4 }];
    await expect(
      checkOutboundTarget('https://hooks.example/h', {
        ...PUBLIC_ONLY,
        resolve: async () => [{ address: '93.184.216.34', family: 4 }],
      }),
    ).resolves.toMatchObject({ address: '93.184.216.34', family: 4 });
    const byHost = parseAllowedTargets('hooks.internal');
    await expect(
      checkOutboundTarget('https://HOOKS.internal/h', { ...byHost, resolve }),
    ).resolves.toMatchObject({ address: '10.1.2.3' });
    const byRange = parseAllowedTargets('10.0.0.0/8, ::1');
    await expect(checkOutboundTarget('https://x.internal/h', { ...byRange, resolve })).resolves.toMatchObject(
      {
        address: '10.1.2.3',
      },
    );
    await expect(checkOutboundTarget('http://[::1]:9/h', byRange)).resolves.toMatchObject({ family: 6 });
    await expect(checkOutboundTarget('http://127.0.0.1:9/h', byRange)).rejects.toMatchObject({
      failure: 'destino_nao_permitido',
    });
  });

  it('refuses a bad allow-list entry at boot, naming it', () => {
    expect(() => parseAllowedTargets('10.0.0.0/40')).toThrow(/10\.0\.0\.0\/40/);
    expect(() => parseAllowedTargets('http://x')).toThrow(/OPENQ_NOTIFY_ALLOWED_TARGETS/);
  });
});

describe('sending (guardedRequest)', () => {
  it('a receiver on 127.0.0.1 receives nothing while the operator does not allow it', async () => {
    for (const url of [`${base}/a`, `http://localhost:${port}/a`, `http://[::ffff:127.0.0.1]:${port}/a`]) {
      const error = await failureOf(post(url, PUBLIC_ONLY));
      expect(error.failure).toBe('destino_nao_permitido');
    }
    expect(hits).toEqual([]);
    const allowed = await post(`${base}/a`, parseAllowedTargets('127.0.0.1'));
    expect(allowed).toMatchObject({ status: 200, body: 'ok' });
    expect(hits.map((h) => h.path)).toEqual(['/a']);
  });

  it('connects to the address it checked, not to what the name resolves to later', async () => {
    let lookups = 0;
    // The first answer is the allowed receiver; any later one would be a private address elsewhere.
    const resolve = async () =>
      ++lookups === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.9.9.9', family: 4 }];
    const policy = { ...parseAllowedTargets('127.0.0.0/8'), resolve };
    const res = await post(`http://rebind.example:${port}/pinned`, policy);
    expect(res.status).toBe(200);
    expect(lookups).toBe(1);
    expect(hits).toEqual([expect.objectContaining({ path: '/pinned' })]);
    expect(hits[0]!.headers.host).toBe(`rebind.example:${port}`);
  });

  it('follows no redirect', async () => {
    const error = await failureOf(post(`${base}/redirect`, parseAllowedTargets('127.0.0.1')));
    expect(error).toMatchObject({ failure: 'resposta_invalida', transient: false });
    expect(hits.map((h) => h.path)).toEqual(['/redirect']);
  });

  it('gives up at its deadline, reads at most its bound, and classes a refused connection', async () => {
    const policy = parseAllowedTargets('127.0.0.1');
    const slow = await failureOf(post(`${base}/slow`, policy, 200));
    expect(slow).toMatchObject({ failure: 'tempo_esgotado', transient: true });
    const big = await post(`${base}/big`, policy, 1_000, 1_024);
    expect(big.body.length).toBe(1_024);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await failureOf(post(`http://127.0.0.1:${closedPort}/x`, policy));
    expect(refused).toMatchObject({ failure: 'conexao_recusada', transient: true });
    // A 4xx is an answer: the caller judges it.
    await expect(post(`${base}/refuse`, policy)).resolves.toMatchObject({ status: 403 });
  });
});
