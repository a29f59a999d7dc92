import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenqEnv, SERVICE_PORTS, type OpenqServiceName } from '@openq/platform';
import { GatewayEnv, parseTrustedProxies } from '../services/gateway/src/config';
import { NotifierEnv } from '../services/notifier/src/notifier-config';
import { SCRAPE_JOB } from '../tools/monitoring/alerts';
import {
  find,
  k8sFiles,
  K8S_DIR,
  kustomizeResources,
  natsConf,
  readYaml,
  readYamlDocuments,
  type Doc,
  type Manifest,
} from './manifests';

/*
 * Offline validation of deploy/k8s (no cluster, no network): every document against the
 * Kubernetes JSON schemas bundled in `kubernetes-models`, then the house rules a schema cannot
 * say — probes, resources, autoscaling and disruption budgets, and no secret in the repository.
 */

const manifests = kustomizeResources();
const OPENQ = Object.keys(SERVICE_PORTS) as OpenqServiceName[];
/** Variables that hold credentials: only ever from a Secret. */
const SECRET_VARIABLES = [
  'DATABASE_URL',
  'OPENQ_JWT_SECRET',
  'OPENQ_SERVICE_TOKEN',
  'OPENQ_SERVICE_TOKEN_PREVIOUS',
  'OPENQ_LINK_SECRET',
  'OPENQ_LINK_SECRET_PREVIOUS',
];
/** What the processes read besides OpenqEnv (gateway- and notifier-only settings, the runtime's own). */
const OTHER_VARIABLES = [
  ...Object.keys(new GatewayEnv()),
  ...Object.keys(new NotifierEnv()),
  'NODE_OPTIONS',
  'OPENQ_SERVICE',
];
const KNOWN_VARIABLES = new Set([...Object.keys(new OpenqEnv()), ...OTHER_VARIABLES]);

type Model = new (data: unknown) => { validate(): void };

async function schemaModel(apiVersion: string, kind: string): Promise<Model> {
  // kubernetes-models ships one module per apiVersion/kind, each with its JSON schema (ajv).
  const module = (await import(`kubernetes-models/${apiVersion}/${kind}`)) as Record<string, Model>;
  const model = module[kind];
  if (!model) throw new Error(`kubernetes-models has no ${apiVersion} ${kind}`);
  return model;
}

function podSpec(workload: Manifest): Doc {
  return workload.spec.template.spec as Doc;
}

function containers(workload: Manifest): Doc[] {
  return podSpec(workload).containers as Doc[];
}

function envOf(container: Doc): Doc[] {
  return (container.env as Doc[] | undefined) ?? [];
}

const workloads = manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'StatefulSet');
const deployments = manifests.filter((m) => m.kind === 'Deployment');

