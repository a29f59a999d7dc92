import { FieldReasons } from '../validation';
import { IsOptional } from 'class-validator';
import { ASKER_ROLES, READINESS_ACTIONS, type AskerRole, type ReadinessAction } from '../vocabulary';
import { FREEZE_MOTIVO_MAX_LENGTH, FREEZE_MOTIVO_MIN_LENGTH } from '../limits';
import { IsEntityId, IsOneOf, TrimmedText } from '../validators';

/** `GET /internal/projects/:projectId/turn-context?role=` (400 on an unknown role). */
export class TurnContextQuery {
  @IsOneOf(ASKER_ROLES)
  role!: AskerRole;
}

/** `GET /projects/:projectId/pipeline/queue?repo=`. */
export class PipelineQueueQuery {
  @IsOptional()
  @IsEntityId()
  repo?: string;
}

/** `GET /projects/:projectId/readiness/:action` (path parameter; 400 on an unknown action). */
export class ReadinessParams {
  @IsOneOf(READINESS_ACTIONS)
  action!: ReadinessAction;
}

/**
 * `POST /projects/:projectId/pipeline/repos/:repo/freeze` (§11.3): why the repo is frozen. A
 * missing, blank or too long `motivo` is `motivo_invalido`, as for an override (§11.1).
 */
@FieldReasons({ motivo: 'motivo_invalido' })
export class RepoFreezeBody {
  @TrimmedText(FREEZE_MOTIVO_MIN_LENGTH, FREEZE_MOTIVO_MAX_LENGTH)
  motivo!: string;
}
