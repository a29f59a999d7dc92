import { v5 as uuidv5 } from 'uuid';
import {
  agentEventRegistry,
  eventSubject,
  makeEnvelope,
  newId,
  type AgentEventDataMap,
  type AgentEventType,
  type EventEnvelope,
} from '@openq/contracts';

/** [openq] The namespace of agent event ids (uuid v5): fixed forever, or dedupe breaks across versions. */
export const AGENT_EVENT_ID_NAMESPACE = '3b5d83d8-2e20-4a9b-bcb6-217b7ba64308';

/**
 * The eventId of an agent event born from `key` (a toolCallId, a roundId, a caller's idempotency
 * key): uuid v5 of (projectId, type, key). The same call published twice has the same eventId,
 * hence the same `Nats-Msg-Id`, and JetStream keeps one copy within its duplicate window.
 */
export function agentEventId(projectId: string, type: AgentEventType, key: string): string {
  return uuidv5(JSON.stringify([projectId, type, key]), AGENT_EVENT_ID_NAMESPACE);
}

/** A payload the contract refuses: nothing was published. `field` names the first failing field. */
export class AgentEventInvalid extends Error {
  constructor(
    readonly type: AgentEventType,
    readonly field: string,
    readonly reason: string,
    detail: string,
  ) {
    super(`${type}: invalid payload: ${detail}`);
    this.name = 'AgentEventInvalid';
  }
}

export interface PublishOptions {
  /**
   * Dedupe key for events that carry no `toolCallId`: the same key (per project and type) gives
   * the same eventId. Default: the `roundId` for a QA verdict, a fresh id for the others.
   */
  idempotencyKey?: string;
  correlationId?: string;
  causationId?: string | null;
  /** W3C trace context, sent as the `traceparent` header. */
  traceparent?: string;
  occurredAt?: Date;
}

/**
 * The envelope the publisher sends (exported for engines that publish by other means): `data` is
 * checked against the contract (throws `AgentEventInvalid`), the eventId derived from `key` when
 * there is one (see `agentEventId`), else fresh.
 */
export function buildAgentEvent<T extends AgentEventType>(
  type: T,
  projectId: string,
  data: AgentEventDataMap[T],
  key?: string,
  options: PublishOptions = {},
): EventEnvelope<AgentEventDataMap[T]> {
  const checked = agentEventRegistry.validate(type, data);
  if (!checked.ok) throw new AgentEventInvalid(type, checked.field, checked.reason, checked.message);
  eventSubject(type, projectId); // throws on a projectId that is not a subject-safe id
  if (key !== undefined && (typeof key !== 'string' || key.length === 0))
    throw new Error(`${type}: the idempotency key must be a non-empty string`);
  return makeEnvelope(type, projectId, data, {
    eventId: key === undefined ? newId() : agentEventId(projectId, type, key),
    schemaVersion: agentEventRegistry.get(type)?.schemaVersion ?? 1,
    ...(options.correlationId !== undefined ? { correlationId: options.correlationId } : {}),
    ...(options.causationId !== undefined ? { causationId: options.causationId } : {}),
    ...(options.occurredAt !== undefined ? { occurredAt: options.occurredAt } : {}),
  });
}
