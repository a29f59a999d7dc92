import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import {
  Commands,
  VEREDITOS,
  agentEventRegistry,
  commandRegistry,
  errorReply,
  eventRegistry,
  makeEvent,
  okReply,
  openqEventRegistry,
  type CommandDefinition,
  type EventType,
} from '@openq/contracts';
import { agentEventExamples, commandExamples, openqEventExamples } from '@openq/contracts/testing';
import { caseInsensitive, type JsonSchema } from './asyncapi/dto-schemas';
import { requestersOf } from './asyncapi/parties';
import { buildAsyncapi, renderAsyncapi } from './render-asyncapi';

const CHECKED_IN = join(__dirname, '..', 'docs', 'asyncapi.yaml');
const { document: doc, loose } = buildAsyncapi();
const schemas = doc.components.schemas;
const dataSchema = (type: string) => schemas[eventRegistry.get(type)!.dto.name]!;
const prop = (schema: JsonSchema, name: string) => schema.properties![name]!;
const deref = (node: JsonSchema) => (node.$ref ? schemas[node.$ref.split('/').pop()!]! : node);

/** Resolves `#/a/b/c` in the document. */
function resolve(pointer: string): unknown {
  expect(pointer.startsWith('#/')).toBe(true);
  return pointer
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
}

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsIn(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

describe('render-asyncapi', () => {
  it('docs/asyncapi.yaml is exactly what the generator prints (regenerate: npm run asyncapi)', () => {
    expect(readFileSync(CHECKED_IN, 'utf8')).toBe(renderAsyncapi());
  });

  it('renders every DTO constraint (nothing loose), and the YAML reads back as the document', () => {
    expect(loose).toEqual([]);
    expect(parse(renderAsyncapi())).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('has the basic AsyncAPI 3.0 structure, and every $ref resolves', () => {
    expect(doc.asyncapi).toBe('3.0.0');
    expect(typeof doc.info.title).toBe('string');
    expect(typeof doc.info.version).toBe('string');
    for (const [id, channel] of Object.entries(doc.channels)) {
      expect([id, typeof channel.address === 'string' || channel.address === null]).toEqual([id, true]);
      const messages = Object.values(channel.messages as Record<string, JsonSchema>);
      expect(messages.length).toBeGreaterThan(0);
      for (const m of messages) expect(m.$ref).toMatch(/^#\/components\/messages\//);
      const inAddress = [...String(channel.address ?? '').matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(Object.keys((channel.parameters as object | undefined) ?? {})).toEqual(inAddress);
    }
    for (const [id, op] of Object.entries(doc.operations)) {
      expect([id, op.action]).toEqual([id, expect.stringMatching(/^(send|receive)$/)]);
      const channel = (op.channel as JsonSchema).$ref!;
      expect(channel).toMatch(/^#\/channels\/[^/]+$/);
      for (const m of op.messages as JsonSchema[])
        expect(m.$ref!.startsWith(`${channel}/messages/`)).toBe(true);
      const reply = op.reply as { channel: JsonSchema; messages: JsonSchema[] } | undefined;
      for (const m of reply?.messages ?? [])
        expect(m.$ref!.startsWith(`${reply!.channel.$ref}/messages/`)).toBe(true);
    }
    for (const section of ['schemas', 'messages', 'parameters'] as const) {
      for (const key of Object.keys(doc.components[section])) expect(key).toMatch(/^[\w.-]+$/);
    }
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(100);
    for (const r of new Set(refs)) expect([r, resolve(r) !== undefined]).toEqual([r, true]);
  });

  it('has a channel, a message, a publisher and its consumers for every event type of both streams', () => {
    const types = [...agentEventRegistry.types(), ...openqEventRegistry.types()];
    expect(types).toHaveLength(40);
    for (const type of types) {
      expect(doc.channels[type]).toMatchObject({ address: `${type}.{projectId}` });
      expect(doc.components.messages[type]).toBeDefined();
      const ops = Object.entries(doc.operations).filter(
        ([, op]) => (op.channel as JsonSchema).$ref === `#/channels/${type}`,
      );
      expect(ops.filter(([, op]) => op.action === 'send')).toHaveLength(1);
    }
    expect(doc.operations['engine.send.agent.qa.verdict']).toBeDefined();
    expect(doc.operations['gates.receive.agent.qa.verdict']).toMatchObject({
      'x-durable': 'gates__agent_qa_verdict',
    });
    expect(doc.operations['questions.send.question.answered']).toBeDefined();
    for (const c of ['gates', 'notifier', 'gateway'])
      expect(doc.operations[`${c}.receive.question.answered`]).toBeDefined();
    // Context takes the answered state from decision.recorded (issue #14); question quality reads
    // the answer itself (issue #33).
    expect(doc.operations['context.receive.question.answered']).toBeDefined();
    expect(doc.operations['context.receive.decision.recorded']).toBeDefined();
    expect(doc.operations['engine.receive.question.rejected']).toMatchObject({ 'x-external': true });
    expect(doc.operations['gateway.receive.story.corrected']).toBeUndefined();
  });

  it('has a request channel, its reply and the replying queue group for every command', () => {
    expect(commandRegistry.types()).toHaveLength(52);
    for (const subject of commandRegistry.types()) {
      const { service, dto } = commandRegistry.get(subject) as CommandDefinition;
      expect(doc.channels[subject]).toMatchObject({ address: subject });
      expect(doc.channels[`${subject}.reply`]).toMatchObject({ address: null });
      expect(doc.components.messages[`${subject}.request`]).toMatchObject({
        payload: { $ref: `#/components/schemas/${dto.name}` },
      });
      expect(doc.operations[`${service}.receive.${subject}`]).toMatchObject({
        bindings: { nats: { queue: service } },
      });
      for (const requester of requestersOf(subject))
        expect(doc.operations[`${requester}.send.${subject}`]).toBeDefined();
    }
    expect(doc.operations['gates.send.openq.questions.declare']).toBeDefined();
    expect(doc.operations['context.send.openq.questions.status']).toBeDefined();
    // §11.6 the one-tap confirm page reads a question's status through the gateway too.
    expect(doc.operations['gateway.send.openq.questions.status']).toBeDefined();
    const ok = doc.components.messages['openq.gates.list.reply']!.payload as { oneOf: JsonSchema[] };
    expect(prop(ok.oneOf[0]!, 'data')).toMatchObject({ 'x-ts-type': 'GateView[]' });
    expect(Object.keys(okReply(1))).toEqual(ok.oneOf[0]!.required);
    expect(Object.keys(errorReply(400, 'corpo_invalido', 'm'))).toEqual(schemas.ErrorReply!.required);
    const failed = errorReply(400, 'corpo_invalido', 'm');
    expect(Object.keys(failed.ok ? {} : failed.error)).toEqual(schemas.ErrorBody!.required);
  });

  it('renders the DTOs’ fields, required ones and constraints (spot checks)', () => {
    const declared = dataSchema('question.declared');
    expect(declared.required).toEqual(
      expect.arrayContaining([
        'questionId',
        'pergunta',
        'afeta',
        'autor',
        'origin',
        'toolCallId',
        'declaredAt',
      ]),
    );
    expect(declared.required).not.toContain('sugestao');
    expect(prop(declared, 'pergunta')).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 500,
      pattern: '^[^\\u0000]*$',
    });
    expect(prop(declared, 'toolCallId')).toMatchObject({ type: ['string', 'null'] });
    expect(prop(declared, 'afeta')).toEqual({ $ref: '#/components/schemas/AfetaDto' });
    expect(declared.additionalProperties).toBe(false);

    const verdicts = prop(dataSchema('agent.qa.verdict'), 'verdicts');
    expect(verdicts).toMatchObject({ type: 'array', minItems: 1, maxItems: 20 });
    const item = deref(verdicts.items!);
    expect(prop(item, 'veredito')).toEqual({ type: 'string', enum: [...VEREDITOS] });
    expect(item.required).toEqual(['subspecialty', 'veredito', 'resumo', 'itens']);
    expect(item.description).toContain('exactly one of pergunta or openQuestionId');

    const list = schemas.ListQuestionsCommand!;
    expect([...(list.required ?? [])].sort()).toEqual(['projectId', 'userId']);
    expect(prop(list, 'limit')).toEqual({ type: 'integer', default: 50, minimum: 1, maximum: 50 });
    expect(prop(list, 'status')).toMatchObject({ default: 'open' });
    expect(prop(schemas.AnswerQuestionCommand!, 'aceitarSugestao')).toEqual({
      type: ['boolean', 'null'],
      enum: [true, null],
    });
    expect(dataSchema('agent.task.status').required).toEqual(['taskId']);

    const uuid = new RegExp(prop(declared, 'questionId').pattern as string);
    expect(uuid.test('0190F5A2-7B3C-7D4E-8F90-A1B2C3D4E5F6')).toBe(true);
    expect(caseInsensitive('^[a-f0-9]x\\d$')).toBe('^[a-fA-F0-9][xX]\\d$');
  });

  describe('agrees with the DTOs on the contract examples', () => {
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: { schemas, messages: doc.components.messages } });
    const valid = (name: string, value: unknown) =>
      ajv.validate({ $ref: `doc#/components/schemas/${name}` }, value);

    it.each([...Object.entries(agentEventExamples), ...Object.entries(openqEventExamples)])(
      '%s',
      (type, data) => {
        const envelope = JSON.parse(
          JSON.stringify(makeEvent(type as EventType, 'p1', data as never)),
        ) as object;
        const payload = { $ref: `doc#/components/messages/${type}/payload` };
        expect([ajv.validate(payload, envelope), ajv.errors ?? null]).toEqual([true, null]);
        expect(ajv.validate(payload, { ...envelope, type: 'agent.other' })).toBe(false);
        expectSameVerdicts(
          dataSchema(type),
          data as object,
          (v) => valid(eventRegistry.get(type)!.dto.name, v),
          (v) => eventRegistry.validate(type, v).ok,
        );
      },
    );

    it('every command example', () => {
      const pairs = Object.entries(Commands).flatMap(([service, verbs]) =>
        Object.entries(verbs).map(([key, def]) => ({
          def: def as CommandDefinition,
          example: examplesOf(service, key),
        })),
      );
      expect(pairs).toHaveLength(52);
      for (const { def, example } of pairs) {
        expectSameVerdicts(
          schemas[def.dto.name]!,
          example,
          (v) => valid(def.dto.name, v),
          (v) => commandRegistry.validate(def.type, v).ok,
        );
      }
    });
  });
});

function examplesOf(service: string, key: string): object {
  return (commandExamples as unknown as Record<string, Record<string, object>>)[service]![key]!;
}

/** The example passes both; without a required field, or with an unknown one, both refuse it. */
function expectSameVerdicts(
  schema: JsonSchema,
  example: object,
  bySchema: (v: unknown) => boolean,
  byDto: (v: unknown) => boolean,
): void {
  expect([bySchema(example), byDto(example)]).toEqual([true, true]);
  for (const field of schema.required ?? []) {
    const without: Record<string, unknown> = { ...example };
    delete without[field];
    expect([field, bySchema(without), byDto(without)]).toEqual([field, false, false]);
  }
  // An optional field may go, unless a cross-field rule (stated in the description) needs it.
  if (!schema.description?.startsWith('Cross-field rules')) {
    for (const field of Object.keys(example).filter((f) => !(schema.required ?? []).includes(f))) {
      const without: Record<string, unknown> = { ...example };
      delete without[field];
      expect([field, bySchema(without), byDto(without)]).toEqual([field, true, true]);
    }
  }
  const extra = { ...example, notInTheContract: 1 };
  expect([bySchema(extra), byDto(extra)]).toEqual([false, false]);
}
