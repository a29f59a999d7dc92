import 'reflect-metadata';
import { connectNats, loadConfig } from '@openq/platform';
import { openDatabase } from '@openq/persistence';
import { CONTEXT_MIGRATIONS } from '../services/context/src/context/migrations';
import {
  PartialReplayRefusedError,
  replayContextReadModels,
  type ContextReplayResult,
} from '../services/context/src/context/projections/replay';
import { QUESTIONS_MIGRATIONS } from '../services/questions/src/questions-service';
import { replayQuestionProjection } from '../services/questions/src/questions/projections/replay';

export const REPLAY_USAGE = 'usage: openq replay [questions | context [--allow-partial]]';

/**
 * `openq replay [questions]`: drops the question projection and rebuilds it from the log.
 * `openq replay context [--allow-partial]`: rebuilds the context read models from the streams.
 * Returns the exit code.
 */
export async function replay(args: string[] = []): Promise<number> {
  const [target = 'questions', ...flags] = args;
  if (target === 'questions' && flags.length === 0) {
    await replayQuestions();
    return 0;
  }
  if (target === 'context' && flags.every((f) => f === '--allow-partial')) {
    return replayContext(flags.includes('--allow-partial'));
  }
  process.stderr.write(`${REPLAY_USAGE}\n`);
  return 2;
}

async function replayQuestions(): Promise<void> {
  const config = loadConfig(process.env, { authSecrets: false });
  const dataSource = await openDatabase({
    url: config.database.url,
    schema: 'questions',
    migrations: QUESTIONS_MIGRATIONS,
  });
  try {
    const result = await replayQuestionProjection(dataSource);
    process.stdout.write(
      `replayed the question log up to position ${result.position}: ${result.questions} questions in ${result.projects} projects (${result.ms} ms)\n`,
    );
  } finally {
    await dataSource.destroy();
  }
}

async function replayContext(allowPartial: boolean): Promise<number> {
  const config = loadConfig(process.env, { authSecrets: false });
  const nc = await connectNats(config.nats.url, 'openq-replay');
  try {
    const dataSource = await openDatabase({
      url: config.database.url,
      schema: 'context',
      migrations: CONTEXT_MIGRATIONS as never,
    });
    try {
      const result = await replayContextReadModels(dataSource, nc, {
        allowPartial,
        onSkip: (s) =>
          process.stderr.write(`skipped ${s.stream} #${s.seq} ${s.type}: ${s.reason}: ${s.message}\n`),
      });
      process.stdout.write(`${describeContextReplay(result)}\n`);
      return 0;
    } catch (error) {
      if (!(error instanceof PartialReplayRefusedError)) throw error;
      process.stderr.write(`openq replay context: ${error.message}\n`);
      return 1;
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await nc.close();
  }
}

/** The one line `openq replay context` prints. */
export function describeContextReplay(result: ContextReplayResult): string {
  const streams = result.streams
    .map((s) => `${s.stream} ${s.firstSeq}..${s.lastSeq}${s.partial ? ' (partial)' : ''}`)
    .join(', ');
  const types = Object.entries(result.types)
    .map(([type, c]) => `${c.applied} ${type}`)
    .join(', ');
  const totals = Object.values(result.types).reduce(
    (t, c) => ({
      invalid: t.invalid + c.invalid,
      duplicates: t.duplicates + c.duplicates,
      failed: t.failed + c.failed,
    }),
    { invalid: 0, duplicates: 0, failed: 0 },
  );
  return (
    `replayed the context read models from ${streams}: ${types}; ` +
    `${result.correctionsFromOutbox > 0 ? `${result.correctionsFromOutbox} story.corrected from the outbox; ` : ''}` +
    `${result.archivesFromOutbox > 0 ? `${result.archivesFromOutbox} story.archived from the outbox; ` : ''}` +
    `skipped ${totals.invalid} invalid, ${totals.duplicates} duplicate, ${totals.failed} failed (${result.ms} ms)`
  );
}
