/**
 * Builds the web inbox (apps/inbox, issue #30) into dist/inbox/: one ES module per page — `app.js`
 * (the inbox) and `embed.js` (the embeddable pending block) — with Preact, htm, i18next, Chart.js
 * and the browser-safe part of libs/contracts bundled in, next to the styles and the icon as they
 * are. The gateway serves that folder (services/gateway/src/inbox/inbox-assets.ts).
 *
 *   npm run build     # = tsc … && tsc -p apps/inbox/tsconfig.json && node dist/tools/build-inbox.js
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, buildSync, stop, type BuildOptions, type Metafile } from 'esbuild';

/** The workspace root, from tools/ (jest) or dist/tools/ (compiled). */
export const WORKSPACE = __filename.endsWith('.js') ? join(__dirname, '..', '..') : join(__dirname, '..');
export const INBOX_SOURCE = join(WORKSPACE, 'apps', 'inbox', 'src');
export const INBOX_OUT = join(WORKSPACE, 'dist', 'inbox');

/** The pages' entry modules: each becomes one file of the same name (`.js`). */
export const INBOX_ENTRIES = ['app', 'embed'] as const;
/** Served as they are. */
export const INBOX_STATIC = ['inbox.css', 'hands.css', 'favicon.svg'] as const;

export function inboxBuildOptions(outdir: string): BuildOptions {
  return {
    absWorkingDir: WORKSPACE,
    entryPoints: INBOX_ENTRIES.map((name) => join(INBOX_SOURCE, `${name}.ts`)),
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // `@openq/contracts/browser` resolves through the workspace's paths.
    tsconfig: join(WORKSPACE, 'apps', 'inbox', 'tsconfig.json'),
    minify: true,
    legalComments: 'eof',
    metafile: true,
    logLevel: 'silent',
  };
}

/** Writes dist/inbox/ afresh; returns what went into the bundles. */
export async function buildInbox(outdir: string = INBOX_OUT): Promise<Metafile> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build(inboxBuildOptions(outdir));
  for (const name of INBOX_STATIC) copyFileSync(join(INBOX_SOURCE, name), join(outdir, name));
  return result.metafile!;
}

/**
 * One inbox module (`locale-en`, …) with what it imports, evaluated here in Node: for the specs
 * that read the inbox's dictionaries (tools/inbox-locales.spec.ts, test/support/inbox-words.ts).
 */
export function loadInboxModule(name: string): Record<string, unknown> {
  const { outputFiles } = buildSync({
    ...inboxBuildOptions(join(WORKSPACE, 'dist', 'inbox-modules')),
    entryPoints: [join(INBOX_SOURCE, `${name}.ts`)],
    format: 'cjs',
    minify: false,
    metafile: false,
    write: false,
  });
  // buildSync keeps an esbuild process for the next call: none outlives this one (a suite checks).
  void stop();
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', outputFiles[0]!.text)(module, module.exports);
  return module.exports;
}

if (require.main === module) {
  buildInbox().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
