export const GATES_MIGRATIONS: (new () => unknown)[] = [];
