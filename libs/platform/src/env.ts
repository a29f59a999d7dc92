import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsInt, Max, Min, validateSync } from 'class-validator';

/** Bad configuration: the process refuses to start and prints `message` (one line, names the variable). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** An integer variable (`"25"` → 25), `min`..`max`. */
export function EnvInt(min: number, max = Number.MAX_SAFE_INTEGER, message?: string): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value,
    )(target, key);
    const options = message ? { message } : undefined;
    IsInt({ message: message ?? '$property must be an integer' })(target, key);
    Min(min, options)(target, key);
    Max(max, options)(target, key);
  };
}

/** A boolean variable: true/false, 1/0, yes/no, on/off (any case). */
export function EnvBool(): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }: { value: unknown }) => {
      if (typeof value !== 'string') return value;
      const v = value.toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(v)) return true;
      if (['false', '0', 'no', 'off'].includes(v)) return false;
      return value;
    })(target, key);
    IsBoolean({ message: '$property must be true or false' })(target, key);
  };
}

/** A comma-separated list variable; blanks dropped. */
export function EnvList(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : value,
  );
}

/**
 * Validates the variables a class declares (its properties, named exactly as in the environment,
 * with their defaults) with class-validator. Empty values count as unset. The first problem
 * becomes a one-line `ConfigError` naming the variable; `secrets` are never echoed.
 */
export function parseEnv<T extends object>(
  cls: new () => T,
  env: NodeJS.ProcessEnv = process.env,
  secrets: ReadonlySet<string> = new Set(),
): T {
  const plain: Record<string, string> = {};
  for (const key of Object.keys(new cls())) {
    const raw = env[key]?.trim();
    if (raw !== undefined && raw !== '') plain[key] = raw;
  }
  const parsed = plainToInstance(cls, plain, { exposeDefaultValues: true });
  const first = validateSync(parsed, { forbidUnknownValues: true })[0];
  if (first) {
    const message = Object.values(first.constraints ?? {})[0] ?? `${first.property} is invalid`;
    const shown = secrets.has(first.property) ? '' : ` (got ${JSON.stringify(plain[first.property])})`;
    throw new ConfigError(`Invalid configuration: ${message}${shown}`);
  }
  return parsed;
}
