import 'reflect-metadata';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import type { RefusalReason } from './refusals';
import { memoizeValidationMetadata } from './validation-metadata';

memoizeValidationMetadata();

export type Validated<T> =
  { ok: true; value: T } | { ok: false; reason: RefusalReason; field: string; message: string };

/**
 * Validates an untrusted plain value against a DTO class: unknown fields are refused
 * (whitelist + forbid), and the first failing field is named in the result.
 */
export function validateAs<T extends object>(
  cls: ClassConstructor<T>,
  plain: unknown,
  reason: RefusalReason = 'corpo_invalido',
): Validated<T> {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    return { ok: false, reason, field: '(body)', message: 'expected a JSON object' };
  }
  // class-transformer recurses into every nested value: thousands of levels overflow the stack.
  if (nestedDeeperThan(plain, MAX_NESTING)) {
    return { ok: false, reason, field: '(body)', message: `nested deeper than ${MAX_NESTING} levels` };
  }
  const value = plainToInstance(cls, plain, { enableImplicitConversion: false });
  const errors = validateSync(value, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
  });
  if (errors.length === 0) return { ok: true, value };
  const { field, message } = firstFailure(errors);
  const own = fieldReasonsOf(cls)[field.split('.')[0]!];
  return { ok: false, reason: own ?? reason, field, message: `${field}: ${message}` };
}

const FIELD_REASONS = Symbol('openq:fieldReasons');
const ABSENT_MEANS_EMPTY = Symbol('openq:absentMeansEmpty');

/**
 * [openq] Stable reason codes of a DTO's own fields (SPEC §11.1 `motivo_invalido`, …): when the
 * first failing field is one of them, `validateAs` reports its reason instead of the caller's
 * generic one (`corpo_invalido`), so a client can tell which rule it broke without parsing text.
 */
export function FieldReasons(reasons: Readonly<Record<string, RefusalReason>>): ClassDecorator {
  return (target) => Reflect.defineMetadata(FIELD_REASONS, reasons, target);
}

function fieldReasonsOf(cls: object): Readonly<Record<string, RefusalReason>> {
  return (Reflect.getMetadata(FIELD_REASONS, cls) as Record<string, RefusalReason> | undefined) ?? {};
}

/** [openq] A request body that may be left out altogether: no body reads as `{}`. */
export function AbsentMeansEmpty(): ClassDecorator {
  return (target) => Reflect.defineMetadata(ABSENT_MEANS_EMPTY, true, target);
}

export function absentMeansEmpty(cls: object): boolean {
  return Reflect.getMetadata(ABSENT_MEANS_EMPTY, cls) === true;
}

function firstFailure(errors: ValidationError[], prefix = ''): { field: string; message: string } {
  const first = errors[0]!;
  // A failure of the object itself (`forbidUnknownValues` on a class with no rules) names no property.
  const own = first.property ?? '(body)';
  const field = prefix ? `${prefix}.${own}` : own;
  if (first.constraints) {
    const message = Object.values(first.constraints)[0] ?? 'is invalid';
    return { field, message };
  }
  if (first.children && first.children.length > 0) return firstFailure(first.children, field);
  return { field, message: 'is invalid' };
}

/** No contract nests anywhere near this deep; anything deeper is refused before it is walked. */
export const MAX_NESTING = 32;

/** Whether objects/arrays nest more than `max` levels (an iterative walk: never overflows itself). */
function nestedDeeperThan(root: object, max: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(value))
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}
