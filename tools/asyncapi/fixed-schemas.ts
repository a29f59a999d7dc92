import { ID_PATTERN } from '@openq/contracts';
import { CORRELATION_HEADER, TRACE_HEADERS } from '@openq/messaging';
import { SCHEMA_REF_PREFIX, type JsonSchema } from './dto-schemas';

/** The parts of the wire that are not DTOs: the channel parameter, NATS headers, the failed reply. */

export function projectIdParameter(): Record<string, unknown> {
  return {
    description: `The project's id (SPEC §2: matches \`${ID_PATTERN.source}\`), also the envelope's \`projectId\`.`,
    location: '$message.payload#/projectId',
    examples: ['p1'],
  };
}

/** Headers and the error reply (`ErrorBody` of libs/contracts/src/errors.ts, an interface: the test checks its keys). */
export function fixedSchemas(): Record<string, JsonSchema> {
  const trace = Object.fromEntries(
    TRACE_HEADERS.map((h) => [h, { type: 'string', description: 'W3C trace context, when there is one.' }]),
  );
  return {
    EventHeaders: {
      type: 'object',
      properties: {
        'Nats-Msg-Id': {
          type: 'string',
          description: 'The eventId: JetStream drops a second publish of it within the duplicate window.',
        },
        ...trace,
      },
      required: ['Nats-Msg-Id'],
    },
    RequestHeaders: {
      type: 'object',
      properties: {
        [CORRELATION_HEADER]: {
          type: 'string',
          description: "The caller's correlation id (the gateway's x-correlation-id).",
        },
        ...trace,
      },
    },
    ErrorBody: {
      type: 'object',
      description:
        'SPEC §4/§8. A service may add fields (e.g. the questionIds of a 409 gate_aguarda_decisao).',
      properties: {
        statusCode: { type: 'integer' },
        reason: { type: 'string' },
        message: { type: 'string' },
      },
      required: ['statusCode', 'reason', 'message'],
    },
    ErrorReply: {
      type: 'object',
      properties: { ok: { const: false }, error: { $ref: `${SCHEMA_REF_PREFIX}ErrorBody` } },
      required: ['ok', 'error'],
      additionalProperties: false,
    },
  };
}
