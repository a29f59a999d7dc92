import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mintDevToken } from '@openq/platform';
import { DEV_JWT_SECRET } from '@openq/platform';
import { claimsFor, signJwt } from '../testing/sign-jwt';
import { JwtRejected, JwtVerifier, VERIFIED_FOR_MS, type JwtProblem } from './jwt-verifier';
import { jwksFileKeySource, secretKeySource } from './key-sources';

const SECRET = 's'.repeat(40);
const NOW_S = 1_800_000_000;
const clock = () => NOW_S * 1000;
const hs = new JwtVerifier(secretKeySource(SECRET), {}, clock);
const claims = (extra: Record<string, unknown> = {}) => ({
  ...claimsFor('u1', { p1: 'developer' }, NOW_S),
  ...extra,
});

async function problemOf(verifier: JwtVerifier, token: string): Promise<JwtProblem | 'accepted'> {
  try {
    await verifier.verify(token);
    return 'accepted';
  } catch (error) {
    if (error instanceof JwtRejected) return error.problem;
    throw error;
  }
}

function writeJwks(keys: Array<{ key: KeyObject; kid: string; alg?: string }>): string {
  const dir = mkdtempSync(join(tmpdir(), 'openq-jwks-'));
  const path = join(dir, 'jwks.json');
  writeFileSync(
    path,
    JSON.stringify({
      keys: keys.map(({ key, kid, alg }) => ({
        ...key.export({ format: 'jwk' }),
        kid,
        use: 'sig',
        ...(alg ? { alg } : {}),
      })),
    }),
  );
  return path;
}

describe('JwtVerifier (HS256)', () => {
  it('accepts a valid token and keeps only well-formed roles', async () => {
    const token = await signJwt(
      claims({ roles: { p1: 'developer', p2: 'admin', 'bad id': 'owner', constructor: 'viewer' } }),
      { alg: 'HS256', secret: SECRET },
    );
    const identity = await hs.verify(token);
    expect(identity.id).toBe('u1');
    expect([...identity.roles]).toEqual([
      ['p1', 'developer'],
      ['constructor', 'viewer'],
    ]);
  });

  it.each<[string, () => string | Promise<string>, JwtProblem]>([
    ['not three parts', () => 'abc.def', 'malformed'],
    ['a header that is not JSON', () => `${Buffer.from('nope').toString('base64url')}.e30.c2ln`, 'malformed'],
    ['alg none', () => signJwt(claims(), { alg: 'HS256', secret: SECRET }, { alg: 'none' }), 'algorithm'],
    [
      'alg none carrying a valid HS256 signature',
      async () => {
        const [, payload, signature] = (await signJwt(claims(), { alg: 'HS256', secret: SECRET })).split('.');
        return `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.${signature}`;
      },
      'algorithm',
    ],
    ['a wrong signature', () => signJwt(claims(), { alg: 'HS256', secret: 'x'.repeat(40) }), 'signature'],
    [
      'an expired token',
      () => signJwt(claims({ exp: NOW_S - 60 }), { alg: 'HS256', secret: SECRET }),
      'expired',
    ],
    [
      'a token without exp',
      () => signJwt(claims({ exp: undefined }), { alg: 'HS256', secret: SECRET }),
      'claims',
    ],
    [
      'a token not valid yet',
      () => signJwt(claims({ nbf: NOW_S + 600 }), { alg: 'HS256', secret: SECRET }),
      'not_yet_valid',
    ],
    [
      'a sub that is not an id',
      () => signJwt(claims({ sub: 'a/b' }), { alg: 'HS256', secret: SECRET }),
      'claims',
    ],
    [
      'roles that are a list',
      () => signJwt(claims({ roles: ['p1'] }), { alg: 'HS256', secret: SECRET }),
      'claims',
    ],
    [
      'critical headers',
      () => signJwt(claims(), { alg: 'HS256', secret: SECRET }, { crit: ['x-openq'], 'x-openq': 1 }),
      'malformed',
    ],
  ])('refuses %s', async (_what, token, problem) => {
    expect(await problemOf(hs, await token())).toBe(problem);
  });

  it('tolerates a few seconds of clock skew', async () => {
    expect(
      await problemOf(hs, await signJwt(claims({ exp: NOW_S - 3 }), { alg: 'HS256', secret: SECRET })),
    ).toBe('accepted');
  });

  it('checks issuer and audience when configured', async () => {
    const strict = new JwtVerifier(secretKeySource(SECRET), { issuer: 'idp', audience: 'openq' }, clock);
    const key = { alg: 'HS256', secret: SECRET } as const;
    expect(await problemOf(strict, await signJwt(claims({ iss: 'idp', aud: ['x', 'openq'] }), key))).toBe(
      'accepted',
    );
    expect(await problemOf(strict, await signJwt(claims({ iss: 'other', aud: 'openq' }), key))).toBe(
      'issuer',
    );
    expect(await problemOf(strict, await signJwt(claims({ iss: 'idp', aud: 'x' }), key))).toBe('audience');
  });

  it('accepts what the dev token CLI mints', async () => {
    const verifier = new JwtVerifier(secretKeySource(DEV_JWT_SECRET), {}, clock);
    const identity = await verifier.verify(
      mintDevToken({ user: 'u1', project: 'p1', role: 'maintainer', nowMs: clock() }),
    );
    expect(identity.roles.get('p1')).toBe('maintainer');
  });
});

