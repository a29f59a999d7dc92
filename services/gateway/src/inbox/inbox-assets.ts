import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One file the page loads, held in memory (they are few and small), with its gzip and validator. */
export interface Asset {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  etag: string;
  /** Content hash: URLs carry it (`?v=`) so that a browser may keep them forever. */
  version: string;
}

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * The page's own files (`inbox/public/`) and the libraries it imports (Preact, its hooks, htm,
 * i18next, Chart.js) straight from node_modules: no bundler, no CDN. `tsc` does not copy `public/` into
 * `dist/`, so a compiled gateway reads it from the source tree next to `dist/`.
 */
export function publicDir(): string {
  const candidates = [
    join(__dirname, 'public'),
    join(__dirname, '..', '..', '..', '..', '..', 'services', 'gateway', 'src', 'inbox', 'public'),
  ];
  const found = candidates.find((dir) => existsSync(join(dir, 'app.js')));
  if (!found) throw new Error(`the inbox page's files are missing (looked in ${candidates.join(', ')})`);
  return found;
}

/** Vendor modules by URL name → [package, file inside it]. */
const VENDOR: Readonly<Record<string, readonly [string, string]>> = {
  preact: ['preact', 'dist/preact.module.js'],
  'preact/hooks': ['preact', 'hooks/dist/hooks.module.js'],
  htm: ['htm', 'dist/htm.module.js'],
  i18next: ['i18next', 'dist/esm/i18next.js'],
  // Issue #33: its ES build imports chunks by relative path; the UMD build is one file that sets
  // `globalThis.Chart` when imported as a module.
  'chart.js': ['chart.js', 'dist/chart.umd.min.js'],
};

export class InboxAssets {
  private readonly files = new Map<string, Asset>();
  /** Bare import → URL, for the page's import map. */
  readonly importMap: Record<string, string> = {};

  constructor(dir: string = publicDir()) {
    for (const name of readdirSync(dir)) {
      const type = TYPES[extname(name)];
      if (type) this.files.set(name, asset(readFileSync(join(dir, name)), type));
    }
    for (const [specifier, [pkg, file]] of Object.entries(VENDOR)) {
      const { root, version } = packageRoot(pkg);
      // The source-map comment points at a file we do not serve.
      const code = readFileSync(join(root, file), 'utf8').replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n');
      const name = `vendor/${specifier.replace('/', '-')}-${version}.js`;
      this.files.set(name, asset(Buffer.from(code), TYPES['.js']!));
      this.importMap[specifier] = this.url(name);
    }
  }

  get(name: string): Asset | undefined {
    return this.files.get(name);
  }

  /** `/inbox/<name>?v=<hash>`. */
  url(name: string): string {
    const file = this.files.get(name);
    if (!file) throw new Error(`no inbox asset ${name}`);
    return `/inbox/${name}?v=${file.version}`;
  }

  /** Every page module (for `modulepreload` and the import map's cache-busting entries). */
  modules(): string[] {
    return [...this.files.keys()].filter((n) => n.endsWith('.js') && !n.startsWith('vendor/'));
  }
}

/** A package's folder and version (htm does not export its package.json, so walk up from its main file). */
function packageRoot(pkg: string): { root: string; version: string } {
  for (let dir = dirname(require.resolve(pkg)); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name?: string;
      version?: string;
    };
    if (name === pkg && version) return { root: dir, version };
  }
  throw new Error(`cannot find the ${pkg} package`);
}

function asset(body: Buffer, type: string): Asset {
  const version = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  const gzip = gzipSync(body, { level: 9 });
  return { body, gzip: gzip.length < body.length ? gzip : null, type, etag: `"${version}"`, version };
}
