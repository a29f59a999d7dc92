import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenqEnv, SERVICE_PORTS, type OpenqServiceName } from '@openq/platform';
import { SCRAPE_JOB } from '../tools/monitoring/alerts';
import { DEPLOY_DIR, readYaml, type Doc } from './manifests';
import { GatewayEnv } from '../services/gateway/src/config';
import { NotifierEnv } from '../services/notifier/src/notifier-config';

/*
 * There is no Docker engine here: the compose file and the Dockerfile are checked for structure
 * (what `docker compose config` and a reviewer would look at), not run.
 */

const compose = readYaml(join(DEPLOY_DIR, 'compose.yaml'));
const services = compose.services as Record<string, Doc>;
const volumes = compose.volumes as Record<string, unknown>;
const dockerfile = readFileSync(join(DEPLOY_DIR, 'Dockerfile'), 'utf8');
const OPENQ = Object.keys(SERVICE_PORTS) as OpenqServiceName[];
const KNOWN_VARIABLES = new Set([
  ...Object.keys(new OpenqEnv()),
  ...Object.keys(new GatewayEnv()),
  ...Object.keys(new NotifierEnv()),
  'OPENQ_SERVICE',
  'NODE_OPTIONS',
]);
const SECRETS = [
  'OPENQ_JWT_SECRET',
  'OPENQ_SERVICE_TOKEN',
  'OPENQ_LINK_SECRET',
  'POSTGRES_PASSWORD',
  'GRAFANA_ADMIN_PASSWORD',
];

function namedVolumeAt(service: Doc, target: string): string | undefined {
  for (const v of (service.volumes as string[]) ?? []) {
    const [source, path] = v.split(':');
    if (path === target && source && source in volumes) return source;
  }
  return undefined;
}

