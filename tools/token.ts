/**
 * Mints a development user token (HS256 JWT) for the gateway:
 *
 *   node dist/tools/token.js --user u1 --project p1 --role developer [--ttl 8h] [--secret …]
 *
 * The key is `--secret`, else OPENQ_JWT_SECRET, else the development default (refused when
 * NODE_ENV=production). OPENQ_JWT_ISSUER / OPENQ_JWT_AUDIENCE are copied into `iss` / `aud` so
 * the token passes a gateway configured with them. Only node built-ins and a leaf file are
 * imported, so this runs from `dist/` without path-alias resolution.
 */
import { createHmac } from 'node:crypto';
import { parseArgs } from 'node:util';
import { DEV_JWT_SECRET } from '../libs/platform/src/dev-defaults';

export const DEV_TOKEN_ROLES = ['viewer', 'developer', 'maintainer', 'owner'] as const;
export type DevTokenRole = (typeof DEV_TOKEN_ROLES)[number];

export interface DevTokenOptions {
  user: string;
  project: string;
  role: DevTokenRole;
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
  const iat = Math.floor((options.nowMs ?? Date.now()) / 1000);
  const claims = {
    sub: options.user,
    roles: { [options.project]: options.role },
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

/** The CLI: prints the token on stdout; a bad argument prints one line on stderr and exits 2. */
export function main(argv: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): number {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        user: { type: 'string' },
        project: { type: 'string' },
        role: { type: 'string', default: 'developer' },
        ttl: { type: 'string', default: '8h' },
        secret: { type: 'string' },
      },
      strict: true,
    });
    if (!values.user || !values.project)
      throw new Error(
        'usage: token --user <id> --project <id> [--role viewer|developer|maintainer|owner] [--ttl 8h] [--secret s]',
      );
    const secret = values.secret ?? (env.OPENQ_JWT_SECRET?.trim() || undefined);
    if (!secret && env.NODE_ENV === 'production')
      throw new Error(
        'NODE_ENV=production: pass --secret or set OPENQ_JWT_SECRET (the dev secret opens nothing there)',
      );
    const token = mintDevToken({
      user: values.user,
      project: values.project,
      role: values.role as DevTokenRole,
      ttl: values.ttl,
      ...(secret ? { secret } : {}),
      ...(env.OPENQ_JWT_ISSUER ? { issuer: env.OPENQ_JWT_ISSUER } : {}),
      ...(env.OPENQ_JWT_AUDIENCE ? { audience: env.OPENQ_JWT_AUDIENCE } : {}),
    });
    process.stdout.write(`${token}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`token: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}

if (require.main === module) process.exitCode = main();
