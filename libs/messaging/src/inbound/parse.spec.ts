import { IsInt } from 'class-validator';
import { defineMessage, makeEnvelope, MessageRegistry } from '@openq/contracts';
import { encodeJson } from '../codec';
import { checkEventEnvelope, isTrustedSubject, parseEventMessage } from './parse';

class Counted {
  @IsInt() n!: number;
}

const AGENT = 'agent.test.counted';
const OWN = 'question.test_counted';
const registry = new MessageRegistry([defineMessage(AGENT, Counted), defineMessage(OWN, Counted)]);

describe('isTrustedSubject: openq’s own stream', () => {
  it.each([
    ['question.created.p1', true],
    ['decision.recorded.p1', true],
    ['project.created.p1', true],
    ['agent.question.declare.p1', false],
    // a prefix of a stream subject, not the subject's first token
    ['questionnaire.created.p1', false],
    ['openq.questions.ask', false],
  ])('%s → %s', (subject, trusted) => {
    expect(isTrustedSubject(subject)).toBe(trusted);
  });
});

describe('checkEventEnvelope: what a refusal keeps', () => {
  it('keeps the envelope when only the data failed, drops it when the envelope itself did', () => {
    const bad = makeEnvelope(AGENT, 'p1', { n: 'one' });
    const payload = checkEventEnvelope(bad, `${AGENT}.p1`, registry);
    expect(payload).toMatchObject({ ok: false, reason: 'payload_invalido', field: 'data.n' });
    expect(!payload.ok && payload.envelope?.eventId).toBe(bad.eventId);
    const shape = checkEventEnvelope({ ...bad, eventId: 7 }, `${AGENT}.p1`, registry);
    expect(shape).toMatchObject({ ok: false, reason: 'envelope_invalido', envelope: null });
    const unknown = checkEventEnvelope(
      makeEnvelope('question.test_other', 'p1', {}),
      'question.test_other.p1',
      registry,
    );
    expect(unknown).toMatchObject({ ok: false, reason: 'tipo_desconhecido' });
    expect(!unknown.ok && unknown.envelope?.type).toBe('question.test_other');
  });

  it.each([
    ['null', null],
    ['an array', [1]],
    ['data an array', { data: [] }],
    ['data null', { data: null }],
    ['no correlationId', { correlationId: undefined }],
    ['occurredAt a number', { occurredAt: 1 }],
  ])('refuses a trusted envelope with %s, without class-validator', (_what, change) => {
    const value =
      change === null || Array.isArray(change) ? change : { ...makeEnvelope(OWN, 'p1', { n: 1 }), ...change };
    expect(checkEventEnvelope(value, `${OWN}.p1`, registry)).toMatchObject({
      ok: false,
      reason: 'envelope_invalido',
      envelope: null,
    });
  });

  it('without a registry checks the envelope and its subject only', () => {
    const outside = makeEnvelope(AGENT, 'p1', { n: 'one' });
    expect(checkEventEnvelope(outside, `${AGENT}.p1`)).toMatchObject({
      ok: true,
      envelope: { data: { n: 'one' } },
    });
    expect(
      checkEventEnvelope(makeEnvelope('question.test_other', 'p1', {}), 'question.test_other.p1'),
    ).toMatchObject({
      ok: true,
    });
    expect(checkEventEnvelope(outside, `${AGENT}.p2`)).toMatchObject({ ok: false, field: 'projectId' });
  });
});

describe('parseEventMessage', () => {
  it('names the JSON error and keeps no envelope', () => {
    const parsed = parseEventMessage(
      { subject: `${AGENT}.p1`, data: new TextEncoder().encode('[1,') },
      registry,
    );
    expect(parsed).toMatchObject({ ok: false, reason: 'json_invalido', envelope: null });
    expect(!parsed.ok && parsed.message).toMatch(/^not JSON: /);
  });

  it('decodes the bytes it is given, the validated instance replacing data', () => {
    const envelope = makeEnvelope(AGENT, 'p1', { n: 3 });
    const parsed = parseEventMessage({ subject: `${AGENT}.p1`, data: encodeJson(envelope) }, registry);
    expect(parsed.ok && parsed.envelope).toMatchObject({ eventId: envelope.eventId, data: { n: 3 } });
    expect(parsed.ok && parsed.envelope.data).toBeInstanceOf(Counted);
  });
});
