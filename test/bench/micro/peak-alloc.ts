/**
 * Where the peak's allocations come from (issue #29): the whole stack in this process, as the bench
 * runs it, one warm-up of the peak scenario (cycles parked, then answered at 16, 64 and 256 in
 * flight), then a second one under V8's sampling heap profiler, counting every allocation whether
 * or not a scavenge or a full GC collected it since: what the garbage collector is made to work
 * through. Prints the bytes allocated per cycle and their share by package and by function:
 * `npm run build && node dist/test/bench/micro/peak-alloc.js [answers per level]` (default 500).
 */
import '../../../tools/register-paths';
import { Session } from 'node:inspector';
import { inspectorPost } from '../support/inspector';
import { Stack } from '../../support/stack';
import { BENCH_GATEWAY_ENV } from '../phases/common';
import { peakRun } from '../scenarios/answer-resume';
import { packageOf } from '../profile';

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

function table(bytes: Map<string, number>, total: number, top: number): string {
  return [...bytes.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, b]) => `${((100 * b) / total).toFixed(1).padStart(5)} %  ${k}`)
    .join('\n');
}

async function main(): Promise<void> {
  const answers = Number(process.argv[2] ?? 500);
  const levels = [16, 64, 256].map((inFlight) => ({ inFlight, answers: Math.max(answers, 4 * inFlight) }));
  const stack = await Stack.start({
    services: ['questions', 'gates', 'context', 'notifier'],
    env: BENCH_GATEWAY_ENV,
  });
  stack.events.stop();
  stack.agentEvents.stop();
  try {
    await peakRun(stack, `w${Date.now().toString(36)}`, levels, 180_000);
    const session = new Session();
    session.connect();
    await inspectorPost(session, 'HeapProfiler.enable');
    await inspectorPost(session, 'HeapProfiler.startSampling', {
      samplingInterval: 16_384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    const { cycles } = await peakRun(stack, `a${Date.now().toString(36)}`, levels, 180_000);
    const { profile } = (await inspectorPost(session, 'HeapProfiler.stopSampling')) as {
      profile: { head: SamplingNode };
    };
    session.disconnect();
    const byPackage = new Map<string, number>();
    const byFunction = new Map<string, number>();
    const walk = (node: SamplingNode): void => {
      const { functionName, url, lineNumber } = node.callFrame;
      const fn = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist)\//, '')}:${lineNumber + 1}` : ''}`;
      byFunction.set(fn.trim(), (byFunction.get(fn.trim()) ?? 0) + node.selfSize);
      const pkg = url ? packageOf(url) : functionName || '(native)';
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + node.selfSize);
      node.children.forEach(walk);
    };
    walk(profile.head);
    const total = [...byPackage.values()].reduce((a, b) => a + b, 0);
    process.stdout.write(
      `${cycles} cycles (park, answer, resume): ${(total / cycles / 1024).toFixed(0)} KiB allocated per cycle\n\n` +
        `by package\n${table(byPackage, total, 20)}\n\nby function\n${table(byFunction, total, 30)}\n`,
    );
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
