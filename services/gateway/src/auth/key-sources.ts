import { createPublicKey, createSecretKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from '@openq/platform';
import { KeysUnavailable, type JwsHeader, type JwtAlgorithm, type KeySource } from './jwt-verifier';

/** HS256 with a shared secret (`OPENQ_JWT_SECRET`). */
export function secretKeySource(secret: string): KeySource {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  return { algorithms: ['HS256'], keysFor: async () => [key] };
}

type JsonWebKeyLike = JsonWebKey & { kid?: unknown; use?: unknown; alg?: unknown };

interface VerificationKey {
  kid?: string;
  alg?: string;
  key: KeyObject;
}

const ASYMMETRIC: readonly JwtAlgorithm[] = ['RS256', 'ES256'];

/**
 * Turns a JWKS document into verification keys. Keys that are not for signatures, of another
 * type, or that Node cannot import are skipped (a provider's JWKS often carries other keys too).
 */
export function parseJwks(document: unknown): VerificationKey[] {
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('not a JWKS document (no "keys" array)');
  const usable: VerificationKey[] = [];
  for (const jwk of keys as JsonWebKeyLike[]) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    if (jwk.use !== undefined && jwk.use !== 'sig') continue;
    if (jwk.kty !== 'RSA' && !(jwk.kty === 'EC' && jwk.crv === 'P-256')) continue;
    try {
      const { d: _private, ...publicPart } = jwk;
      const key = createPublicKey({ key: publicPart as JsonWebKey, format: 'jwk' });
      usable.push({
        key,
        ...(typeof jwk.kid === 'string' ? { kid: jwk.kid } : {}),
        ...(typeof jwk.alg === 'string' ? { alg: jwk.alg } : {}),
      });
    } catch {
      // not importable: skipped like any other foreign key
    }
  }
  return usable;
}

function select(keys: VerificationKey[], header: JwsHeader): KeyObject[] {
  return keys
    .filter((k) => (header.kid === undefined ? true : k.kid === header.kid))
    .filter((k) => k.alg === undefined || k.alg === header.alg)
    .map((k) => k.key);
}

/** A JWKS file read once at boot; unreadable or empty → the process refuses to start. */
export function jwksFileKeySource(path: string): KeySource {
  let keys: VerificationKey[];
  try {
    keys = parseJwks(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    throw new ConfigError(
      `OPENQ_JWKS: cannot read a JWKS from ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (keys.length === 0) throw new ConfigError(`OPENQ_JWKS: ${path} holds no RS256/ES256 signing key`);
  return { algorithms: ASYMMETRIC, keysFor: async (header) => select(keys, header) };
}

export interface JwksUrlOptions {
  /** Keys are refreshed after this long. */
  maxAgeMs?: number;
  /** An unknown `kid` triggers a refetch at most this often (key rotation without a hammering). */
  minRefetchMs?: number;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
  nowMs?: () => number;
}

/** A JWKS fetched from an http(s) URL, cached, refreshed on age and on an unknown `kid`. */
export function jwksUrlKeySource(url: string, options: JwksUrlOptions = {}): KeySource {
  const maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
  const minRefetchMs = options.minRefetchMs ?? 30_000;
  const doFetch = options.fetchImpl ?? fetch;
  const now = options.nowMs ?? Date.now;
  let cached: { keys: VerificationKey[]; at: number } | null = null;
  let inFlight: Promise<VerificationKey[]> | null = null;

  const refresh = (): Promise<VerificationKey[]> => {
    inFlight ??= (async () => {
      try {
        const response = await doFetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5000) });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const keys = parseJwks(await response.json());
        cached = { keys, at: now() };
        return keys;
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  };

  return {
    algorithms: ASYMMETRIC,
    keysFor: async (header) => {
      const age = cached ? now() - cached.at : Infinity;
      const unknownKid =
        cached !== null && header.kid !== undefined && !cached.keys.some((k) => k.kid === header.kid);
      if (age > maxAgeMs || (unknownKid && age > minRefetchMs)) {
        try {
          await refresh();
        } catch (error) {
          // A stale key set still verifies tokens while the provider is briefly away.
          if (!cached)
            throw new KeysUnavailable(
              `the JWKS at ${url} could not be fetched: ${error instanceof Error ? error.message : String(error)}`,
            );
        }
      }
      return select(cached?.keys ?? [], header);
    },
  };
}

/** The key source the configuration asks for: a JWKS (file or URL) when set, else the HS256 secret. */
export function keySourceFor(auth: { jwtSecret: string; jwks: string | null }): KeySource {
  if (auth.jwks === null) return secretKeySource(auth.jwtSecret);
  return /^https?:\/\//i.test(auth.jwks) ? jwksUrlKeySource(auth.jwks) : jwksFileKeySource(auth.jwks);
}
