import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { claimsFor, signJwt } from '../testing/sign-jwt';
import { JwtRejected, JwtVerifier, KeysUnavailable } from './jwt-verifier';
import { jwksUrlKeySource, type JwksUrlOptions } from './key-sources';

const NOW_S = 1_800_000_000;
const clock = () => NOW_S * 1000;

const pair = (kid: string) => ({ kid, ...generateKeyPairSync('ec', { namedCurve: 'P-256' }) });
type Pair = ReturnType<typeof pair>;
const jwk = ({ kid, publicKey }: { kid: string; publicKey: KeyObject }) => ({
  ...publicKey.export({ format: 'jwk' }),
  kid,
});
const tokenOf = (key: Pair) =>
  signJwt(claimsFor('u1', { p1: 'viewer' }, NOW_S), {
    alg: 'ES256',
    privateKey: key.privateKey,
    kid: key.kid,
  });

/** A JWKS endpoint on a local port: answers from a script, the last answer repeating. */
async function jwksServer(answers: Array<{ status: number; body?: object }>) {
  let requests = 0;
  const server: Server = createServer((_request, response) => {
    const answer = answers[Math.min(requests, answers.length - 1)]!;
    requests += 1;
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.body ?? { error: 'down' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
    requests: () => requests,
  };
}

const servers: Server[] = [];
let now = 0;

beforeEach(() => {
  now = 0;
  // jose's JWKS cache and cooldown read Date.now(); token times use the verifier's own clock.
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});

afterEach(async () => {
  jest.restoreAllMocks();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const verifierFor = (url: string, options: JwksUrlOptions = {}) =>
  new JwtVerifier(jwksUrlKeySource(url, options), {}, clock);

async function outcome(verifier: JwtVerifier, token: string): Promise<string> {
  try {
    await verifier.verify(token);
    return 'accepted';
  } catch (error) {
    if (error instanceof JwtRejected) return error.problem;
    if (error instanceof KeysUnavailable) return 'unavailable';
    throw error;
  }
}

describe('jwksUrlKeySource', () => {
  it('fetches once, then serves from cache', async () => {
    const a = pair('a');
    const idp = await jwksServer([{ status: 200, body: { keys: [jwk(a)] } }]);
    const verifier = verifierFor(idp.url);
    expect(await outcome(verifier, await tokenOf(a))).toBe('accepted');
    expect(await outcome(verifier, await tokenOf(a))).toBe('accepted');
    expect(idp.requests()).toBe(1);
  });

  it('refetches on an unknown kid, but not more often than minRefetchMs', async () => {
    const [a, b] = [pair('a'), pair('b')];
    const idp = await jwksServer([
      { status: 200, body: { keys: [jwk(a)] } },
      { status: 200, body: { keys: [jwk(a), jwk(b)] } },
    ]);
    const verifier = verifierFor(idp.url, { minRefetchMs: 1000 });
    expect(await outcome(verifier, await tokenOf(a))).toBe('accepted');
    expect(await outcome(verifier, await tokenOf(b))).toBe('signature');
    now = 2000;
    expect(await outcome(verifier, await tokenOf(b))).toBe('accepted');
    expect(idp.requests()).toBe(2);
  });

  it('keeps using stale keys when the provider is away, and says so when it never answered', async () => {
    const a = pair('a');
    const idp = await jwksServer([{ status: 200, body: { keys: [jwk(a)] } }, { status: 503 }]);
    const verifier = verifierFor(idp.url, { maxAgeMs: 10 });
    expect(await outcome(verifier, await tokenOf(a))).toBe('accepted');
    now = 100;
    expect(await outcome(verifier, await tokenOf(a))).toBe('accepted');
    expect(idp.requests()).toBe(2);

    const down = await jwksServer([{ status: 503 }]);
    expect(await outcome(verifierFor(down.url), await tokenOf(a))).toBe('unavailable');
  });

  it('reports a provider nobody listens for as unavailable, not as a bad token', async () => {
    const gone = await jwksServer([{ status: 200, body: { keys: [] } }]);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect(await outcome(verifierFor(gone.url), await tokenOf(pair('a')))).toBe('unavailable');
  });
});
