import type { AfterQueryEvent, EntitySubscriberInterface } from 'typeorm';

/**
 * Every statement a data source sends, as PostgreSQL gets it (for specs and benches that count
 * round trips): `dataSource.subscribers.push(recorder)`, then read `sent`.
 */
export class StatementRecorder implements EntitySubscriberInterface {
  sent: string[] = [];
  afterQuery(event: AfterQueryEvent): void {
    this.sent.push(event.query);
  }
}
