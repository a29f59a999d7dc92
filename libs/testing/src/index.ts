export * from './database';
export * from './event-collector';
export * from './nats-server';
export * from './wait-for';
export * from './prometheus';
export * from './service-database';
export * from './suite-tag';
export * from './analytics-recompute';
