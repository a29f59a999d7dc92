import { GateCycles1764470200000 } from './1764470200000-gate-cycles';

export const GATES_MIGRATIONS: (new () => unknown)[] = [GateCycles1764470200000];
