import 'reflect-metadata';
import type { ClassConstructor } from 'class-transformer';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage, ValidationTypes, type ValidationArguments } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import type { ISchemaConverters } from 'class-validator-jsonschema/build/defaultConverters';
import { ANALYST_PACKAGE_FILES } from '@openq/contracts';

// The `@Type(() => Dto)` targets of nested DTOs live in class-transformer's own storage.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const storage = require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage };
const transformerStorage = storage.defaultMetadataStorage;

/** A JSON Schema (draft-07 / AsyncAPI schema) node, loosely typed. */
export interface JsonSchema {
  [keyword: string]: unknown;
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  description?: string;
}

export const SCHEMA_REF_PREFIX = '#/components/schemas/';

/** What could not be rendered exactly: `<Dto>.<property>: <how>`. */
export type LooseNote = string;

export interface DtoSchemas {
  /** By class name, sorted; every DTO reachable from the roots through nested DTOs. */
  schemas: Record<string, JsonSchema>;
  loose: LooseNote[];
}

const validatorStorage = getMetadataStorage();

/**
 * JSON Schemas of DTO classes from their class-validator metadata (class-validator-jsonschema
 * renders each property), corrected where that library reads the metadata differently from how
 * `validateAs` (libs/contracts/src/validation.ts) applies it:
 * - required = neither `IsOptional` nor a class default (`origin = 'tool'` may be omitted); a
 *   `Nullable()` field is required but may be `null`, an `IsOptional()` one may be absent or `null`;
 * - unknown fields are refused (`whitelist` + `forbidNonWhitelisted`): `additionalProperties: false`;
 * - `ClassRule` (a rule over several fields, registered on a synthetic `a|b` property) is not a
 *   property: its message goes to the object's `description`;
 * - the contract's own validators (`CharLength`, `StorableText`, `IsTimestamp`, the analyst package) are converted here.
 */
export function dtoSchemas(roots: readonly ClassConstructor<object>[]): DtoSchemas {
  const loose = new Set<LooseNote>();
  const byName = new Map<string, ClassConstructor<object>>();
  const schemas: Record<string, JsonSchema> = {};
  const queue = [...roots];
  for (let cls = queue.shift(); cls; cls = queue.shift()) {
    const known = byName.get(cls.name);
    if (known === cls) continue;
    if (known) throw new Error(`two DTO classes are named ${cls.name}: schema names must be unique`);
    byName.set(cls.name, cls);
    schemas[cls.name] = classSchema(
      cls,
      (nested) => queue.push(nested),
      (note) => loose.add(`${cls!.name}.${note}`),
    );
  }
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return { schemas: sorted, loose: [...loose].sort() };
}

function classSchema(
  cls: ClassConstructor<object>,
  reachNested: (cls: ClassConstructor<object>) => void,
  noteLoose: (note: string) => void,
): JsonSchema {
  const metas = validatorStorage.getTargetValidationMetadatas(cls, '', true, false);
  const rendered = targetConstructorToSchema(cls, {
    additionalConverters: converters((name, property) =>
      noteLoose(`${property}: custom validator ${name} not rendered`),
    ),
    classTransformerMetadataStorage: transformerStorage,
    refPointerPrefix: SCHEMA_REF_PREFIX,
  }) as JsonSchema;
  const defaults = Reflect.construct(cls, []) as Record<string, unknown>;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const rules: string[] = [];
  for (const property of propertyOrder(cls, metas)) {
    const own = metas.filter((m) => m.propertyName === property);
    if (own.some((m) => constraintName(m) === 'classRule')) {
      rules.push(ruleMessage(own.find((m) => constraintName(m) === 'classRule')!));
      continue;
    }
    for (const m of own.filter((m) => m.type === ValidationTypes.NESTED_VALIDATION)) {
      const typed = transformerStorage.findTypeMetadata(m.target as ClassConstructor<object>, property);
      if (!typed)
        throw new Error(`${cls.name}.${property}: nested DTO without @Type (use Nested / NestedList)`);
      reachNested(typed.typeFunction() as ClassConstructor<object>);
    }
    const { optional, nullable } = presence(own, property);
    let schema = tidy(rendered.properties?.[property] ?? {});
    if (nullable) schema = orNull(schema);
    const fallback = defaults[property];
    if (fallback !== undefined) schema = order({ ...schema, default: fallback });
    if (!optional && fallback === undefined) required.push(property);
    properties[property] = schema;
  }
  return order({
    type: 'object',
    ...(rules.length > 0
      ? {
          description: `Cross-field rules, as the message a breach gets: ${rules.map((r) => `"${r}"`).join('; ')}.`,
        }
      : {}),
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  });
}

/** Base class fields first, then each subclass's, each in declaration order. */
function propertyOrder(cls: ClassConstructor<object>, metas: ValidationMetadata[]): string[] {
  const chain: unknown[] = [];
  for (
    let c: unknown = cls;
    typeof c === 'function' && c !== Function.prototype;
    c = Object.getPrototypeOf(c)
  ) {
    chain.unshift(c);
  }
  const names = new Set<string>();
  for (const owner of chain) for (const m of metas) if (m.target === owner) names.add(m.propertyName);
  for (const m of metas) names.add(m.propertyName);
  return [...names];
}

function constraintName(meta: ValidationMetadata): string | undefined {
  return meta.constraintCls
    ? validatorStorage.getTargetValidatorConstraints(meta.constraintCls)[0]?.name
    : undefined;
}

