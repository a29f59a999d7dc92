import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
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
 * The pages' files: the web inbox as `npm run build` bundles it (tools/build-inbox.ts, issue #30)
 * into dist/inbox/ — one module per page with Preact, htm, i18next, Chart.js inside, its styles
 * and icon. No CDN, no import map. A compiled gateway finds it next to itself in dist/, one run
 * from the sources (jest) in the workspace's dist/.
 */
export function inboxDir(): string {
  const candidates = [
    join(__dirname, '..', '..', '..', '..', 'inbox'),
    join(__dirname, '..', '..', '..', '..', 'dist', 'inbox'),
  ];
  const found = candidates.find((dir) => existsSync(join(dir, 'app.js')));
  if (!found)
    throw new Error(`the inbox is not built: run npm run build (looked in ${candidates.join(', ')})`);
  return found;
}

export class InboxAssets {
  private readonly files = new Map<string, Asset>();

  constructor(dir: string = inboxDir()) {
    for (const name of readdirSync(dir)) {
      const type = TYPES[extname(name)];
      if (type) this.files.set(name, asset(readFileSync(join(dir, name)), type));
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
}

function asset(body: Buffer, type: string): Asset {
  const version = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  const gzip = gzipSync(body, { level: 9 });
  return { body, gzip: gzip.length < body.length ? gzip : null, type, etag: `"${version}"`, version };
}
