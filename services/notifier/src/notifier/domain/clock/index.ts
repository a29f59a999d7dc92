export * from './business-time';
export * from './clock-policy';
export * from './schedule';
export * from './working-time';
export * from './wall-clock';
