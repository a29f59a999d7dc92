import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { ROOT, sdkManifest, workspacePins } from './pack-agent-sdk';

/** Every bare module specifier the files under `dir` import (specs excluded). */
function importsUnder(dir: string): Set<string> {
  const found = new Set<string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'testing') importsUnder(path).forEach((s) => found.add(s));
      continue;
    }
    if (!name.endsWith('.ts') || name.endsWith('.spec.ts') || name === 'testing.ts') continue;
    const text = readFileSync(path, 'utf8');
    for (const m of text.matchAll(
      /^(?:import|export)\s[^;]*?from\s+'([^'.][^']*)'|^import\s+'([^'.][^']*)'/gms,
    )) {
      const spec = m[1] ?? m[2]!;
      if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
      found.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  }
  return found;
}

describe('@openq/agent-sdk package.json', () => {
  const sdk = sdkManifest();

  it('lists exactly the runtime imports of the SDK and the contracts it bundles', () => {
    const used = new Set([
      ...importsUnder(join(ROOT, 'libs/agent-sdk/src')),
      ...importsUnder(join(ROOT, 'libs/contracts/src')),
    ]);
    expect(Object.keys(sdk.dependencies).sort()).toEqual([...used].sort());
    expect(sdk.bundleDependencies).toEqual(['@openq/contracts']);
  });

  it('pins each third-party dependency to the workspace version the tests ran with', () => {
    const pins = workspacePins();
    for (const [name, version] of Object.entries(sdk.dependencies)) {
      if (name === '@openq/contracts') expect(version).toBe(sdk.version);
      else expect([name, version]).toEqual([name, pins[name]]);
    }
  });

  it('exports its types and entry point, and ships only the build and the README', () => {
    expect(sdk).toMatchObject({
      name: '@openq/agent-sdk',
      main: './dist/index.js',
      types: './dist/index.d.ts',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      files: ['dist', 'README.md'],
    });
  });
});
