export * from './instruction';
export * from './tools';
export * from './client';
export * from './analyst';
