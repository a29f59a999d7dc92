import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@openq/testing';
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
async function jwksServer(answers: Array<{ status: number; body?: object } | 'hang'>) {
  let requests = 0;
  let hanging = 0;
  const server: Server = createServer((_request, response) => {
    const answer = answers[Math.min(requests, answers.length - 1)]!;
    requests += 1;
    if (answer === 'hang') {
      hanging += 1; // never answered: the connection stays open until the server closes
      response.on('close', () => (hanging -= 1));
      return;
    }
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.body ?? { error: 'down' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
    requests: () => requests,
    hanging: () => hanging,
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
  await Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections();
      return new Promise((resolve) => s.close(resolve));
    }),
  );
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
    // The refetch runs in the background (stale-while-revalidate), and fails: the stale set stays.
    await waitFor(() => idp.requests() === 2, { what: 'the background refetch' });
    expect(await outcome(verifier, await tokenOf(a))).toBe('accepted');

    const down = await jwksServer([{ status: 503 }]);
    expect(await outcome(verifierFor(down.url), await tokenOf(a))).toBe('unavailable');
  });

  it('never holds a request up for a hanging provider once it has keys; a new key waits at most 1 s', async () => {
    const [a, b] = [pair('a'), pair('b')];
    const idp = await jwksServer([{ status: 200, body: { keys: [jwk(a)] } }, 'hang']);
    const verifier = verifierFor(idp.url, { maxAgeMs: 10, minRefetchMs: 0, timeoutMs: 60_000 });
    expect(await outcome(verifier, await tokenOf(a))).toBe('accepted');
    now = 100; // the cached set is stale: the next request refetches
    expect(await outcome(verifier, await tokenOf(a))).toBe('accepted');
    // Answered while the provider still holds the refetch open: it did not wait for it.
    await waitFor(() => idp.hanging() === 1, { what: 'the refetch hanging at the provider' });
    expect(await outcome(verifier, await tokenOf(a))).toBe('accepted');
    expect(idp.hanging()).toBe(1);
    // A key the cached set does not hold waits for the provider only briefly, then is refused
    // on the cached set, while the provider still hangs.
    expect(await outcome(verifier, await tokenOf(b))).toBe('signature');
    expect(idp.hanging()).toBe(1);
  });

  it('reports a provider nobody listens for as unavailable, not as a bad token', async () => {
    const gone = await jwksServer([{ status: 200, body: { keys: [] } }]);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect(await outcome(verifierFor(gone.url), await tokenOf(pair('a')))).toBe('unavailable');
  });
});
