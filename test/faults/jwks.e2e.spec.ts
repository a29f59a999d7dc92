import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@openq/testing';
import { claimsFor, signJwt } from '../../services/gateway/src/testing/sign-jwt';
import { Stack } from '../support/stack';

/**
 * The gateway against a real JWKS endpoint that rotates, disappears and hangs (issue #19 item 6):
 * overlapping keys during a rotation, cached keys kept while the provider is unreachable, no
 * request held up by a hanging provider, and a removed key refused once the set is refetched.
 */
type Mode = 'serve' | 'hang' | 'fail';
const pair = (kid: string) => ({ kid, ...generateKeyPairSync('ec', { namedCurve: 'P-256' }) });
type Pair = ReturnType<typeof pair>;
const jwk = ({ kid, publicKey }: { kid: string; publicKey: KeyObject }) => ({
  ...publicKey.export({ format: 'jwk' }),
  kid,
  use: 'sig',
  alg: 'ES256',
});

const [oldKey, newKey, strayKey] = [pair('2026-old'), pair('2026-new'), pair('never-listed')];
let listed: Pair[] = [oldKey];
let mode: Mode = 'serve';
let fetches = 0;
const hung: ServerResponse[] = [];
let idp: Server;
let stack: Stack;

beforeAll(async () => {
  idp = createServer((_request, response) => {
    fetches++;
    if (mode === 'hang') {
      hung.push(response);
      return;
    }
    if (mode === 'fail') {
      response.writeHead(503).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ keys: listed.map(jwk) }));
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  stack = await Stack.start({
    services: ['questions'],
    env: {
      OPENQ_JWKS: `http://127.0.0.1:${(idp.address() as AddressInfo).port}/jwks.json`,
      OPENQ_JWKS_CACHE_MS: '1000',
      OPENQ_JWKS_REFETCH_MS: '0',
      OPENQ_JWKS_TIMEOUT_MS: '30000',
    },
  });
});

afterAll(async () => {
  await stack?.stop();
  idp.closeAllConnections();
  await new Promise((resolve) => idp.close(resolve));
});

const tokenOf = (key: Pair) =>
  signJwt(claimsFor('ana', { jw: 'viewer' }), { alg: 'ES256', privateKey: key.privateKey, kid: key.kid });
const count = async (key: Pair) =>
  (
    await fetch(`${stack.baseUrl}/projects/jw/open-questions/count`, {
      headers: { authorization: `Bearer ${await tokenOf(key)}` },
    })
  ).status;

it('accepts both keys while a rotation overlaps, and a key never listed not at all', async () => {
  expect(await count(oldKey)).toBe(200);
  listed = [oldKey, newKey];
  // An unknown kid refetches the set at once (cooldown 0 here): the new key is honoured.
  expect(await count(newKey)).toBe(200);
  expect(await count(oldKey)).toBe(200);
  expect(await count(strayKey)).toBe(401);
});

it('refuses the removed key once the set is refetched, and keeps the new one', async () => {
  listed = [newKey];
  const before = fetches;
  // The cached set ages out (1 s); the next request refetches in the background.
  await waitFor(async () => (await count(oldKey)) === 401 && fetches > before, {
    what: 'the removed key refused',
    timeoutMs: 20_000,
  });
  expect(await count(newKey)).toBe(200);
});

it('keeps verifying with the cached keys while the provider hangs, without waiting for it', async () => {
  mode = 'hang';
  const before = fetches;
  // Past the cache age a refetch starts and hangs at the provider; requests keep being answered.
  await waitFor(async () => (await count(newKey)) === 200 && hung.length > 0 && fetches > before, {
    what: 'a refetch hanging while requests are answered',
    timeoutMs: 20_000,
  });
  expect(await count(newKey)).toBe(200);
  // Still hanging: the answers above did not wait for it.
  expect(hung.some((r) => !r.writableEnded)).toBe(true);
  expect(await count(oldKey)).not.toBe(200);
});

it('keeps verifying when the provider answers errors, and refetches again later', async () => {
  mode = 'fail';
  for (const r of hung.splice(0)) r.destroy();
  const before = fetches;
  // Past the cache age a refetch gets 503: the cached set stays and keeps verifying.
  await waitFor(async () => (await count(newKey)) === 200 && fetches > before, {
    what: 'a failed refetch while requests are answered',
    timeoutMs: 20_000,
  });
  expect(await count(newKey)).toBe(200);
  mode = 'serve';
  listed = [oldKey];
  // The provider back, with the old key reinstated: the next refetch picks it up.
  await waitFor(async () => (await count(oldKey)) === 200, { what: 'the set refetched', timeoutMs: 20_000 });
});
