export * from './agent-events';
export * from './event-registry';
export * from './openq-events';
