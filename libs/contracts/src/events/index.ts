export * from './agent-events';
export * from './event-registry';
export * from './openq-events';
export type { ConsumingService, EventRow, Party } from './event-table';
