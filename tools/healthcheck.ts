/**
 * The container health check: GET /readyz of the service this container runs (OPENQ_SERVICE,
 * else the gateway, as `openq start` with no service serves the gateway's port too), exit 0 when
 * ready. Only node built-ins and a leaf file are imported: it runs every few seconds.
 *
 *   node dist/tools/healthcheck.js [questions|gates|context|gateway] [--path /healthz]
 */
import { request } from 'node:http';
import { SERVICE_PORTS, type OpenqServiceName } from '../libs/platform/src/ports';

export function healthTarget(
  env: NodeJS.ProcessEnv,
  argv: string[],
): { port: number; path: string } | string {
  const pathAt = argv.indexOf('--path');
  const path = pathAt >= 0 ? (argv[pathAt + 1] ?? '/readyz') : '/readyz';
  const named =
    argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--path') ??
    env.OPENQ_SERVICE?.split(',')[0]?.trim() ??
    '';
  const service = (named === '' ? 'gateway' : named) as OpenqServiceName;
  const entry = SERVICE_PORTS[service];
  if (!entry) return `unknown service ${named} (one of ${Object.keys(SERVICE_PORTS).join(', ')})`;
  const raw = env[entry.variable]?.trim();
  const port = raw ? Number(raw) : entry.port;
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return `${entry.variable} is not a port: ${raw}`;
  return { port, path };
}

function check(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, timeout: 2500 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200 ? 0 : 1);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(1));
    req.end();
  });
}

if (require.main === module) {
  const target = healthTarget(process.env, process.argv.slice(2));
  if (typeof target === 'string') {
    process.stderr.write(`healthcheck: ${target}\n`);
    process.exit(2);
  }
  void check(target.port, target.path).then((code) => process.exit(code));
}