function ruleMessage(meta: ValidationMetadata): string {
  const constraint = validatorStorage.getTargetValidatorConstraints(meta.constraintCls)[0];
  const args = { value: undefined, property: meta.propertyName, object: {}, targetName: '', constraints: [] };
  const message: unknown = constraint?.instance.defaultMessage?.(args as ValidationArguments);
  return typeof message === 'string' && message !== '' ? message : `rule over ${meta.propertyName}`;
}

/**
 * What `IsOptional` / `ValidateIf` skip, probed with their own conditions: a field whose
 * validation is skipped for `undefined` may be absent; one skipped for `null` may be `null`.
 */
function presence(metas: ValidationMetadata[], property: string): { optional: boolean; nullable: boolean } {
  const conditions = metas
    .filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION)
    .map((m) => m.constraints[0] as (object: object, value: unknown) => boolean);
  const skips = (value: unknown) => conditions.some((condition) => !condition({ [property]: value }, value));
  return { optional: skips(undefined), nullable: skips(null) };
}

function converters(unknown: (name: string, property: string) => void): ISchemaConverters {
  return {
    // Text lengths count code points, as JSON Schema's minLength / maxLength do.
    charLength: (meta) => ({
      type: 'string',
      minLength: meta.constraints[0],
      maxLength: meta.constraints[1],
    }),
    isTimestamp: { type: 'string', format: 'date-time' },
    isDay: { type: 'string', format: 'date' },
    // No NUL; a lone surrogate has no UTF-8 form and cannot be carried by a conforming producer.
    storableText: { type: 'string', pattern: '^[^\\u0000]*$' },
    // The library's `oneOf` would refuse every date-time where formats are not checked; IsISO8601
    // also takes week and ordinal dates, which no openq producer writes.
    isIso8601: { type: 'string', anyOf: [{ format: 'date-time' }, { format: 'date' }] },
    isAnalystPackage: {
      type: 'object',
      properties: Object.fromEntries(
        ANALYST_PACKAGE_FILES.map((file) => [file, { type: ['string', 'null'], format: 'date-time' }]),
      ),
      additionalProperties: false,
    },
    classRule: {},
    // `pattern` has no flags: a case-insensitive id (UUIDs) spells both cases out.
    matches: (meta, _options) => {
      const [pattern, modifiers] = meta.constraints as [RegExp | string, string | undefined];
      const re = pattern instanceof RegExp ? pattern : new RegExp(pattern, modifiers);
      if (/[msv]/.test(re.flags)) unknown(`matches /${re.flags}`, meta.propertyName);
      return { type: 'string', pattern: re.flags.includes('i') ? caseInsensitive(re.source) : re.source };
    },
    // `IntRange` is IsInt + Min + Max: the library's Min/Max would turn `integer` into `number`.
    min: (meta) => ({ minimum: meta.constraints[0] }),
    max: (meta) => ({ maximum: meta.constraints[0] }),
    // `ArrayUnique(selector)`: the selector is not in the metadata; its message says what is unique.
    arrayUnique: (meta) => {
      const message = meta.message;
      return {
        type: 'array',
        uniqueItems: true,
        ...(typeof message === 'string' ? { description: message } : {}),
      };
    },
    [ValidationTypes.CUSTOM_VALIDATION]: (meta) => {
      unknown(String(meta.type), meta.propertyName);
      return {};
    },
  };
}

/** `[0-9a-f]` → `[0-9a-fA-F]`, `x` → `[xX]`: the same language without the `i` flag. */
export function caseInsensitive(source: string): string {
  const isLetter = (c: string | undefined) => c !== undefined && /[a-z]/i.test(c);
  const other = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += c + (source[i + 1] ?? '');
      i++;
    } else if (inClass && c === ']') {
      inClass = false;
      out += c;
    } else if (inClass && isLetter(c) && source[i + 1] === '-' && isLetter(source[i + 2])) {
      const end = source[i + 2]!;
      out += `${c}-${end}${other(c)}-${other(end)}`;
      i += 2;
    } else if (inClass) {
      out += isLetter(c) ? c + other(c) : c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else {
      out += isLetter(c) ? `[${c}${other(c)}]` : c;
    }
  }
  return out;
}

/** A nested DTO is just its `$ref`; empty `items` go; a bound without a type is a number. */
function tidy(schema: JsonSchema): JsonSchema {
  if (schema.$ref) return { $ref: schema.$ref };
  const out: JsonSchema = { ...schema };
  if (out.items) {
    const items = tidy(out.items);
    if (Object.keys(items).length > 0) out.items = items;
    else delete out.items;
  }
  if (!out.type && (out.minimum !== undefined || out.maximum !== undefined)) out.type = 'number';
  return order(out);
}

function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && !schema.$ref) {
    return order({
      ...schema,
      type: [schema.type, 'null'],
      ...(schema.enum ? { enum: [...schema.enum, null] } : {}),
    });
  }
  return { anyOf: [schema, { type: 'null' }] };
}

const KEY_ORDER = [
  '$ref',
  'type',
  'description',
  'const',
  'enum',
  'default',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'allOf',
];

/** Keywords in one reading order, so the output does not depend on how the library merged them. */
export function order<T extends JsonSchema>(schema: T): T {
  const rank = (k: string) => (KEY_ORDER.includes(k) ? KEY_ORDER.indexOf(k) : KEY_ORDER.length);
  const keys = Object.keys(schema).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return Object.fromEntries(keys.map((k) => [k, schema[k]])) as T;
}
