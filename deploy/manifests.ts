import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parse } from 'yaml';

/** Reads the checked-in deployment files for the tests that validate them offline. */
export const DEPLOY_DIR = __dirname;
export const K8S_DIR = join(__dirname, 'k8s');

/* Loose shapes: the tests read arbitrary Kubernetes and compose documents. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Doc = Record<string, any>;

export interface Manifest extends Doc {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  /** The file it came from (relative to deploy/k8s). */
  file: string;
}

/** Every document of a multi-document YAML file; a syntax error fails loudly. */
export function readYamlDocuments(path: string): Doc[] {
  return parseAllDocuments(readFileSync(path, 'utf8'), { merge: true }).map((doc, i) => {
    if (doc.errors.length > 0)
      throw new Error(`${path} document ${i}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return doc.toJS() as Doc;
  });
}

export function readYaml(path: string): Doc {
  return parse(readFileSync(path, 'utf8'), { merge: true }) as Doc;
}

export function k8sFiles(): string[] {
  return readdirSync(K8S_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
}

/** The manifests kustomization.yaml applies. */
export function kustomizeResources(): Manifest[] {
  const kustomization = readYaml(join(K8S_DIR, 'kustomization.yaml'));
  return (kustomization.resources as string[]).flatMap((file) =>
    readYamlDocuments(join(K8S_DIR, file)).map((doc) => ({ ...doc, file }) as Manifest),
  );
}

export function find(manifests: Manifest[], kind: string, name: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
}

/** The NATS server configuration of the cluster (ConfigMap nats-config). */
export function natsConf(manifests: Manifest[] = kustomizeResources()): string {
  return find(manifests, 'ConfigMap', 'nats-config').data['nats.conf'] as string;
}
