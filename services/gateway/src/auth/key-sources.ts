import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type JSONWebKeySet,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import { ConfigError } from '@openq/platform';
import { KeysUnavailable, type JwtAlgorithm, type KeySource } from './jwt-verifier';

const ASYMMETRIC: readonly JwtAlgorithm[] = ['RS256', 'ES256'];

/** HS256 with a shared secret (`OPENQ_JWT_SECRET`). */
export function secretKeySource(secret: string): KeySource {
  return { algorithms: ['HS256'], secret: new TextEncoder().encode(secret) };
}

/** Members of a JWK that make it private; a verification set keeps only the public part. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'] as const;

/**
 * The RS256/ES256 signing keys of a JWKS document, public parts only. Keys that are not for
 * signatures, of another type, or that Node cannot import are left out (a provider's JWKS often
 * carries other keys too); jose then selects among these by `kid`, `alg`, `kty` and curve.
 */
export function signingKeysOf(document: unknown): JSONWebKeySet {
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('not a JWKS document (no "keys" array)');
  const usable: JWK[] = [];
  for (const jwk of keys as unknown[]) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    const publicPart: Record<string, unknown> = { ...jwk };
    for (const member of PRIVATE_MEMBERS) delete publicPart[member];
    if (publicPart.use !== undefined && publicPart.use !== 'sig') continue;
    if (publicPart.kty !== 'RSA' && !(publicPart.kty === 'EC' && publicPart.crv === 'P-256')) continue;
    try {
      createPublicKey({ key: publicPart as JsonWebKey, format: 'jwk' });
    } catch {
      continue; // not importable: skipped like any other foreign key
    }
    usable.push(publicPart as unknown as JWK);
  }
  return { keys: usable };
}

/** A JWKS file read once at boot; unreadable or without a signing key → the process refuses to start. */
export function jwksFileKeySource(path: string): KeySource {
  let jwks: JSONWebKeySet;
  try {
    jwks = signingKeysOf(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    throw new ConfigError(
      `OPENQ_JWKS: cannot read a JWKS from ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (jwks.keys.length === 0) throw new ConfigError(`OPENQ_JWKS: ${path} holds no RS256/ES256 signing key`);
  return { algorithms: ASYMMETRIC, jwks: createLocalJWKSet(jwks) };
}

export interface JwksUrlOptions {
  /** Keys are refetched once they are this old (jose `cacheMaxAge`; default 10 min). */
  maxAgeMs?: number;
  /** An unknown `kid` triggers a refetch at most this often (jose `cooldownDuration`; default 30 s). */
  minRefetchMs?: number;
  /** The HTTP request's timeout (jose `timeoutDuration`; default 5 s). */
  timeoutMs?: number;
}

/** Errors of fetching the key set (as opposed to selecting a key in it). */
function isFetchFailure(error: unknown): boolean {
  if (!(error instanceof errors.JOSEError)) return true; // network: refused, reset, DNS, …
  return (
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    error.code === errors.JOSEError.code // non-200 answer, or not JSON
  );
}

/**
 * A JWKS fetched from an http(s) URL by jose's `createRemoteJWKSet`: cached, refetched on age and
 * on an unknown `kid` (with a cooldown). Once the cached set is older than `maxAgeMs`, a token whose
 * key it still holds is verified with it at once while the set is refetched in the background
 * (stale-while-revalidate): a provider that is slow, hanging or away never holds a request up,
 * and a rotation still lands within one fetch. A token the cached set cannot verify (a new key)
 * waits for the fetch, at most 1 s, then is judged on the cached set (401). If the provider never
 * answered: `KeysUnavailable` (503).
 */
export function jwksUrlKeySource(url: string, options: JwksUrlOptions = {}): KeySource {
  const remote = createRemoteJWKSet(new URL(url), {
    cacheMaxAge: options.maxAgeMs ?? 10 * 60_000,
    cooldownDuration: options.minRefetchMs ?? 30_000,
    timeoutDuration: options.timeoutMs ?? 5000,
  });
  const unknownKeyWaitMs = Math.min(options.timeoutMs ?? 5000, 1000);
  const refreshInBackground = (): void => {
    if (!remote.reloading) void remote.reload().catch(() => undefined); // the stale set stays
  };
  const jwks: JWTVerifyGetKey = async (header, token) => {
    const cached = remote.jwks();
    if (cached && !remote.fresh) {
      refreshInBackground();
      try {
        return await createLocalJWKSet(cached)(header, token);
      } catch {
        // not in the stale set (a new key): wait for the fetch below
      }
    }
    try {
      // With keys in hand, a kid they lack waits for the provider only briefly: a rotation's new key
      // arrives in that time, while a hanging provider (or a flood of made-up kids) holds nobody up.
      return cached ? await withinMs(remote(header, token), unknownKeyWaitMs) : await remote(header, token);
    } catch (error) {
      if (error instanceof StillFetching) return createLocalJWKSet(cached!)(header, token);
      if (!isFetchFailure(error)) throw error;
      const stale = remote.jwks();
      if (stale) return createLocalJWKSet(stale)(header, token);
      throw new KeysUnavailable(
        `the JWKS at ${url} could not be fetched: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  return { algorithms: ASYMMETRIC, jwks };
}

class StillFetching extends Error {}

/** `work`'s result, or `StillFetching` once `ms` have passed (the work goes on; its result is dropped). */
async function withinMs<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StillFetching()), ms);
  });
  work.catch(() => undefined); // a failure after the deadline is nobody's to handle
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The key source the configuration asks for: a JWKS (file or URL) when set, else the HS256 secret. */
export function keySourceFor(auth: {
  jwtSecret: string;
  jwks: string | null;
  jwksCacheMs?: number;
  jwksRefetchMs?: number;
  jwksTimeoutMs?: number;
}): KeySource {
  if (auth.jwks === null) return secretKeySource(auth.jwtSecret);
  return /^https?:\/\//i.test(auth.jwks)
    ? jwksUrlKeySource(auth.jwks, {
        maxAgeMs: auth.jwksCacheMs,
        minRefetchMs: auth.jwksRefetchMs,
        timeoutMs: auth.jwksTimeoutMs,
      })
    : jwksFileKeySource(auth.jwks);
}
