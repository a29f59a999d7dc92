export * from './instruction';
export * from './tools';
