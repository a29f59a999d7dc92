import type { ClassConstructor } from 'class-transformer';
import { defineMessage, type MessageDefinition } from '../registry';

/**
 * Who takes part in the messaging contract (SPEC §1, §8): the external engine and the services.
 * The event tables name them per event; the AsyncAPI document and its checks read them from there.
 */
export type Party = 'engine' | 'questions' | 'gates' | 'context' | 'notifier' | 'gateway';

/** The openq services that hold durable JetStream consumers (`@EventPattern(type)`). */
export type ConsumingService = 'questions' | 'gates' | 'context' | 'notifier';

/**
 * One published event: its wire type, the DTO its `data` is validated against, who publishes it
 * and which services hold a durable consumer of it. `Data` is the payload type producers build; it
 * only exists for the compiler (the DTO may be looser: `QuestionDeclaredDto` lets `sugestao` be absent).
 */
export interface EventRow<T extends string = string, Data extends object = object> {
  readonly type: T;
  readonly dto: ClassConstructor<object>;
  readonly publisher: Party;
  /** Services with a durable consumer (`@EventPattern(type)`); checked against their code. */
  readonly consumers: readonly ConsumingService[];
  /** Outside the repository: why the engine reads it, where SPEC says so. */
  readonly engine?: string;
  readonly schemaVersion?: number;
  /** Phantom: the payload type (never set at runtime). */
  readonly __data?: Data;
}

/** `eventRow<Payload>()({ … })`: a table row whose `data` type is `Payload`. */
export function eventRow<Data extends object>() {
  return <const T extends string>(row: EventRow<T, Data>): EventRow<T, Data> => row;
}

export type EventTable = Readonly<Record<string, EventRow>>;

/** `{ Name: 'wire.type' }` of a table: the exported `OpenqEvent` / `AgentEvent` constants. */
export type TypesOf<Table extends EventTable> = { readonly [K in keyof Table]: Table[K]['type'] };

/** `{ 'wire.type': Payload }` of a table. */
export type DataMapOf<Table extends EventTable> = {
  [K in keyof Table as Table[K]['type']]: NonNullable<Table[K]['__data']>;
};

/** `{ name: MessageDefinition }` of a table (names in camelCase), what the registries hold. */
export type DefinitionsOf<Table extends EventTable> = {
  readonly [K in keyof Table as Uncapitalize<K & string>]: MessageDefinition<NonNullable<Table[K]['__data']>>;
};

function mapRows<Table extends EventTable, V>(
  table: Table,
  key: (name: string) => string,
  value: (row: EventRow) => V,
): Record<string, V> {
  return Object.fromEntries(Object.entries(table).map(([name, row]) => [key(name), value(row)]));
}

export function typesOf<Table extends EventTable>(table: Table): TypesOf<Table> {
  return mapRows(
    table,
    (name) => name,
    (row) => row.type,
  ) as TypesOf<Table>;
}

export function definitionsOf<Table extends EventTable>(table: Table): DefinitionsOf<Table> {
  return mapRows(
    table,
    (name) => name[0]!.toLowerCase() + name.slice(1),
    (row) => defineMessage(row.type, row.dto, row.schemaVersion),
  ) as DefinitionsOf<Table>;
}

/**
 * A durable consumer a service once had and no longer has: the service deletes it from JetStream
 * when it starts (`retireConsumers` in @openq/messaging), so it neither keeps state nor shows a
 * backlog nobody reads. Listed, never inferred: a process never deletes a consumer it was not told to.
 */
export interface RetiredConsumer {
  service: ConsumingService;
  type: string;
  why: string;
}

export const RETIRED_CONSUMERS: readonly RetiredConsumer[] = [
  // context__question_answered, retired by issue #14, is back since issue #33 (question quality
  // needs `aceitouSugestao`, which only `question.answered` carries).
];
