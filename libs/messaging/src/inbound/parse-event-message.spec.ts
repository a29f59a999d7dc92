import { IsInt } from 'class-validator';
import { defineMessage, makeEnvelope, MessageRegistry } from '@openq/contracts';
import { encodeJson } from '../codec';
import { parseEventMessage } from './parse';

class Counted {
  @IsInt() n!: number;
}

const AGENT = 'agent.test.counted';
const OWN = 'question.test_counted';
const registry = new MessageRegistry([defineMessage(AGENT, Counted), defineMessage(OWN, Counted)]);

function message(type: string, data: object, subject = `${type}.p1`) {
  return { subject, data: encodeJson(makeEnvelope(type, 'p1', data)) };
}

describe('parseEventMessage: the trust boundary', () => {
  it('validates what comes from outside (agent.*) against the registry', () => {
    expect(parseEventMessage(message(AGENT, { n: 'one' }), registry)).toMatchObject({
      ok: false,
      reason: 'payload_invalido',
    });
    const ok = parseEventMessage(message(AGENT, { n: 1 }), registry);
    expect(ok.ok && ok.envelope.data).toBeInstanceOf(Counted);
  });

  it('does not re-validate openq’s own events, but still refuses a broken envelope, a lying subject and an unknown type', () => {
    const trusted = parseEventMessage(message(OWN, { n: 'one' }), registry);
    expect(trusted).toMatchObject({ ok: true, envelope: { data: { n: 'one' } } });
    expect(
      parseEventMessage({ subject: `${OWN}.p1`, data: encodeJson({ eventId: 'x' }) }, registry),
    ).toMatchObject({
      ok: false,
      reason: 'envelope_invalido',
    });
    expect(parseEventMessage(message(OWN, { n: 1 }, `${OWN}.p2`), registry)).toMatchObject({
      ok: false,
      reason: 'envelope_invalido',
    });
    expect(parseEventMessage(message('question.test_unknown', { n: 1 }), registry)).toMatchObject({
      ok: false,
      reason: 'tipo_desconhecido',
    });
    expect(
      parseEventMessage({ subject: `${OWN}.p1`, data: new TextEncoder().encode('{not json') }, registry),
    ).toMatchObject({ ok: false, reason: 'json_invalido' });
  });
});
