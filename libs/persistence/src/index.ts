export * from './data-source';
export * from './database-url';
export * from './db-errors';
export * from './unavailable';
export * from './records/outbox.record';
export * from './records/inbox.record';
export * from './records/dead-letter.record';
export * from './records/consumer-position.record';
