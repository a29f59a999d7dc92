import { IsEntityId, IsTimestamp } from '../validators';

/**
 * `POST /projects/:projectId/delegations` (§11.6): let `to` answer my questions in this project
 * until `until` (an ISO-8601 instant ahead, at most `DELEGATION_MAX_DAYS` away: the questions
 * service checks those and refuses 400 `delegacao_invalida` with the field).
 */
export class GrantDelegationBody {
  @IsEntityId()
  to!: string;

  @IsTimestamp()
  until!: string;
}