describe('deploy/k8s: Kubernetes schemas', () => {
  it('applies every manifest file of the directory, except the secret template', () => {
    const kustomization = readYaml(join(K8S_DIR, 'kustomization.yaml'));
    const listed = [...(kustomization.resources as string[])].sort();
    expect(listed).toEqual(
      k8sFiles().filter((f) => f !== 'kustomization.yaml' && f !== 'secret.template.yaml'),
    );
    expect(kustomization.namespace).toBe('openq');
  });

  it.each(manifests.map((m) => [`${m.file}: ${m.kind} ${m.metadata?.name}`, m] as const))(
    '%s is a valid object of its kind',
    async (_label, manifest) => {
      expect(manifest.apiVersion).toEqual(expect.any(String));
      expect(manifest.kind).toEqual(expect.any(String));
      expect(manifest.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      const { file: _file, ...object } = manifest;
      const Model = await schemaModel(manifest.apiVersion, manifest.kind);
      expect(() => new Model(object).validate()).not.toThrow();
    },
  );

  it('catches a broken manifest (the validator is really on)', async () => {
    const Model = await schemaModel('apps/v1', 'Deployment');
    const broken = structuredClone(find(manifests, 'Deployment', 'questions')) as Doc;
    delete broken.file;
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    expect(() => new Model(broken).validate()).toThrow(/containerPort must be integer/);
  });

  it('names each object once per kind', () => {
    const keys = manifests.map((m) => `${m.kind}/${m.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('deploy/k8s: workloads', () => {
  it.each(
    workloads.flatMap((w) =>
      containers(w).map((c) => [`${w.kind} ${w.metadata.name} / ${c.name}`, c] as const),
    ),
  )(
    '%s has readiness and liveness probes, resource requests and limits, and runs unprivileged',
    (_label, container) => {
      expect(container.readinessProbe?.httpGet?.path).toEqual(expect.any(String));
      expect(container.livenessProbe?.httpGet?.path).toEqual(expect.any(String));
      for (const bound of ['requests', 'limits']) {
        expect(container.resources?.[bound]).toEqual(
          expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }),
        );
      }
      expect(container.securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
    },
  );

  it('runs every pod as a non-root user with the default seccomp profile', () => {
    for (const w of workloads)
      expect(podSpec(w).securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: expect.any(Number),
        seccompProfile: { type: 'RuntimeDefault' },
      });
  });

  it.each(OPENQ)(
    '%s: one image, `cli.js start <service>`, probes /readyz and /healthz on its configured port',
    (name) => {
      const deployment = find(manifests, 'Deployment', name);
      const [container] = containers(deployment);
      const { variable, port } = SERVICE_PORTS[name];
      expect(containers(deployment)).toHaveLength(1);
      expect(container!.image).toBe('openq');
      expect(container!.command).toEqual(['node', 'dist/tools/cli.js', 'start', name]);
      // Issue #27: the gateway answers its probes on a port of their own, off the main event loop.
      const probe = name === 'gateway' ? 'probe' : 'http';
      expect(container!.ports).toEqual([
        { name: 'http', containerPort: port },
        ...(name === 'gateway' ? [{ name: 'probe', containerPort: 3900 }] : []),
      ]);
      expect(envOf(container!)).toContainEqual({ name: variable, value: String(port) });
      if (name === 'gateway')
        expect(envOf(container!)).toContainEqual({ name: 'GATEWAY_PROBE_PORT', value: '3900' });
      expect(container!.readinessProbe.httpGet).toEqual({ path: '/readyz', port: probe });
      expect(container!.livenessProbe.httpGet).toEqual({ path: '/healthz', port: probe });
      // Migrations run before the port opens: a startup probe keeps liveness from killing a long one.
      expect(container!.startupProbe.httpGet).toEqual({ path: '/healthz', port: probe });
      expect(deployment.spec.template.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(port),
      });
      // Longer than the app's own graceful shutdown (SHUTDOWN_TIMEOUT_MS).
      const shutdownMs = Number(find(manifests, 'ConfigMap', 'openq-config').data.SHUTDOWN_TIMEOUT_MS);
      expect(podSpec(deployment).terminationGracePeriodSeconds * 1000).toBeGreaterThan(shutdownMs);
    },
  );

  it.each(OPENQ)(
    '%s: autoscaled from 2 replicas, a disruption budget that leaves one up, rolling without losing capacity',
    (name) => {
      const deployment = find(manifests, 'Deployment', name);
      const hpa = find(manifests, 'HorizontalPodAutoscaler', name);
      const pdb = find(manifests, 'PodDisruptionBudget', name);
      const podLabels = deployment.spec.template.metadata.labels as Record<string, string>;
      expect(deployment.spec.replicas).toBeUndefined(); // the HPA owns it
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
      expect(pdb.spec.minAvailable).toBeLessThan(hpa.spec.minReplicas);
      expect(podLabels).toMatchObject(pdb.spec.selector.matchLabels);
      expect(podLabels).toMatchObject(deployment.spec.selector.matchLabels);
      expect(deployment.spec.strategy.rollingUpdate).toEqual({ maxUnavailable: 0, maxSurge: 1 });
    },
  );

  it('exposes the gateway through a Service and every domain service for metrics scraping', () => {
    for (const name of OPENQ) {
      const service =
        name === 'gateway'
          ? find(manifests, 'Service', 'gateway')
          : find(manifests, 'Service', `${name}-metrics`);
      expect(service.spec.selector).toEqual({ 'app.kubernetes.io/name': name });
      expect(service.spec.ports[0].targetPort).toBe('http');
      expect(service.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(SERVICE_PORTS[name].port),
      });
    }
  });

  it('lets the world in through an Ingress whose controller the gateway trusts for X-Forwarded-For (issue #27)', () => {
    const ingress = find(manifests, 'Ingress', 'gateway');
    expect(ingress.spec.rules[0].http.paths[0].backend.service).toEqual({
      name: 'gateway',
      port: { name: 'http' },
    });
    // Server-Sent Events pass unbuffered.
    expect(ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
    const config = find(manifests, 'ConfigMap', 'openq-config');
    expect(parseTrustedProxies(config.data.GATEWAY_TRUSTED_PROXIES).length).toBeGreaterThan(0);
  });
});

describe('deploy/k8s: configuration and secrets', () => {
  const config = find(manifests, 'ConfigMap', 'openq-config');
  const template = readYamlDocuments(join(K8S_DIR, 'secret.template.yaml'));

  it('bakes no Secret into what is applied', () => {
    expect(manifests.filter((m) => m.kind === 'Secret')).toEqual([]);
  });

  it('takes every credential from the Secret, never from a literal or the ConfigMap', () => {
    for (const w of deployments) {
      for (const c of containers(w)) {
        for (const entry of envOf(c)) {
          if (SECRET_VARIABLES.includes(entry.name)) {
            expect(entry.value).toBeUndefined();
            expect(entry.valueFrom?.secretKeyRef?.name).toBe('openq-secrets');
          }
        }
      }
    }
    for (const key of Object.keys(config.data)) expect(SECRET_VARIABLES).not.toContain(key);
    expect(
      find(manifests, 'Deployment', 'gateway').spec.template.spec.containers[0].env.map((e: Doc) => e.name),
    ).toEqual(
      expect.arrayContaining(['OPENQ_JWT_SECRET', 'OPENQ_SERVICE_TOKEN', 'OPENQ_SERVICE_TOKEN_PREVIOUS']),
    );
  });

  it('keeps the auth secrets in the gateway only (least privilege)', () => {
    for (const name of ['questions', 'gates', 'context']) {
      const names = envOf(containers(find(manifests, 'Deployment', name))[0]!).map((e) => e.name);
      expect(names).not.toContain('OPENQ_JWT_SECRET');
      expect(names).not.toContain('OPENQ_SERVICE_TOKEN');
    }
  });

  it('has a Secret template with a placeholder for every key the workloads reference', () => {
    expect(template).toHaveLength(1);
    const [secret] = template as Manifest[];
    expect(secret!.kind).toBe('Secret');
    expect(secret!.metadata.name).toBe('openq-secrets');
    for (const value of Object.values(secret!.stringData as Record<string, string>))
      expect(value === '' || value.includes('REPLACE_ME')).toBe(true);
    const referenced = deployments.flatMap((w) =>
      containers(w).flatMap((c) =>
        envOf(c).flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef.key as string] : [])),
      ),
    );
    expect(Object.keys(secret!.stringData).sort()).toEqual([...new Set(referenced)].sort());
  });

  it('sets only variables the processes read (a typo would be silently ignored)', () => {
    for (const key of Object.keys(config.data)) expect(KNOWN_VARIABLES).toContain(key);
    for (const w of deployments)
      for (const c of containers(w)) for (const e of envOf(c)) expect(KNOWN_VARIABLES).toContain(e.name);
    for (const w of deployments)
      for (const c of containers(w)) expect(c.envFrom).toEqual([{ configMapRef: { name: 'openq-config' } }]);
  });
});

describe('deploy/k8s: the NATS JetStream cluster', () => {
  const sts = find(manifests, 'StatefulSet', 'nats');
  const conf = natsConf(manifests);
  const replicas = sts.spec.replicas as number;

  it('runs 3 servers behind a headless Service, each with its own volume', () => {
    expect(replicas).toBe(3);
    const headless = find(manifests, 'Service', sts.spec.serviceName);
    expect(headless.spec.clusterIP).toBe('None');
    expect(headless.spec.publishNotReadyAddresses).toBe(true);
    expect(sts.spec.template.metadata.labels).toMatchObject(headless.spec.selector);
    expect(sts.spec.volumeClaimTemplates[0].metadata.name).toBe('data');
    expect(find(manifests, 'PodDisruptionBudget', 'nats').spec.maxUnavailable).toBe(1);
  });

  it('configures JetStream on the data volume and routes to every peer', () => {
    const mounts = containers(sts)[0]!.volumeMounts as Doc[];
    const dataMount = mounts.find((m) => m.name === 'data')!.mountPath as string;
    expect(conf).toMatch(new RegExp(`jetstream\\s*\\{[^}]*store_dir:\\s*${dataMount}/`));
    const cluster = /cluster\s*\{([\s\S]*?)\n\}/.exec(conf)?.[1] ?? '';
    expect(cluster).toMatch(/name:\s*openq/);
    const routes = [...cluster.matchAll(/nats-route:\/\/([\w.-]+):(\d+)/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(routes).toEqual(
      Array.from({ length: replicas }, (_, i) => `nats-${i}.${sts.spec.serviceName}:6222`),
    );
    expect(conf).toMatch(/server_name:\s*\$SERVER_NAME/);
    expect(containers(sts)[0]!.env).toContainEqual({
      name: 'SERVER_NAME',
      valueFrom: { fieldRef: { fieldPath: 'metadata.name' } },
    });
  });

  it('has the services provision R3 streams, the definitions checked in as deploy/nats/streams.json', () => {
    const streamReplicas = Number(find(manifests, 'ConfigMap', 'openq-config').data.OPENQ_STREAM_REPLICAS);
    const rendered = JSON.parse(readFileSync(join(K8S_DIR, '..', 'nats', 'streams.json'), 'utf8')) as {
      replicas: number;
      streams: { num_replicas: number }[];
    };
    expect(streamReplicas).toBe(3);
    expect(streamReplicas).toBeLessThanOrEqual(replicas);
    expect(rendered.replicas).toBe(streamReplicas);
    expect(rendered.streams.every((s) => s.num_replicas === streamReplicas)).toBe(true);
  });
});

describe('deploy/k8s/monitoring (prometheus-operator)', () => {
  const dir = join(K8S_DIR, 'monitoring');
  const kustomization = readYaml(join(dir, 'kustomization.yaml'));
  const objects = (kustomization.resources as string[]).flatMap((file) =>
    readYamlDocuments(join(dir, file)).map((doc) => ({ ...doc, file }) as Manifest),
  );

  it('applies every file of the directory, in namespace openq, apart from the base', () => {
    expect([...(kustomization.resources as string[])].sort()).toEqual(
      readdirSync(dir)
        .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
        .sort(),
    );
    expect(kustomization.namespace).toBe('openq');
    expect(readYaml(join(K8S_DIR, 'kustomization.yaml')).resources).not.toContain('monitoring');
  });

  it('ships the dashboard as a valid ConfigMap and the rules as a PrometheusRule', async () => {
    const configMap = find(objects, 'ConfigMap', 'openq-grafana-dashboard');
    const { file: _file, ...object } = configMap;
    const Model = await schemaModel('v1', 'ConfigMap');
    expect(() => new Model(object).validate()).not.toThrow();
    expect(find(objects, 'PrometheusRule', 'openq').apiVersion).toBe('monitoring.coreos.com/v1');
  });

  it('scrapes the four services’ pods on their http port as the job the alert rules expect', () => {
    const podMonitor = find(objects, 'PodMonitor', 'openq');
    expect(podMonitor.apiVersion).toBe('monitoring.coreos.com/v1');
    // jobLabel names a pod label; the base kustomization puts part-of: openq on every pod template.
    const jobLabel = podMonitor.spec.jobLabel as string;
    const baseLabels = (readYaml(join(K8S_DIR, 'kustomization.yaml')).labels as Doc[])[0]!;
    expect(baseLabels.pairs[jobLabel]).toBe(SCRAPE_JOB);
    expect(baseLabels.includeTemplates).toBe(true);
    expect(podMonitor.spec.selector.matchExpressions).toEqual([
      { key: 'app.kubernetes.io/name', operator: 'In', values: expect.arrayContaining(OPENQ) },
    ]);
    expect(podMonitor.spec.selector.matchExpressions[0].values).toHaveLength(OPENQ.length);
    const [endpoint] = podMonitor.spec.podMetricsEndpoints as Doc[];
    expect(endpoint).toMatchObject({ port: 'http', path: '/metrics' });
    for (const name of OPENQ) {
      const deployment = find(manifests, 'Deployment', name);
      expect(deployment.spec.template.metadata.labels['app.kubernetes.io/name']).toBe(name);
      expect(containers(deployment)[0]!.ports).toContainEqual(expect.objectContaining({ name: 'http' }));
    }
  });
});
