import type { INestApplication } from '@nestjs/common';
import { stopTracing } from './tracing';

interface Running {
  name: string;
  app: INestApplication;
}

const running: Running[] = [];
const finalSteps: { name: string; step: () => Promise<void> }[] = [];
let signalsInstalled = false;
let shuttingDown: Promise<void> | null = null;

/**
 * Registers an app for graceful shutdown on SIGTERM/SIGINT. Nest's own `enableShutdownHooks`
 * re-raises the signal as soon as *its* app has closed, which would kill the process while the
 * other services of a laptop-mode process are still draining; here one handler closes every app
 * of the process (last started first) and only then exits.
 */
export function closeOnSignals(name: string, app: INestApplication, timeoutMs: number): void {
  running.push({ name, app });
  if (signalsInstalled) return;
  signalsInstalled = true;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void shutdownAll(signal, timeoutMs).then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

/** Forgets an app closed some other way (tests, an embedding process). */
export function forgetApp(app: INestApplication): void {
  const index = running.findIndex((r) => r.app === app);
  if (index >= 0) running.splice(index, 1);
}

/**
 * A step that runs once every app has closed, before the process exits (last registered first):
 * what the apps needed until their end, such as the embedded PostgreSQL and nats-server that
 * `openq start` brings up on a laptop.
 */
export function afterAppsClosed(name: string, step: () => Promise<void>): void {
  finalSteps.push({ name, step });
}

/** Closes every registered app in reverse start order; gives up after `timeoutMs`. */
export function shutdownAll(signal: string, timeoutMs: number): Promise<void> {
  shuttingDown ??= (async () => {
    /** What is being closed now: the timeout's message names it (an app, or a final step). */
    let closing = 'nothing';
    const timer = setTimeout(() => {
      console.error(
        `openq: shutdown did not finish within ${timeoutMs} ms after ${signal} (still closing: ${closing}); exiting`,
      );
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    let failed = false;
    for (const { name, app } of running.splice(0).reverse()) {
      closing = `the ${name} app`;
      try {
        await app.close();
      } catch (error) {
        failed = true;
        console.error(
          `${name}: error while shutting down: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    for (const { name, step } of finalSteps.splice(0).reverse()) {
      closing = `${name}'s final step`;
      try {
        await step();
      } catch (error) {
        failed = true;
        console.error(
          `${name}: error while stopping: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    closing = 'tracing';
    await stopTracing();
    clearTimeout(timer);
    if (failed) throw new Error('shutdown failed');
  })();
  return shuttingDown;
}
