import { readFileSync } from 'node:fs';

/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): self time by function and by package, so a
 * bench run's profile can be read without DevTools:
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof dist/test/bench/run.js --quick --only resume
 *   node dist/test/bench/profile.js /tmp/prof/*.cpuprofile
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The package a script belongs to: `pg`, `@nestjs/core`, `openq:libs/messaging`, `node:internal`… */
export function packageOf(url: string): string {
  if (!url) return '(native / idle / gc)';
  if (url.startsWith('node:')) return 'node:internal';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 14).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const m = /\/(libs|services|test|tools)\/([^/]+)/.exec(url);
  return m ? `openq:${m[1]}/${m[2]}` : url;
}

export function summarise(profile: CpuProfile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFn = new Map<string, number>();
  const byPkg = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const fn =
      `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|work\/main)\//, '')}:${lineNumber + 1}` : ''}`.trim();
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
    const pkg = packageOf(url);
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
  }
  const table = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([k, us]) =>
          `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`,
      )
      .join('\n');
  return `total ${(total / 1e6).toFixed(1)} s sampled\n\nself time by package\n${table(byPkg)}\n\nself time by function\n${table(byFn)}\n`;
}

if (require.main === module) {
  const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  for (const file of files)
    process.stdout.write(
      `== ${file}\n${summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, 30)}\n`,
    );
}
