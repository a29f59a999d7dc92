import { GateCycles1764470200000 } from './1764470200000-gate-cycles';
import { GateHistory1764480000000 } from './1764480000000-gate-history';
import { WithdrawnQuestions1764490000000 } from './1764490000000-withdrawn-questions';

export const GATES_MIGRATIONS: (new () => unknown)[] = [
  GateCycles1764470200000,
  GateHistory1764480000000,
  WithdrawnQuestions1764490000000,
];
