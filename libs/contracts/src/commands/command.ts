import type { ClassConstructor } from 'class-transformer';
import type { MessageDefinition } from '../registry';
import { requestSubject } from '../subjects';

/** A request/reply endpoint: `openq.<service>.<verb>` (SPEC §8). */
export interface VerbPair {
  readonly service: string;
  readonly verb: string;
}

/**
 * A command or query: its subject, the DTO its payload must satisfy and (as a type only) the
 * `data` of its successful reply. `type` is the request subject, so one registry serves them all.
 */
export interface CommandDefinition<P extends object = object, R = unknown>
  extends MessageDefinition<P>, VerbPair {
  /** Phantom: never set, carries the reply type for `ReplyOf`. */
  readonly reply?: R;
}

export function defineCommand<P extends object, R>(
  pair: VerbPair,
  dto: ClassConstructor<P>,
  schemaVersion = 1,
): CommandDefinition<P, R> {
  return {
    type: requestSubject(pair.service, pair.verb),
    schemaVersion,
    dto,
    service: pair.service,
    verb: pair.verb,
  };
}

export type PayloadOf<C> = C extends CommandDefinition<infer P, unknown> ? P : never;
export type ReplyOf<C> = C extends CommandDefinition<object, infer R> ? R : never;
