/**
 * Prints docs/asyncapi.yaml: an AsyncAPI 3.0 document of every subject openq uses, generated from
 * libs/contracts (the event and command registries and their class-validator DTOs):
 *
 *   npm run asyncapi        # = npm run build && node dist/tools/render-asyncapi.js > docs/asyncapi.yaml
 *
 * A unit test (render-asyncapi.spec.ts) fails when the checked-in file differs from this output.
 */
import './register-paths';
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document } from 'yaml';
import {
  STREAMS,
  commandRegistry,
  eventRegistry,
  streamOfType,
  type CommandDefinition,
  type EventType,
  type MessageDefinition,
} from '@openq/contracts';
import { EventEnvelopeDto, durableName, durableOf } from '@openq/messaging';
import { SCHEMA_REF_PREFIX, dtoSchemas, type JsonSchema, type LooseNote } from './asyncapi/dto-schemas';
import {
  ENGINE_CONSUMES,
  PARTY_DESCRIPTIONS,
  consumersOf,
  publisherOf,
  requestersOf,
  type Party,
} from './asyncapi/parties';
import { fixedSchemas, projectIdParameter } from './asyncapi/fixed-schemas';
import { repoRoot, replyTypes, type ReplyType } from './asyncapi/reply-types';

type Json = Record<string, unknown>;

export interface AsyncapiDocument extends Json {
  asyncapi: '3.0.0';
  info: Json;
  channels: Record<string, Json>;
  operations: Record<string, Json>;
  components: {
    schemas: Record<string, JsonSchema>;
    messages: Record<string, Json>;
    parameters: Record<string, Json>;
  };
}

