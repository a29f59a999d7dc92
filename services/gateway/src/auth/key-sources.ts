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
 * on an unknown `kid` (with a cooldown). While the provider is briefly away the last key set it
 * gave still verifies tokens; if it never answered, `KeysUnavailable` (503).
 */
export function jwksUrlKeySource(url: string, options: JwksUrlOptions = {}): KeySource {
  const remote = createRemoteJWKSet(new URL(url), {
    cacheMaxAge: options.maxAgeMs ?? 10 * 60_000,
    cooldownDuration: options.minRefetchMs ?? 30_000,
    timeoutDuration: options.timeoutMs ?? 5000,
  });
  const jwks: JWTVerifyGetKey = async (header, token) => {
    try {
      return await remote(header, token);
    } catch (error) {
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

/** The key source the configuration asks for: a JWKS (file or URL) when set, else the HS256 secret. */
export function keySourceFor(auth: { jwtSecret: string; jwks: string | null }): KeySource {
  if (auth.jwks === null) return secretKeySource(auth.jwtSecret);
  return /^https?:\/\//i.test(auth.jwks) ? jwksUrlKeySource(auth.jwks) : jwksFileKeySource(auth.jwks);
}
