import {
  STREAMS,
  typeOfSubject,
  validateAs,
  type EventEnvelope,
  type MessageRegistry,
  type RefusalReason,
} from '@openq/contracts';
import { decodeJson } from '../codec';
import { EventEnvelopeDto } from '../envelope.dto';

/*
 * Decoding and validating an inbound message: the trust boundary of every consumer (and of the
 * gateway's events route). Pure: no database, no broker.
 */

/** What `parseEventMessage` makes of a message: its envelope, or why it is refused (dead-lettered). */
export type ParsedEventMessage =
  | { ok: true; envelope: EventEnvelope }
  | { ok: false; reason: RefusalReason; message: string; envelope: EventEnvelope | null };

/**
 * Parses one stream message as every consumer does: JSON, then `checkEventEnvelope` against the
 * message's subject. A refusal names the reason the dead letter records; `envelope` is kept when
 * only `data` failed. Replays of read models use it too, so they refuse exactly what consumers do.
 */
export function parseEventMessage(
  msg: { subject: string; data: Uint8Array },
  registry?: MessageRegistry,
): ParsedEventMessage {
  const decoded = decodeJson(msg.data);
  if (!decoded.ok)
    return { ok: false, reason: 'json_invalido', message: `not JSON: ${decoded.error}`, envelope: null };
  return checkEventEnvelope(decoded.value, msg.subject, registry);
}

/**
 * The one check of an event envelope (SPEC §8), for consumers and for the gateway's events route
 * (SPEC §11.4) alike: the envelope's shape, that it belongs on `subject` (`<type>.<projectId>`),
 * then `data`. What comes from outside (`agent.*`, the engine's stream; the events route takes
 * only those) is validated against the registry (its validated instance replaces `data`). openq's
 * own events (`OPENQ_EVENTS`, published only by openq services from their outbox, SPEC §8) are
 * trusted: their data was checked before it was written, so only the type is looked up and the
 * envelope's shape is checked cheaply, without class-validator. `field` names the first failing
 * field (`data.<field>` for the payload's own).
 */
export function checkEventEnvelope(
  value: unknown,
  subject: string,
  registry?: MessageRegistry,
): ParsedEventMessage & { field?: string } {
  const trusted = isTrustedSubject(subject);
  const shape = trusted ? trustedShape(value) : validateAs(EventEnvelopeDto, value, 'envelope_invalido');
  if (!shape.ok) {
    const field = 'field' in shape ? (shape.field as string | undefined) : undefined;
    return {
      ok: false,
      reason: shape.reason,
      ...(field ? { field } : {}),
      message: shape.message,
      envelope: null,
    };
  }
  const envelope = value as EventEnvelope;
  if (`${envelope.type}.${envelope.projectId}` !== subject) {
    return {
      ok: false,
      reason: 'envelope_invalido',
      field: typeOfSubject(subject) === envelope.type ? 'projectId' : 'type',
      message: `subject ${subject} does not match type ${envelope.type} and projectId`,
      envelope: null,
    };
  }
  if (registry && trusted) {
    if (!registry.get(envelope.type))
      return { ok: false, reason: 'tipo_desconhecido', message: `unknown type ${envelope.type}`, envelope };
  } else if (registry) {
    const data = registry.validate(envelope.type, envelope.data);
    if (!data.ok) {
      const field = data.field === 'type' ? 'type' : `data.${data.field}`;
      return { ok: false, reason: data.reason, field, message: data.message, envelope };
    }
    envelope.data = data.value as Record<string, unknown>;
  }
  return { ok: true, envelope };
}

/** openq's own events: the subjects of `OPENQ_EVENTS`, which only openq services publish (SPEC §8). */
export function isTrustedSubject(subject: string): boolean {
  return TRUSTED_PREFIXES.some((prefix) => subject.startsWith(prefix));
}

const TRUSTED_PREFIXES = STREAMS.openqEvents.subjects.map((s) => s.replace(/>$/, ''));

/** The envelope fields a handler reads, checked without class-validator (a trusted message). */
function trustedShape(value: unknown): { ok: true } | { ok: false; reason: RefusalReason; message: string } {
  const e = value as Partial<Record<keyof EventEnvelope, unknown>> | null;
  const fine =
    typeof e === 'object' &&
    e !== null &&
    !Array.isArray(e) &&
    typeof e.eventId === 'string' &&
    typeof e.type === 'string' &&
    typeof e.projectId === 'string' &&
    typeof e.correlationId === 'string' &&
    typeof e.occurredAt === 'string' &&
    typeof e.data === 'object' &&
    e.data !== null &&
    !Array.isArray(e.data);
  return fine
    ? { ok: true }
    : {
        ok: false,
        reason: 'envelope_invalido',
        message: 'not an event envelope (eventId, type, projectId, correlationId, occurredAt, data)',
      };
}
