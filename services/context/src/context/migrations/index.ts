import { ContextReadModels1764470300000 } from './1764470300000-context-read-models';

export const CONTEXT_MIGRATIONS: (new () => unknown)[] = [ContextReadModels1764470300000];
