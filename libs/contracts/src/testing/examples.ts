/**
 * Valid example payloads of every message of the contract, for tests anywhere in the workspace.
 * The records are frozen: take a copy with `clone(...)` / `eventExample(...)` before changing one.
 */
export * from './command-examples';
export * from './event-examples';
export * from './fixtures';
export * from './view-examples';
