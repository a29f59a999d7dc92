export * from './agent-events';
export * from './event-registry';
export * from './openq-events';
export type { ConsumingService, EventRow, Party } from './event-table';
export { RETIRED_CONSUMERS, type RetiredConsumer } from './event-table';
export * from './openq-event-types';
