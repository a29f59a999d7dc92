import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { absentMeansEmpty, validateAs } from '@openq/contracts';
import { httpError, Reason } from './http-error';

const PLAIN = new Set<unknown>([String, Number, Boolean, Array, Object, undefined]);

/**
 * Validates `@Body()` and `@Query()` against their DTO class from `@openq/contracts` with
 * `validateAs` (whitelist + forbid unknown fields): 400 `corpo_invalido` / `parametro_invalido`
 * with a message naming the first failing field. Nothing unvalidated reaches a service.
 */
@Injectable()
export class ContractValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' && metadata.type !== 'query') return value;
    const cls = metadata.metatype;
    if (metadata.data !== undefined || PLAIN.has(cls) || !cls) {
      // A single named query value is checked by its own param pipe; a body must have a DTO.
      if (metadata.type === 'body') throw new Error('a route reads a body without a DTO class');
      return value;
    }
    const isBody = metadata.type === 'body';
    // A body that may be left out (`@AbsentMeansEmpty()`) reads as `{}` when none was sent.
    const sent = isBody && value === undefined && absentMeansEmpty(cls) ? {} : value;
    const result = validateAs(
      cls as new () => object,
      isBody ? sent : { ...(value as object) },
      isBody ? Reason.badBody : Reason.badParameter,
    );
    if (!result.ok) throw httpError(400, result.reason, result.message);
    return result.value;
  }
}
