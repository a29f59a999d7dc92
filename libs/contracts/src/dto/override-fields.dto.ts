import { Equals, ValidateIf } from 'class-validator';
import { OVERRIDE_MOTIVO_MAX_LENGTH, OVERRIDE_MOTIVO_MIN_LENGTH } from '../limits';
import { FieldReasons } from '../validation';
import { TrimmedText, compose } from '../validators';

/** §11.1 stable reasons of a bad override: `override` not `true`; `motivo` missing, blank or too long. */
export const OVERRIDE_REASONS = {
  override: 'override_invalido',
  motivo: 'motivo_invalido',
} as const;

interface MaybeOverride {
  override?: unknown;
  motivo?: unknown;
}

const sendsOverride = (o: MaybeOverride) => o.override !== undefined || o.motivo !== undefined;

/** `override`: absent with `motivo`, else exactly `true`. */
export const OverrideFlag = (): PropertyDecorator =>
  compose(
    ValidateIf(sendsOverride),
    Equals(true, { message: '$property must be true to resume without the answer (with a motivo)' }),
  );

/** `motivo` of an override: required with `override`, 1–500 characters after trim. */
export const OverrideMotivo = (): PropertyDecorator =>
  compose(ValidateIf(sendsOverride), TrimmedText(OVERRIDE_MOTIVO_MIN_LENGTH, OVERRIDE_MOTIVO_MAX_LENGTH));

/**
 * §11.1 a maintainer resumes a cycle parked on a user decision without the answer:
 * `{ override: true, motivo }` (motivo 1–500 characters after trim). Neither field: the §4
 * resume of an idle park. One without the other, or `override` other than `true`, is refused
 * with the field's reason (`override_invalido`, `motivo_invalido`).
 */
@FieldReasons(OVERRIDE_REASONS)
export abstract class OverrideFields {
  @OverrideFlag()
  override?: true;

  @OverrideMotivo()
  motivo?: string;
}
