import 'reflect-metadata';
import { loadConfig } from '@openq/platform';
import { openDatabase } from '@openq/persistence';
import { QUESTIONS_MIGRATIONS } from '../services/questions/src/questions-service';
import { replayQuestionProjection } from '../services/questions/src/questions/projections/replay';

/** `openq replay`: drops the question projection and rebuilds it from the log. */
export async function replay(): Promise<void> {
  const config = loadConfig(process.env, { authSecrets: false });
  const dataSource = await openDatabase({ url: config.database.url, schema: 'questions', migrations: QUESTIONS_MIGRATIONS });
  try {
    const result = await replayQuestionProjection(dataSource);
    process.stdout.write(
      `replayed the question log up to position ${result.position}: ${result.questions} questions in ${result.projects} projects (${result.ms} ms)\n`,
    );
  } finally {
    await dataSource.destroy();
  }
}
