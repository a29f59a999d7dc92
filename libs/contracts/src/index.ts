export * from './envelope';
export * from './errors';
export * from './ids';
export * from './registry';
export * from './subjects';
export * from './validation';
