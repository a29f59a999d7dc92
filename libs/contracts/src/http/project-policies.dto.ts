import { IsBoolean, IsOptional } from 'class-validator';
import { WITHDRAW_MOTIVO_MAX_LENGTH, WITHDRAW_MOTIVO_MIN_LENGTH } from '../limits';
import { FieldReasons } from '../validation';
import { ClassRule, TrimmedText } from '../validators';

/**
 * `PUT /projects/:projectId/policies` (§12.1, maintainer): turn delegation and/or a maintainer's
 * override on or off, saying why. A missing, blank or too long `motivo` (1–500 characters after
 * trim) is 400 `motivo_invalido`, as for an override or a withdrawal; neither policy given is 400
 * `corpo_invalido`.
 */
@FieldReasons({ motivo: 'motivo_invalido' })
@ClassRule<ChangePoliciesBody>(
  'delegacao|overrideDeMantenedor',
  (o) => o.delegacao !== undefined || o.overrideDeMantenedor !== undefined,
  'give delegacao, overrideDeMantenedor or both',
)
export class ChangePoliciesBody {
  @TrimmedText(WITHDRAW_MOTIVO_MIN_LENGTH, WITHDRAW_MOTIVO_MAX_LENGTH)
  motivo!: string;

  @IsOptional()
  @IsBoolean()
  delegacao?: boolean;

  @IsOptional()
  @IsBoolean()
  overrideDeMantenedor?: boolean;
}
