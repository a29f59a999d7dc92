import { makeEnvelope, type EventEnvelope } from '../envelope';
import { MessageRegistry } from '../registry';
import { AgentEventDefinitions, type AgentEventData, type AgentEventType } from './agent-events';
import { OpenqEventDefinitions, type OpenqEventData, type OpenqEventType } from './openq-events';

/** Every event of both streams: what a consumer of either validates `data` against. */
export const eventRegistry = new MessageRegistry([
  ...Object.values(AgentEventDefinitions),
  ...Object.values(OpenqEventDefinitions),
]);

export type EventType = AgentEventType | OpenqEventType;

export type EventData<T extends EventType> = T extends AgentEventType
  ? AgentEventData<T>
  : T extends OpenqEventType
    ? OpenqEventData<T>
    : never;

/** `makeEnvelope`, typed: the compiler checks `data` against the type's payload. */
export function makeEvent<T extends EventType>(
  type: T,
  projectId: string,
  data: EventData<T>,
  opts: NonNullable<Parameters<typeof makeEnvelope>[3]> = {},
): EventEnvelope<EventData<T>> {
  const definition = eventRegistry.get(type);
  return makeEnvelope(type, projectId, data, { schemaVersion: definition?.schemaVersion ?? 1, ...opts });
}
