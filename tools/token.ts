/**
 * `openq token`: prints a development user token (HS256 JWT) for the gateway:
 *
 *   node dist/tools/cli.js token --user u1 --project p1 --role developer [--ttl 8h] [--secret …]
 *
 * The key is `--secret`, else OPENQ_JWT_SECRET, else the development default (refused when
 * NODE_ENV=production). OPENQ_JWT_ISSUER / OPENQ_JWT_AUDIENCE are copied into `iss` / `aud` so
 * the token passes a gateway configured with them.
 */
import { parseArgs } from 'node:util';
import { mintDevToken, type DevTokenRole } from '@openq/platform';

export {
  DEV_TOKEN_ROLES,
  mintDevToken,
  parseTtl,
  type DevTokenOptions,
  type DevTokenRole,
} from '@openq/platform';

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
