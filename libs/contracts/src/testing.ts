/** Test fixtures of the contract (a separate entry: production code never imports it). */
export * from './testing/examples';