describe('deploy/compose.yaml', () => {
  it('runs NATS with JetStream on a named volume', () => {
    const nats = services.nats!;
    expect(nats.image).toMatch(/^nats:2\.\d+/);
    const command = nats.command as string[];
    expect(command).toContain('--jetstream');
    const storeDir = command[command.indexOf('--store_dir') + 1]!;
    expect(namedVolumeAt(nats, storeDir)).toBe('nats-data');
    expect(JSON.stringify(nats.healthcheck.test)).toContain('/healthz');
  });

  it('runs PostgreSQL 15 on a named volume, with its password from the environment', () => {
    const postgres = services.postgres!;
    expect(postgres.image).toMatch(/^postgres:15\b/);
    expect(namedVolumeAt(postgres, '/var/lib/postgresql/data')).toBe('postgres-data');
    expect(postgres.environment.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(postgres.healthcheck.test).toContain('pg_isready');
  });

  it.each(OPENQ)(
    '%s runs from the one image, checks /readyz on its port, and waits for healthy NATS and PostgreSQL',
    (name) => {
      const service = services[name]!;
      expect(service.build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' });
      expect(service.image).toBe(services.questions!.image);
      expect(service.command).toEqual(['node', 'dist/tools/cli.js', 'start', name]);
      expect(service.healthcheck.test).toEqual(['CMD', 'node', 'dist/tools/healthcheck.js', name]);
      expect(service.environment[SERVICE_PORTS[name].variable]).toBe(String(SERVICE_PORTS[name].port));
      expect(service.environment).toMatchObject({
        NODE_ENV: 'production',
        NATS_URL: 'nats://nats:4222',
        OPENQ_SERVICE: name,
      });
      expect(service.environment.DATABASE_URL).toMatch(
        /^postgres:\/\/openq:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/openq$/,
      );
      expect(service.depends_on).toEqual({
        nats: { condition: 'service_healthy' },
        postgres: { condition: 'service_healthy' },
      });
      for (const key of Object.keys(service.environment)) expect(KNOWN_VARIABLES).toContain(key);
    },
  );

  it('publishes only the gateway (and Grafana on the loopback), and takes its secrets from the environment (required), never literals', () => {
    for (const name of Object.keys(services))
      expect(Boolean(services[name]!.ports)).toBe(name === 'gateway' || name === 'grafana');
    expect(services.grafana!.ports).toEqual(['127.0.0.1:${GRAFANA_PORT:-3001}:3000']);
    expect(services.grafana!.environment.GF_SECURITY_ADMIN_PASSWORD).toMatch(
      /^\$\{GRAFANA_ADMIN_PASSWORD:\?/,
    );
    const env = services.gateway!.environment as Record<string, string>;
    for (const secret of ['OPENQ_JWT_SECRET', 'OPENQ_SERVICE_TOKEN', 'OPENQ_LINK_SECRET'])
      expect(env[secret]).toMatch(new RegExp(`^\\$\\{${secret}:\\?`));
    expect(env.OPENQ_SERVICE_TOKEN_PREVIOUS).toBe('${OPENQ_SERVICE_TOKEN_PREVIOUS:-}');
    expect(env.OPENQ_LINK_SECRET_PREVIOUS).toBe('${OPENQ_LINK_SECRET_PREVIOUS:-}');
    // Issue #27: nothing in front of the published port by default; an operator names their proxy.
    expect(env.GATEWAY_TRUSTED_PROXIES).toBe('${GATEWAY_TRUSTED_PROXIES:-}');
    for (const name of ['questions', 'gates', 'context'])
      expect(Object.keys(services[name]!.environment)).not.toContain('OPENQ_JWT_SECRET');
  });

  it('declares the named volumes and an example env file with placeholders only', () => {
    expect(Object.keys(volumes).sort()).toEqual([
      'grafana-data',
      'nats-data',
      'postgres-data',
      'prometheus-data',
    ]);
    const example = readFileSync(join(DEPLOY_DIR, '.env.example'), 'utf8');
    for (const secret of SECRETS) expect(example).toMatch(new RegExp(`^${secret}=replace-me`, 'm'));
    expect(readFileSync(join(DEPLOY_DIR, '..', '.gitignore'), 'utf8')).toMatch(/^deploy\/\.env$/m);
  });
});

describe('deploy/compose.yaml: Prometheus and Grafana', () => {
  const prometheusConfig = readYaml(join(DEPLOY_DIR, 'prometheus', 'prometheus.yml'));
  const mounts = (service: string) =>
    Object.fromEntries(
      ((services[service]!.volumes as string[]) ?? []).map((v) => {
        const [source, target] = v.split(':');
        return [target!, source!];
      }),
    );

  it('scrapes every replica of the four services at its port, as the job the alert rules expect', () => {
    const [job] = prometheusConfig.scrape_configs as Doc[];
    expect(prometheusConfig.scrape_configs).toHaveLength(1);
    expect(job!.job_name).toBe(SCRAPE_JOB);
    const discovered = Object.fromEntries(
      (job!.dns_sd_configs as Doc[]).map((d) => [d.names[0] as string, d.port as number]),
    );
    expect(discovered).toEqual(Object.fromEntries(OPENQ.map((name) => [name, SERVICE_PORTS[name].port])));
  });

  it('evaluates the generated rules file, mounted where the configuration reads it', () => {
    expect(prometheusConfig.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    expect(mounts('prometheus')).toMatchObject({
      '/etc/prometheus/alerts.yml': './prometheus/alerts.yml',
      '/etc/prometheus/prometheus.yml': './prometheus/prometheus.yml',
      '/prometheus': 'prometheus-data',
    });
  });

  it('provisions Grafana with that Prometheus and the generated dashboard', () => {
    const datasources = readYaml(
      join(DEPLOY_DIR, 'grafana', 'provisioning', 'datasources', 'prometheus.yaml'),
    );
    const providers = readYaml(join(DEPLOY_DIR, 'grafana', 'provisioning', 'dashboards', 'openq.yaml'));
    expect(datasources.datasources).toEqual([
      expect.objectContaining({ type: 'prometheus', url: 'http://prometheus:9090', isDefault: true }),
    ]);
    const dashboardsPath = providers.providers[0].options.path as string;
    expect(mounts('grafana')).toMatchObject({
      '/etc/grafana/provisioning': './grafana/provisioning',
      [dashboardsPath]: './grafana/dashboards',
    });
    expect(existsSync(join(DEPLOY_DIR, 'grafana', 'dashboards', 'openq.json'))).toBe(true);
  });
});

describe('deploy/Dockerfile', () => {
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.at(-1) ?? '';

  it('builds in one stage and runs from a slim one: npm ci, build, prune the dev dependencies', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[0]).toMatch(/RUN npm ci\b/);
    expect(stages[0]).toMatch(/tsc -p deploy\/tsconfig\.image\.json/);
    // Issue #30: the web inbox is type-checked and bundled into dist/inbox/ (the gateway serves it).
    expect(stages[0]).toMatch(/tsc -p apps\/inbox\/tsconfig\.json \\\n && node dist\/tools\/build-inbox\.js/);
    expect(stages[0]).toMatch(/npm prune --omit=dev/);
    // Files read at run time from next to the code are not emitted by tsc.
    expect(stages[0]).toMatch(
      /find services libs -type f ! -name '\*\.ts' .* -exec cp --parents \{\} dist\//,
    );
    expect(runtime).toMatch(/COPY --from=build .*\/app\/node_modules/);
    expect(runtime).toMatch(/COPY --from=build .*\/app\/dist/);
  });

  it('runs as a non-root user, selects the service with OPENQ_SERVICE, and has a health check', () => {
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^ARG OPENQ_SERVICE=/m);
    expect(runtime).toMatch(/OPENQ_SERVICE=\$\{OPENQ_SERVICE\}/);
    expect(runtime).toMatch(/^CMD \["node", "dist\/tools\/cli\.js", "start"\]$/m);
    expect(runtime).toMatch(/HEALTHCHECK [^\n]*\\\n\s+CMD \["node", "dist\/tools\/healthcheck\.js"\]/);
    expect(runtime).toMatch(/NODE_ENV=production/);
  });

  it('sends the build what it copies, and nothing else (secrets, node_modules, dist stay out)', () => {
    const ignore = readFileSync(join(DEPLOY_DIR, 'Dockerfile.dockerignore'), 'utf8');
    expect(ignore.split('\n')[1]).toBe('**');
    const copies = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(' '));
    expect(copies).toEqual(
      expect.arrayContaining(['package-lock.json', 'libs', 'services', 'tools', 'apps']),
    );
    for (const copied of copies) {
      const path = copied.replace(/\/$/, '');
      expect(ignore).toMatch(new RegExp(`^!${path.replace(/\./g, '\\.')}(/\\*\\*)?$`, 'm'));
    }
  });
});
