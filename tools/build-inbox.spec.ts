import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { stop, type Metafile } from 'esbuild';
import { buildInbox, INBOX_ENTRIES, INBOX_STATIC, WORKSPACE } from './build-inbox';

/**
 * Issue #30: the web inbox is a TypeScript project bundled for the browser. It builds, each page
 * is one module that imports nothing, and what goes in is the inbox, the browser-safe part of
 * libs/contracts and the four libraries the page uses — never class-validator, Nest or Node.
 */
let out: string;
let metafile: Metafile;
beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'openq-inbox-build-'));
  metafile = await buildInbox(out);
});
afterAll(async () => {
  rmSync(out, { recursive: true, force: true });
  await stop();
});

/** `node_modules/preact/…` → `preact`; a workspace file → its folder (`apps/inbox`, `libs/contracts`). */
function origin(input: string): string {
  const path = relative(WORKSPACE, join(WORKSPACE, input)).split(sep).join('/');
  const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (pkg) return pkg[1]!;
  return path.split('/').slice(0, 2).join('/');
}

describe('the inbox bundle (tools/build-inbox.ts)', () => {
  it('is one module per page, with the styles and the icon', () => {
    expect(readdirSync(out).sort()).toEqual(
      [...INBOX_ENTRIES.map((name) => `${name}.js`), ...INBOX_STATIC].sort(),
    );
  });

  it('imports nothing: every library is inside', () => {
    for (const name of INBOX_ENTRIES) {
      const code = readFileSync(join(out, `${name}.js`), 'utf8');
      expect(code).not.toMatch(/\bimport\s*["'{*]|\bfrom\s*["']|\bimport\(/);
    }
  });

  it('holds the inbox, the browser-safe contract and its four libraries, nothing else', () => {
    const origins = new Set(Object.keys(metafile.inputs).map(origin));
    expect([...origins].sort()).toEqual(
      ['@kurkle/color', 'apps/inbox', 'chart.js', 'htm', 'i18next', 'libs/contracts', 'preact'].sort(),
    );
  });

  it('takes from libs/contracts only modules of plain data (no validators, no Node)', () => {
    const contracts = Object.entries(metafile.inputs).filter(([file]) => origin(file) === 'libs/contracts');
    expect(contracts.length).toBeGreaterThan(3);
    for (const [file, input] of contracts) {
      const external = input.imports.filter((i) => origin(i.path) !== 'libs/contracts');
      expect({ file, external }).toEqual({ file, external: [] });
    }
  });
});
