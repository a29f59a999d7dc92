import type { AfterQueryEvent, DataSource, EntitySubscriberInterface } from 'typeorm';

/**
 * Every statement a data source sends, as PostgreSQL gets it (for specs and benches that count
 * round trips): `dataSource.subscribers.push(recorder)`, then read `sent`. A statement sent ahead
 * (`sendAheadOfNext`, `sendAheadAfterWrites`) is recorded when its reply comes, so the order of
 * `sent` is not always the wire's.
 */
export class StatementRecorder implements EntitySubscriberInterface {
  sent: string[] = [];
  afterQuery(event: AfterQueryEvent): void {
    this.sent.push(event.query);
  }
}

/** `work`'s result and the statements `dataSource` sent while it ran (a `StatementRecorder`). */
export async function recordStatements<T>(
  dataSource: DataSource,
  work: () => Promise<T>,
): Promise<{ value: T; sent: string[] }> {
  const recorder = new StatementRecorder();
  dataSource.subscribers.push(recorder);
  try {
    const value = await work();
    return { value, sent: recorder.sent };
  } finally {
    dataSource.subscribers.splice(dataSource.subscribers.indexOf(recorder), 1);
  }
}