const ref = (...path: string[]) => ({
  $ref: `#/${path.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
});
const schemaRef = (name: string) => ({ $ref: `${SCHEMA_REF_PREFIX}${name}` });
const tag = (party: Party) => ({ name: party });
const partyLabel = (party: Party) =>
  party === 'gateway' ? 'gateway (SSE)' : party === 'engine' ? 'engine (external)' : party;

const INFO_DESCRIPTION = `Every subject openq uses on NATS (SPEC §8), generated from libs/contracts by
tools/render-asyncapi.ts (\`npm run asyncapi\`); do not edit by hand.

- **Events** travel on two JetStream streams, on subject \`<type>.<projectId>\`, as the envelope
  \`{ eventId, type, schemaVersion, occurredAt, projectId, correlationId, causationId, data }\` with
  header \`Nats-Msg-Id = eventId\`; \`data\` is the type's DTO. \`AGENT_EVENTS\` (\`agent.>\`) is
  published by the engine, \`OPENQ_EVENTS\` by the openq services, only through their outboxes.
- **Requests** \`openq.<service>.<verb>\` (NATS request/reply, queue group = the service) carry the
  command's DTO; the reply is \`{ ok: true, data }\` or \`{ ok: false, error: { statusCode, reason, message } }\`.

Operations are named \`<party>.<send|receive>.<channel>\`, one per party (tags: engine, questions,
gates, context, gateway). The payload schemas are the DTOs' class-validator rules: unknown fields
are refused, texts are trimmed before their length is checked, and a rule over several fields
(e.g. "exactly one of resposta or aceitarSugestao") is stated in the schema's description.
A reply's \`data\` is a TypeScript type (named, not validated at runtime).`;

/** The document, plus what could not be rendered exactly (empty today; the test pins it). */
export function buildAsyncapi(): { document: AsyncapiDocument; loose: LooseNote[] } {
  const root = repoRoot();
  const events = eventRegistry.types().map((type) => eventRegistry.get(type)!);
  const commands = commandRegistry.types().map((type) => commandRegistry.get(type) as CommandDefinition);
  const { schemas, loose } = dtoSchemas([
    EventEnvelopeDto,
    ...events.map((e) => e.dto),
    ...commands.map((c) => c.dto),
  ]);
  const fixed = fixedSchemas();
  const clash = Object.keys(fixed).filter((name) => name in schemas);
  if (clash.length > 0)
    throw new Error(`DTO names clash with the document's own schemas: ${clash.join(', ')}`);
  const document: AsyncapiDocument = {
    asyncapi: '3.0.0',
    info: {
      title: 'openq messaging',
      version: (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version,
      description: INFO_DESCRIPTION,
      tags: (Object.keys(PARTY_DESCRIPTIONS) as Party[]).map((p) => ({
        name: p,
        description: PARTY_DESCRIPTIONS[p],
      })),
    },
    defaultContentType: 'application/json',
    servers: {
      nats: {
        host: '127.0.0.1:4222',
        protocol: 'nats',
        description: 'NATS with JetStream (`NATS_URL`, default nats://127.0.0.1:4222).',
      },
    },
    channels: {},
    operations: {},
    components: {
      schemas: { ...schemas, ...fixed },
      messages: {},
      parameters: { projectId: projectIdParameter() },
    },
  };
  for (const event of events) addEvent(document, event);
  const replies = replyTypes(root);
  for (const command of commands) addCommand(document, command, replies.get(command.type));
  return { document, loose };
}

export function renderAsyncapi(): string {
  const yaml = new Document(buildAsyncapi().document, { aliasDuplicateObjects: false });
  yaml.commentBefore =
    ' Generated by `npm run asyncapi` (tools/render-asyncapi.ts) from libs/contracts. Do not edit.';
  return yaml.toString({ lineWidth: 0 });
}

function addEvent(doc: AsyncapiDocument, event: MessageDefinition): void {
  const type = event.type as EventType;
  const stream = STREAMS[streamOfType(type)];
  const publisher = publisherOf(type);
  const consumers = consumersOf(type);
  doc.channels[type] = {
    address: `${type}.{projectId}`,
    title: type,
    description:
      `Stream \`${stream.name}\`. Published by ${publisher}; ` +
      `consumed by ${consumers.length > 0 ? consumers.map(partyLabel).join(', ') : 'no openq service'}.`,
    parameters: { projectId: ref('components', 'parameters', 'projectId') },
    messages: { [type]: ref('components', 'messages', type) },
    'x-stream': stream.name,
  };
  doc.components.messages[type] = {
    name: type,
    title: type,
    summary: `Envelope of ${type} (schemaVersion ${event.schemaVersion}); data: ${event.dto.name}.`,
    contentType: 'application/json',
    headers: schemaRef('EventHeaders'),
    payload: {
      allOf: [
        schemaRef(EventEnvelopeDto.name),
        {
          type: 'object',
          properties: {
            type: { const: type },
            schemaVersion: { const: event.schemaVersion },
            data: schemaRef(event.dto.name),
          },
        },
      ],
    },
  };
  const message = [ref('channels', type, 'messages', type)];
  doc.operations[`${publisher}.send.${type}`] = {
    action: 'send',
    channel: ref('channels', type),
    messages: message,
    summary: `${publisher} publishes ${type}`,
    description:
      publisher === 'engine'
        ? 'On AGENT_EVENTS, with `Nats-Msg-Id = eventId` (libs/agent-sdk dedupes tool calls by `toolCallId`).'
        : 'Through the transactional outbox: the relay publishes with `Nats-Msg-Id = eventId` and waits for the PubAck.',
    tags: [tag(publisher)],
  };
  for (const consumer of consumers) {
    doc.operations[`${consumer}.receive.${type}`] = {
      action: 'receive',
      channel: ref('channels', type),
      messages: message,
      summary: `${consumer} consumes ${type}`,
      ...receiveDetails(consumer, type),
      tags: [tag(consumer)],
    };
  }
}

function receiveDetails(consumer: Party, type: EventType): Json {
  if (consumer === 'engine') {
    return {
      description: `Outside this repository. ${ENGINE_CONSUMES[type as keyof typeof ENGINE_CONSUMES]}.`,
      'x-external': true,
    };
  }
  if (consumer === 'gateway') {
    return {
      description:
        'The SSE live tail: one ephemeral no-ack consumer per gateway process over OPENQ_EVENTS, fanned out to the ' +
        "project's browsers (`GET /projects/{projectId}/stream`). Nothing is acked, stored or published.",
    };
  }
  const durable = durableOf(consumer, type);
  if (durable !== durableName(consumer, type)) {
    return {
      description: `Rides the durable pull consumer \`${durable}\` (the whole stream, no filter) with the service's other types, exactly once through the inbox table.`,
      'x-durable': durable,
    };
  }
  return {
    description: `Durable pull consumer \`${durable}\` (filter \`${type}.*\`), exactly once through the inbox table.`,
    'x-durable': durable,
  };
}

function addCommand(doc: AsyncapiDocument, command: CommandDefinition, reply: ReplyType | undefined): void {
  const subject = command.type;
  const replyChannel = `${subject}.reply`;
  const requesters = requestersOf(subject);
  if (!reply) throw new Error(`no reply type found for ${subject} in libs/contracts/src/commands`);
  doc.channels[subject] = {
    address: subject,
    title: subject,
    description: `Request/reply, queue group \`${command.service}\`. Requested by ${requesters.join(', ')}; answered by ${command.service}.`,
    messages: { request: ref('components', 'messages', `${subject}.request`) },
  };
  doc.channels[replyChannel] = {
    address: null,
    title: `${subject} (reply)`,
    description: "The requester's NATS inbox: the request's reply subject.",
    messages: { reply: ref('components', 'messages', replyChannel) },
  };
  doc.components.messages[`${subject}.request`] = {
    name: `${subject}.request`,
    title: `${subject} request`,
    summary: `Payload: ${command.dto.name}.`,
    contentType: 'application/json',
    headers: schemaRef('RequestHeaders'),
    payload: schemaRef(command.dto.name),
  };
  doc.components.messages[replyChannel] = {
    name: replyChannel,
    title: `${subject} reply`,
    summary: `{ ok: true, data: ${reply.type} } or { ok: false, error }.`,
    contentType: 'application/json',
    payload: {
      oneOf: [
        {
          type: 'object',
          properties: {
            ok: { const: true },
            data: {
              description: `\`${reply.type}\` (${reply.file}): a TypeScript type, not a runtime schema.`,
              'x-ts-type': reply.type,
            },
          },
          required: ['ok', 'data'],
          additionalProperties: false,
        },
        schemaRef('ErrorReply'),
      ],
    },
  };
  const requestOp = {
    channel: ref('channels', subject),
    messages: [ref('channels', subject, 'messages', 'request')],
    reply: {
      channel: ref('channels', replyChannel),
      messages: [ref('channels', replyChannel, 'messages', 'reply')],
    },
  };
  for (const requester of requesters) {
    doc.operations[`${requester}.send.${subject}`] = {
      action: 'send',
      ...requestOp,
      summary: `${requester} requests ${subject}`,
      tags: [tag(requester)],
    };
  }
  doc.operations[`${command.service}.receive.${subject}`] = {
    action: 'receive',
    ...requestOp,
    summary: `${command.service} answers ${subject}`,
    bindings: { nats: { queue: command.service, bindingVersion: '0.1.0' } },
    tags: [tag(command.service as Party)],
  };
}

if (require.main === module) {
  process.stdout.write(renderAsyncapi());
}
