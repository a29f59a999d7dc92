import { Param, Query, type PipeTransform } from '@nestjs/common';
import { ID_PATTERN, isId, isUuid } from '@openq/contracts';
import { httpError, Reason } from './http-error';

class CheckedPipe implements PipeTransform<unknown, string> {
  constructor(
    private readonly name: string,
    private readonly accepts: (value: unknown) => boolean,
    private readonly expected: string,
  ) {}

  transform(value: unknown): string {
    if (!this.accepts(value))
      throw httpError(400, Reason.badParameter, `${this.name} must be ${this.expected}`);
    return value as string;
  }
}

const idPipe = (name: string) => new CheckedPipe(name, isId, `an id matching ${ID_PATTERN.source}`);

/** A path id (`projectId`, `taskId`, `storyId`, …) that becomes a NATS subject token (SPEC §2). */
export const IdParam = (name: string): ParameterDecorator => Param(name, idPipe(name));

/** A path UUID (`questionId`). */
export const UuidParam = (name: string): ParameterDecorator =>
  Param(name, new CheckedPipe(name, isUuid, 'a UUID'));

/** A path word from a closed list (`gate`, `action`). */
export const OneOfParam = (name: string, values: readonly string[]): ParameterDecorator =>
  Param(
    name,
    new CheckedPipe(name, (v) => typeof v === 'string' && values.includes(v), `one of: ${values.join(', ')}`),
  );

/** A query word from a closed list, required (`role`). */
export const OneOfQuery = (name: string, values: readonly string[]): ParameterDecorator =>
  Query(
    name,
    new CheckedPipe(name, (v) => typeof v === 'string' && values.includes(v), `one of: ${values.join(', ')}`),
  );