describe('JwtVerifier (JWKS)', () => {
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const path = writeJwks([
    { key: ec.publicKey, kid: 'ec-1', alg: 'ES256' },
    { key: rsa.publicKey, kid: 'rsa-1' },
  ]);
  const jwks = new JwtVerifier(jwksFileKeySource(path), {}, clock);

  it('accepts ES256 and RS256 tokens signed by a listed key', async () => {
    expect(
      await problemOf(
        jwks,
        await signJwt(claims(), { alg: 'ES256', privateKey: ec.privateKey, kid: 'ec-1' }),
      ),
    ).toBe('accepted');
    expect(
      await problemOf(
        jwks,
        await signJwt(claims(), { alg: 'RS256', privateKey: rsa.privateKey, kid: 'rsa-1' }),
      ),
    ).toBe('accepted');
    expect(await problemOf(jwks, await signJwt(claims(), { alg: 'RS256', privateKey: rsa.privateKey }))).toBe(
      'accepted',
    );
  });

  it('refuses a key it does not list, and a kid pointing at another key', async () => {
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(
      await problemOf(
        jwks,
        await signJwt(claims(), { alg: 'ES256', privateKey: stranger.privateKey, kid: 'ec-1' }),
      ),
    ).toBe('signature');
    expect(
      await problemOf(
        jwks,
        await signJwt(claims(), { alg: 'ES256', privateKey: ec.privateKey, kid: 'rsa-1' }),
      ),
    ).toBe('signature');
  });

  it('refuses HS256 when keys come from a JWKS (no algorithm confusion with a public key as secret)', async () => {
    const publicPem = rsa.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    expect(await problemOf(jwks, await signJwt(claims(), { alg: 'HS256', secret: publicPem }))).toBe(
      'algorithm',
    );
  });

  it('tries every key that fits a token without kid', async () => {
    const first = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const second = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const both = new JwtVerifier(
      jwksFileKeySource(
        writeJwks([
          { key: first.publicKey, kid: 'one' },
          { key: second.publicKey, kid: 'two' },
        ]),
      ),
      {},
      clock,
    );
    expect(
      await problemOf(both, await signJwt(claims(), { alg: 'ES256', privateKey: second.privateKey })),
    ).toBe('accepted');
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(
      await problemOf(both, await signJwt(claims(), { alg: 'ES256', privateKey: stranger.privateKey })),
    ).toBe('signature');
  });

  it('keeps only the public part of a JWKS file that also holds private keys', async () => {
    const withPrivate = writeJwks([{ key: ec.privateKey, kid: 'ec-1' }]);
    const verifier = new JwtVerifier(jwksFileKeySource(withPrivate), {}, clock);
    expect(
      await problemOf(
        verifier,
        await signJwt(claims(), { alg: 'ES256', privateKey: ec.privateKey, kid: 'ec-1' }),
      ),
    ).toBe('accepted');
  });

  it('refuses to start on a JWKS file without a signing key', () => {
    const empty = writeJwks([]);
    expect(() => jwksFileKeySource(empty)).toThrow(/OPENQ_JWKS: .* holds no RS256\/ES256 signing key/);
    expect(() => jwksFileKeySource('/nonexistent/jwks.json')).toThrow(/OPENQ_JWKS: cannot read a JWKS/);
  });
});

describe('JwtVerifier: a token verified lately', () => {
  it('stands without another check for a minute, never past its expiry, and only once it verified', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    let nowMs = NOW_S * 1000;
    let lookups = 0;
    const verifier = new JwtVerifier(
      {
        algorithms: ['ES256'],
        jwks: async () => {
          lookups++;
          return ec.publicKey;
        },
      },
      { clockToleranceS: 0 },
      () => nowMs,
    );
    const sign = (extra: Record<string, unknown>) =>
      signJwt(claims(extra), { alg: 'ES256', privateKey: ec.privateKey, kid: 'k' });
    const token = await sign({ exp: NOW_S + 90 });
    expect((await verifier.verify(token)).id).toBe('u1');
    expect((await verifier.verify(token)).id).toBe('u1');
    expect(lookups).toBe(1);
    nowMs += VERIFIED_FOR_MS;
    expect(await problemOf(verifier, token)).toBe('accepted');
    expect(lookups).toBe(2); // a minute on: checked again
    nowMs = (NOW_S + 90) * 1000;
    expect(await problemOf(verifier, token)).toBe('expired'); // kept, but not past its expiry
    // A token that did not verify is checked every time it comes.
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const forged = await signJwt(claims({ exp: NOW_S + 3600 }), {
      alg: 'ES256',
      privateKey: stranger.privateKey,
      kid: 'k',
    });
    nowMs = NOW_S * 1000;
    const before = lookups;
    expect(await problemOf(verifier, forged)).toBe('signature');
    expect(await problemOf(verifier, forged)).toBe('signature');
    expect(lookups).toBe(before + 2);
  });
});
