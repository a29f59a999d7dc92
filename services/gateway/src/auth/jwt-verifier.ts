import { createHmac, timingSafeEqual, verify as verifySignature, type KeyObject } from 'node:crypto';
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

export interface JwsHeader {
  alg: string;
  kid?: string;
}

/** Where verification keys come from: an HS256 secret, or a JWKS (RS256/ES256). */
export interface KeySource {
  readonly algorithms: readonly JwtAlgorithm[];
  keysFor(header: JwsHeader): Promise<KeyObject[]>;
}

export interface JwtExpectations {
  issuer?: string | null;
  audience?: string | null;
  /** Allowed clock skew between the token issuer and us. */
  clockToleranceS?: number;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Verifies compact JWS user tokens (SPEC §2) with node:crypto: the algorithm must be one the key
 * source allows (never `none`, never HS256 against a JWKS), the signature must match, `exp` is
 * required, `nbf`/`iss`/`aud` are checked when present or configured, and `sub` must be an id.
 *
 * [openq] jose 6 would do the same, but it is ESM-only and cannot be loaded by this workspace's
 * CommonJS build and jest on Node 20; this class keeps the surface small enough to read in full.
 */
export class JwtVerifier {
  constructor(
    private readonly keys: KeySource,
    private readonly expect: JwtExpectations = {},
    private readonly nowMs: () => number = Date.now,
  ) {}

  async verify(token: string): Promise<UserIdentity> {
    const parts = token.split('.');
    if (parts.length !== 3 || !parts.every((p) => BASE64URL.test(p)))
      throw new JwtRejected('malformed', 'the token is not a compact JWS');
    const [h, p, s] = parts as [string, string, string];
    const header = decodeJson(h, 'header');
    const payload = decodeJson(p, 'payload');
    const alg = header.alg;
    if (typeof alg !== 'string' || !(this.keys.algorithms as readonly string[]).includes(alg)) {
      throw new JwtRejected('algorithm', `the token algorithm ${JSON.stringify(alg)} is not accepted`);
    }
    if (header.crit !== undefined)
      throw new JwtRejected('malformed', 'the token has critical header parameters');
    const kid = typeof header.kid === 'string' ? header.kid : undefined;
    const candidates = await this.keys.keysFor({ alg, ...(kid !== undefined ? { kid } : {}) });
    const signed = Buffer.from(`${h}.${p}`, 'ascii');
    const signature = Buffer.from(s, 'base64url');
    if (!candidates.some((key) => signatureMatches(alg as JwtAlgorithm, key, signed, signature))) {
      throw new JwtRejected('signature', 'the token signature does not verify');
    }
    this.checkTime(payload);
    this.checkIssuerAndAudience(payload);
    return identityOf(payload);
  }

  private checkTime(payload: Record<string, unknown>): void {
    const now = this.nowMs() / 1000;
    const tolerance = this.expect.clockToleranceS ?? 5;
    if (typeof payload.exp !== 'number') throw new JwtRejected('claims', 'the token has no expiry (exp)');
    if (now > payload.exp + tolerance) throw new JwtRejected('expired', 'the token has expired');
    if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || now < payload.nbf - tolerance)) {
      throw new JwtRejected('not_yet_valid', 'the token is not valid yet');
    }
  }

  private checkIssuerAndAudience(payload: Record<string, unknown>): void {
    const { issuer, audience } = this.expect;
    if (issuer && payload.iss !== issuer)
      throw new JwtRejected('issuer', 'the token was issued by someone else');
    if (audience) {
      const aud = payload.aud;
      const ok = aud === audience || (Array.isArray(aud) && aud.includes(audience));
      if (!ok) throw new JwtRejected('audience', 'the token is meant for another audience');
    }
  }
}

function decodeJson(part: string, what: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // falls through to the refusal below
  }
  throw new JwtRejected('malformed', `the token ${what} is not a JSON object`);
}

function signatureMatches(alg: JwtAlgorithm, key: KeyObject, signed: Buffer, signature: Buffer): boolean {
  try {
    switch (alg) {
      case 'HS256': {
        if (key.type !== 'secret') return false;
        const expected = createHmac('sha256', key).update(signed).digest();
        return expected.length === signature.length && timingSafeEqual(expected, signature);
      }
      case 'RS256':
        if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048)
          return false;
        return verifySignature('sha256', signed, key, signature);
      case 'ES256':
        if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
          return false;
        return (
          signature.length === 64 &&
          verifySignature('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, signature)
        );
      default: {
        const never: never = alg;
        return never;
      }
    }
  } catch {
    return false;
  }
}

function identityOf(payload: Record<string, unknown>): UserIdentity {
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
