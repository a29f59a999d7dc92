import { generateKeyPairSync } from 'node:crypto';
import { KeysUnavailable } from './jwt-verifier';
import { jwksUrlKeySource } from './key-sources';

const jwk = (kid: string) => ({
  ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }),
  kid,
});

function fakeFetch(documents: Array<object | Error>) {
  const calls: string[] = [];
  const impl = (async (url: string) => {
    calls.push(url);
    const next = documents.shift();
    if (!next || next instanceof Error) throw next ?? new Error('no more answers');
    return new Response(JSON.stringify(next), { status: 200 });
  }) as unknown as typeof fetch;
  return { impl, calls };
}

describe('jwksUrlKeySource', () => {
  it('fetches once, then serves from cache', async () => {
    const { impl, calls } = fakeFetch([{ keys: [jwk('a')] }]);
    const source = jwksUrlKeySource('https://idp/jwks', { fetchImpl: impl, nowMs: () => 0 });
    expect(await source.keysFor({ alg: 'ES256', kid: 'a' })).toHaveLength(1);
    expect(await source.keysFor({ alg: 'ES256', kid: 'a' })).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });

  it('refetches on an unknown kid, but not more often than minRefetchMs', async () => {
    let now = 0;
    const { impl, calls } = fakeFetch([{ keys: [jwk('a')] }, { keys: [jwk('a'), jwk('b')] }]);
    const source = jwksUrlKeySource('https://idp/jwks', {
      fetchImpl: impl,
      nowMs: () => now,
      minRefetchMs: 1000,
    });
    await source.keysFor({ alg: 'ES256', kid: 'a' });
    expect(await source.keysFor({ alg: 'ES256', kid: 'b' })).toHaveLength(0);
    now = 2000;
    expect(await source.keysFor({ alg: 'ES256', kid: 'b' })).toHaveLength(1);
    expect(calls).toHaveLength(2);
  });

  it('keeps using stale keys when the provider is away, and says so when it never answered', async () => {
    let now = 0;
    const { impl } = fakeFetch([{ keys: [jwk('a')] }, new Error('ECONNREFUSED')]);
    const source = jwksUrlKeySource('https://idp/jwks', { fetchImpl: impl, nowMs: () => now, maxAgeMs: 10 });
    await source.keysFor({ alg: 'ES256', kid: 'a' });
    now = 100;
    expect(await source.keysFor({ alg: 'ES256', kid: 'a' })).toHaveLength(1);

    const down = jwksUrlKeySource('https://idp/jwks', {
      fetchImpl: fakeFetch([new Error('ECONNREFUSED')]).impl,
    });
    await expect(down.keysFor({ alg: 'ES256' })).rejects.toBeInstanceOf(KeysUnavailable);
  });
});
