import { createSecretKey, type KeyObject } from 'node:crypto';
import {
  errors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
  type KeyLike,
} from 'jose';
import { LRUCache } from 'lru-cache';
import { isId } from '@openq/contracts';
import { isRole, type Role, type UserIdentity } from './roles';

/** Why a token was refused; all of them answer 401 `nao_autenticado`. */
export type JwtProblem =
  'malformed' | 'algorithm' | 'signature' | 'expired' | 'not_yet_valid' | 'issuer' | 'audience' | 'claims';

export class JwtRejected extends Error {
  constructor(
    readonly problem: JwtProblem,
    message: string,
  ) {
    super(message);
    this.name = 'JwtRejected';
  }
}

/** The key set could not be obtained (a JWKS URL that does not answer): 503, not the caller's fault. */
export class KeysUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeysUnavailable';
  }
}

export type JwtAlgorithm = 'HS256' | 'RS256' | 'ES256';

/**
 * Where verification keys come from: an HS256 secret (bytes), or a JWKS key-lookup function
 * (`createLocalJWKSet` / `createRemoteJWKSet`) for RS256/ES256. `algorithms` is the allow-list
 * handed to jose: never `none`, never HS256 next to a JWKS (no algorithm confusion).
 */
export type KeySource =
  | { readonly algorithms: readonly ['HS256']; readonly secret: Uint8Array }
  | { readonly algorithms: readonly JwtAlgorithm[]; readonly jwks: JWTVerifyGetKey };

export interface JwtExpectations {
  issuer?: string | null;
  audience?: string | null;
  /** Allowed clock skew between the token issuer and us. */
  clockToleranceS?: number;
}

/**
 * Verifies user tokens (SPEC §2) with jose's `jwtVerify`: the algorithm must be one the key source
 * allows, the signature must match, `exp` is required, `nbf`/`iss`/`aud` are checked when present
 * or configured (5 s of clock skew by default). What jose does not know is ours: `sub` must be an
 * id and `roles` an object. jose's errors become `JwtRejected` with a `JwtProblem`.
 */
export class JwtVerifier {
  /**
   * The keys as jose takes them: an HS256 secret as a key object made once (given bytes, jose makes
   * one on every call).
   */
  private readonly key: { readonly secret: KeyObject } | { readonly jwks: JWTVerifyGetKey };
  /**
   * Tokens verified lately, by their text, and until when each stands without another check: every
   * request of a session carries the same token, and its signature and claims are checked once per
   * `VERIFIED_FOR_MS` instead of once per request (docs/decisions.md, "A token verified lately").
   * Never past the token's expiry; only a token that verified is kept.
   */
  private readonly verified = new LRUCache<string, { identity: UserIdentity; untilMs: number }>({
    max: VERIFIED_TOKENS,
  });

  constructor(
    private readonly keys: KeySource,
    private readonly expect: JwtExpectations = {},
    private readonly nowMs: () => number = Date.now,
  ) {
    this.key = 'secret' in keys ? { secret: createSecretKey(keys.secret) } : { jwks: keys.jwks };
  }

  async verify(token: string): Promise<UserIdentity> {
    const nowMs = this.nowMs();
    const kept = this.verified.get(token);
    if (kept && nowMs < kept.untilMs) return kept.identity;
    const toleranceS = this.expect.clockToleranceS ?? 5;
    const options: JWTVerifyOptions = {
      algorithms: [...this.keys.algorithms],
      requiredClaims: ['exp'],
      clockTolerance: toleranceS,
      currentDate: new Date(nowMs),
      ...(this.expect.issuer ? { issuer: this.expect.issuer } : {}),
      ...(this.expect.audience ? { audience: this.expect.audience } : {}),
    };
    let payload: JWTPayload;
    try {
      payload = await this.verifyWithJose(token, options);
    } catch (error) {
      throw asRejection(error);
    }
    const identity = identityOf(payload);
    // jose required `exp`, a number: the token stands until then (and its tolerance), no longer.
    const expiresMs = ((payload.exp as number) + toleranceS) * 1000;
    this.verified.set(token, { identity, untilMs: Math.min(nowMs + VERIFIED_FOR_MS, expiresMs) });
    return identity;
  }

  private async verifyWithJose(token: string, options: JWTVerifyOptions): Promise<JWTPayload> {
    if ('secret' in this.key) return (await jwtVerify(token, this.key.secret, options)).payload;
    try {
      return (await jwtVerify(token, this.key.jwks, options)).payload;
    } catch (error) {
      // A JWKS may list several keys that fit the header (no `kid`): jose hands them over to try.
      if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
      for await (const candidate of error as unknown as AsyncIterable<KeyLike>) {
        try {
          return (await jwtVerify(token, candidate, options)).payload;
        } catch (inner) {
          if (!(inner instanceof errors.JWSSignatureVerificationFailed)) throw inner;
        }
      }
      throw new errors.JWSSignatureVerificationFailed();
    }
  }
}

/**
 * How long a verified token stands without another check: a key taken out of a JWKS still admits
 * the tokens it signed for at most this long (as a JWKS fetched a moment earlier would).
 */
export const VERIFIED_FOR_MS = 60_000;
/** Tokens kept at most (~5 MB of tokens and identities). */
const VERIFIED_TOKENS = 10_000;

/** jose's refusal → ours. Anything unrecognised refuses too (a key jose will not use, say). */
function asRejection(error: unknown): Error {
  if (error instanceof JwtRejected || error instanceof KeysUnavailable) return error;
  const reject = (problem: JwtProblem, message: string) => new JwtRejected(problem, message);
  if (error instanceof errors.JWTExpired) return reject('expired', 'the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'nbf':
        return reject('not_yet_valid', 'the token is not valid yet');
      case 'iss':
        return reject('issuer', 'the token was issued by someone else');
      case 'aud':
        return reject('audience', 'the token is meant for another audience');
      case 'exp':
        return reject(
          'claims',
          error.reason === 'missing'
            ? 'the token has no expiry (exp)'
            : 'the token expiry (exp) is not a number',
        );
      default:
        return reject('claims', 'the token claims are invalid');
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return reject('algorithm', 'the token algorithm is not accepted');
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey)
    return reject('signature', 'the token signature does not verify');
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSENotSupported
  )
    return reject('malformed', 'the token is not a well-formed JWT');
  return reject('signature', 'the token signature does not verify');
}

function identityOf(payload: JWTPayload): UserIdentity {
  if (!isId(payload.sub)) throw new JwtRejected('claims', 'the token subject (sub) is not a user id');
  const roles = new Map<string, Role>();
  const claimed = payload.roles;
  if (claimed !== undefined && (typeof claimed !== 'object' || claimed === null || Array.isArray(claimed))) {
    throw new JwtRejected('claims', 'the token roles claim is not an object');
  }
  for (const [projectId, role] of Object.entries((claimed ?? {}) as Record<string, unknown>)) {
    // Unknown role words or odd project keys grant nothing; they do not void the whole token.
    if (isId(projectId) && isRole(role)) roles.set(projectId, role);
  }
  return { id: payload.sub, roles };
}
