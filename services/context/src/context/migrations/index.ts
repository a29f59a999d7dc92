export const CONTEXT_MIGRATIONS: (new () => unknown)[] = [];
