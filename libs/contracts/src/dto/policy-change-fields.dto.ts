import { IsBoolean, IsOptional } from 'class-validator';
import { WITHDRAW_MOTIVO_MAX_LENGTH, WITHDRAW_MOTIVO_MIN_LENGTH } from '../limits';
import { FieldReasons } from '../validation';
import { ClassRule, TrimmedText } from '../validators';

/**
 * §12.1 a change of the project's policies, the same at the HTTP edge and on the command: one or
 * both policies and why. A missing, blank or too long `motivo` (1–500 characters after trim) is
 * `motivo_invalido`, as for an override or a withdrawal; neither policy is `corpo_invalido`.
 */
@FieldReasons({ motivo: 'motivo_invalido' })
@ClassRule<PolicyChangeFields>(
  'delegacao|overrideDeMantenedor',
  (o) => o.delegacao !== undefined || o.overrideDeMantenedor !== undefined,
  'give delegacao, overrideDeMantenedor or both',
)
export class PolicyChangeFields {
  @TrimmedText(WITHDRAW_MOTIVO_MIN_LENGTH, WITHDRAW_MOTIVO_MAX_LENGTH)
  motivo!: string;

  @IsOptional()
  @IsBoolean()
  delegacao?: boolean;

  @IsOptional()
  @IsBoolean()
  overrideDeMantenedor?: boolean;
}
