/**
 * Mints development user tokens (HS256 JWT): one way to make them, used by `openq token`, the
 * gateway's dev sign-in, the demo and the tests. Verification is the gateway's, with jose.
 */
import { createHmac } from 'node:crypto';
import { DEV_JWT_SECRET } from './dev-defaults';

export const DEV_TOKEN_ROLES = ['viewer', 'developer', 'maintainer', 'owner'] as const;
export type DevTokenRole = (typeof DEV_TOKEN_ROLES)[number];

export interface DevTokenOptions {
  user: string;
  project: string;
  role: DevTokenRole;
  /** [openq] roles on further projects, in the same `roles` claim (a person on several projects). */
  moreRoles?: Readonly<Record<string, DevTokenRole>>;
  /** HS256 key; defaults to the development secret. */
  secret?: string;
  /** Lifetime: seconds, or `30m`, `8h`, `7d`. Default 8h. */
  ttl?: string | number;
  issuer?: string;
  audience?: string;
  /** Clock, for tests. */
  nowMs?: number;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Seconds in `30`, `30s`, `15m`, `8h`, `7d`. */
export function parseTtl(ttl: string | number): number {
  if (typeof ttl === 'number' && Number.isInteger(ttl) && ttl > 0) return ttl;
  const match = /^(\d+)([smhd]?)$/.exec(String(ttl).trim());
  const seconds = match
    ? Number(match[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as '' | 's' | 'm' | 'h' | 'd']
    : NaN;
  if (!Number.isInteger(seconds) || seconds <= 0)
    throw new Error(`--ttl must be like 3600, 30m, 8h or 7d (got ${JSON.stringify(ttl)})`);
  return seconds;
}

const b64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

/**
 * A signed HS256 JWT with `sub`, `roles: { [project]: role }`, `iat` and `exp` (SPEC §2).
 *
 * [openq] Minting stays a synchronous HMAC with node:crypto on purpose: jose's signing is async,
 * and callers (the CLI, the test stack's `token()`) want a plain string. Minting a dev token is
 * not security-critical; everything that VERIFIES a token goes through jose (gateway `JwtVerifier`),
 * and a test proves the gateway accepts what this mints.
 */
export function mintDevToken(options: DevTokenOptions): string {
  if (!ID.test(options.user)) throw new Error('--user must be an id matching ^[A-Za-z0-9_-]{1,64}$');
  if (!ID.test(options.project)) throw new Error('--project must be an id matching ^[A-Za-z0-9_-]{1,64}$');
  if (!(DEV_TOKEN_ROLES as readonly string[]).includes(options.role))
    throw new Error(`--role must be one of: ${DEV_TOKEN_ROLES.join(', ')}`);
  for (const [project, role] of Object.entries(options.moreRoles ?? {}))
    if (!ID.test(project) || !(DEV_TOKEN_ROLES as readonly string[]).includes(role))
      throw new Error(`a further role must be one of: ${DEV_TOKEN_ROLES.join(', ')} on a project id`);
  const iat = Math.floor((options.nowMs ?? Date.now()) / 1000);
  const claims = {
    sub: options.user,
    roles: { ...options.moreRoles, [options.project]: options.role },
    iat,
    exp: iat + parseTtl(options.ttl ?? '8h'),
    ...(options.issuer ? { iss: options.issuer } : {}),
    ...(options.audience ? { aud: options.audience } : {}),
  };
  const signingInput = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  const signature = createHmac('sha256', options.secret ?? DEV_JWT_SECRET)
    .update(signingInput)
    .digest();
  return `${signingInput}.${b64url(signature)}`;
}
