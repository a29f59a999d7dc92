import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/*
 * Builds `@openq/agent-sdk` as a package an engine outside this repository installs
 * (`npm pack` → a tarball): the SDK compiled to JS + .d.ts by tsc (libs/agent-sdk/tsconfig.pack.json),
 * and `@openq/contracts` — the DTOs it validates with — compiled by the same run and shipped inside
 * the tarball as a bundled dependency (npm's `bundleDependencies`), so the import specifier
 * `@openq/contracts` resolves there as it does in the workspace, and nothing else is published.
 */

/** The workspace root, from tools/ (jest) or dist/tools/ (compiled). */
export const ROOT = (() => {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nx.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();
const SDK_DIR = join(ROOT, 'libs', 'agent-sdk');
const OUT = join(ROOT, 'dist', 'packages');
const BUILD = join(OUT, 'agent-sdk-build');
const STAGE = join(OUT, 'agent-sdk');

interface PackageJson {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  [key: string]: unknown;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as PackageJson;

/** The SDK's package.json, as checked in. */
export function sdkManifest(): PackageJson {
  return readJson(join(SDK_DIR, 'package.json'));
}

/** The workspace's pins (root package.json): the SDK's dependencies must use exactly these. */
export function workspacePins(): Record<string, string> {
  return readJson(join(ROOT, 'package.json')).dependencies;
}

/** The bundled contracts package: its runtime dependencies are the SDK's, less nats. */
function contractsManifest(sdk: PackageJson): PackageJson {
  const dependencies = Object.fromEntries(
    Object.entries(sdk.dependencies).filter(([name]) => !['@openq/contracts', 'nats'].includes(name)),
  );
  return {
    name: '@openq/contracts',
    version: sdk.version,
    description: "openq's contracts (events, DTOs, limits), bundled with @openq/agent-sdk",
    license: sdk.license as string,
    main: './dist/index.js',
    types: './dist/index.d.ts',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    dependencies,
  };
}

/** Compiles, stages and packs; returns the tarball's path. */
export function packAgentSdk(log: (line: string) => void = () => undefined): string {
  rmSync(BUILD, { recursive: true, force: true });
  rmSync(STAGE, { recursive: true, force: true });
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', join(SDK_DIR, 'tsconfig.pack.json')], { stdio: 'inherit' });

  const sdk = sdkManifest();
  mkdirSync(STAGE, { recursive: true });
  writeFileSync(join(STAGE, 'package.json'), `${JSON.stringify(sdk, null, 2)}\n`);
  cpSync(join(SDK_DIR, 'README.md'), join(STAGE, 'README.md'));
  cpSync(join(BUILD, 'agent-sdk', 'src'), join(STAGE, 'dist'), { recursive: true });
  const contracts = join(STAGE, 'node_modules', '@openq', 'contracts');
  mkdirSync(contracts, { recursive: true });
  writeFileSync(join(contracts, 'package.json'), `${JSON.stringify(contractsManifest(sdk), null, 2)}\n`);
  cpSync(join(BUILD, 'contracts', 'src'), join(contracts, 'dist'), { recursive: true });

  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', OUT], {
    cwd: STAGE,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  const file = packed.trim().split('\n').pop()!.trim();
  const tarball = join(OUT, file);
  log(`${sdk.name}@${sdk.version} → ${tarball}`);
  return tarball;
}

if (require.main === module) packAgentSdk((line) => process.stdout.write(`${line}\n`));
