import { GATE_HISTORY_LIMIT_DEFAULT, GATE_HISTORY_LIMIT_MAX } from '../limits';
import { IntFromString, IntRange } from '../validators';

/**
 * [openq] `GET /projects/:projectId/gate-history?limit=` and
 * `GET /projects/:projectId/tasks/:taskId/gates/:gate/history?limit=`: newest first, `limit`
 * 1..50 (default 20); a bad one is 400 `parametro_invalido`.
 */
export class GateHistoryQuery {
  @IntFromString()
  @IntRange(1, GATE_HISTORY_LIMIT_MAX)
  limit: number = GATE_HISTORY_LIMIT_DEFAULT;
}
