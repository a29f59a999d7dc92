import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  registerDecorator,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import { ID_PATTERN, UUID_PATTERN } from './ids';
import { CURSOR_MAX_LENGTH, TOOL_CALL_ID_MAX_LENGTH } from './limits';

/**
 * The building blocks every DTO of the contract is made of, so that one rule ("an id", "a text of
 * 1–500 characters after trim") is written once and reads the same everywhere.
 */

type ClassOf<T> = new (...args: never[]) => T;

/** Applies several property decorators in the order given (so the first failure reads first). */
export function compose(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorate of decorators) decorate(target, key);
  };
}

/** Number of Unicode code points (what a person counts as characters). */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/** Trims strings before validation; other values pass untouched (and fail `IsString`). */
export const Trim = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** Like `Trim`, and an empty or blank string becomes `null` (an absent optional text). */
export const TrimToNull = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  });

/** A string of `min`..`max` characters (code points). */
export function CharLength(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'charLength',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && charCount(value) >= min && charCount(value) <= max,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'value'} must have ${min} to ${max} characters${options?.each ? ' each' : ''}`,
      },
    },
    options,
  );
}

/**
 * Text PostgreSQL can store: no NUL (U+0000) and no lone UTF-16 surrogate (neither has a UTF-8
 * form; the database refuses them, which would surface as a 500 or a message retried forever).
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function StorableText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'storableText',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || isStorableText(value),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'value'} must not contain NUL characters or unpaired surrogates`,
      },
    },
    options,
  );
}

/** A text of `min`..`max` characters after trim. */
export function TrimmedText(min: number, max: number): PropertyDecorator {
  return compose(Trim(), IsString(), CharLength(min, max), StorableText());
}

/** An optional text (absent, null or blank → absent); when present, 1..`max` characters after trim. */
export function OptionalTrimmedText(max: number): PropertyDecorator {
  return compose(TrimToNull(), IsOptional(), IsString(), CharLength(1, max), StorableText());
}

/** A list of short texts, each `1..maxLength` characters after trim. */
export function TrimmedTextList(maxItems: number, maxLength: number): PropertyDecorator {
  return compose(
    IsArray(),
    ArrayMaxSize(maxItems),
    Transform(({ value }: { value: unknown }) =>
      Array.isArray(value) ? value.map((v: unknown) => (typeof v === 'string' ? v.trim() : v)) : value,
    ),
    IsString({ each: true }),
    CharLength(1, maxLength, { each: true }),
    StorableText({ each: true }),
  );
}

/** §2 an id that becomes a NATS subject token. */
export function IsEntityId(): PropertyDecorator {
  return Matches(ID_PATTERN, { message: '$property must be an id matching ^[A-Za-z0-9_-]{1,64}$' });
}

/** A list of at most `max` ids. */
export function IsEntityIdList(max: number): PropertyDecorator {
  return compose(
    IsArray(),
    ArrayMaxSize(max),
    Matches(ID_PATTERN, { each: true, message: '$property must hold ids matching ^[A-Za-z0-9_-]{1,64}$' }),
  );
}

/** §2 `questionId`, `decisionEventId`, `eventId`. */
export function IsUuidString(): PropertyDecorator {
  return Matches(UUID_PATTERN, { message: '$property must be a UUID' });
}

export function IsUuidList(max: number): PropertyDecorator {
  return compose(
    IsArray(),
    ArrayMaxSize(max),
    Matches(UUID_PATTERN, { each: true, message: '$property must hold UUIDs' }),
  );
}

/** [openq] the engine's tool-call id: opaque, 1..200 characters, not trimmed. */
export function IsToolCallId(): PropertyDecorator {
  return compose(IsString(), CharLength(1, TOOL_CALL_ID_MAX_LENGTH), StorableText());
}

const CURSOR_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${CURSOR_MAX_LENGTH}}$`);

/** [openq] an opaque list cursor (base64url), as handed out in `nextCursor`. */
export function IsCursor(): PropertyDecorator {
  return Matches(CURSOR_PATTERN, { message: '$property must be a cursor returned as nextCursor' });
}

/** [openq] `Idempotency-Key` of a request: 1 to 128 visible ASCII characters (a UUID, say). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,128}$/;

export function isIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && IDEMPOTENCY_KEY_PATTERN.test(value);
}

export function IsIdempotencyKey(): PropertyDecorator {
  return Matches(IDEMPOTENCY_KEY_PATTERN, { message: '$property must be 1 to 128 visible ASCII characters' });
}

/** One of a closed list of words. */
export function IsOneOf(values: readonly string[], options: ValidationOptions = {}): PropertyDecorator {
  const each = options.each ? ' (each)' : '';
  return IsIn(values, { message: `$property${each} must be one of: ${values.join(', ')}`, ...options });
}

const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO-8601 / RFC 3339 timestamp with date, time and zone (what `Date#toISOString` writes). */
export function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && TIMESTAMP_PATTERN.test(value) && !Number.isNaN(Date.parse(value));
}

export function IsTimestamp(): PropertyDecorator {
  return ValidateBy({
    name: 'isTimestamp',
    validator: {
      validate: (value: unknown) => isTimestamp(value),
      defaultMessage: (args?: ValidationArguments) =>
        `${args?.property ?? 'value'} must be an ISO-8601 timestamp with time zone`,
    },
  });
}

/** A nested object validated against its own DTO. */
export function Nested(cls: () => ClassOf<object>): PropertyDecorator {
  return compose(IsObject(), ValidateNested(), Type(cls));
}

/** A list of nested objects, `min`..`max` long. */
export function NestedList(cls: () => ClassOf<object>, min: number, max: number): PropertyDecorator {
  return compose(IsArray(), ArrayMinSize(min), ArrayMaxSize(max), ValidateNested({ each: true }), Type(cls));
}

/** An integer in `min..max` (the type is checked first, so a string reads "must be an integer"). */
export function IntRange(min: number, max: number = Number.MAX_SAFE_INTEGER): PropertyDecorator {
  return compose(
    IsInt({ message: '$property must be an integer' }),
    Min(min, { message: `$property must be at least ${min}` }),
    Max(max, { message: `$property must be at most ${max}` }),
  );
}

/** A query-string integer: `"25"` becomes 25; anything else stays as sent (and fails `IsInt`). */
export const IntFromString = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : value,
  );

/**
 * A rule over the whole object (exactly one of, at least one of, …). class-validator has no
 * class-level validators, so the rule is registered on a synthetic property named `field`
 * (e.g. `resposta|aceitarSugestao`): it never exists on the wire, so `IsOptional` on the real
 * fields cannot skip it, and the failure names the fields involved. Class decorators run after
 * the property ones, so a field's own error is reported before the rule's.
 */
export function ClassRule<T extends object>(
  field: string,
  holds: (object: T) => boolean,
  message: string,
): ClassDecorator {
  return (target) => {
    registerDecorator({
      name: 'classRule',
      target,
      propertyName: field,
      validator: {
        // The synthetic name has metadata, so the whitelist lets it through: refuse it here.
        validate: (value: unknown, args?: ValidationArguments) =>
          value === undefined && holds(args?.object as T),
        defaultMessage: (args?: ValidationArguments) =>
          args?.value === undefined ? message : `property ${field} should not exist`,
      },
    });
  };
}

/** A field that must be present but may be `null` (`undefined` still fails). */
export const Nullable = (): PropertyDecorator =>
  ValidateIf((_object: object, value: unknown) => value !== null);

/** Present = neither undefined nor null (what `IsOptional` treats as absent). */
export function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null;
}
