export const PIPELINE_MIGRATIONS: (new () => unknown)[] = [];
