import { agentEventRegistry, makeEnvelope } from '@openq/contracts';
import { checkEventEnvelope, parseEventMessage } from './parse';

/** The one envelope check of consumers (parseEventMessage) and of the gateway's events route. */
const declare = {
  sessionId: 's1',
  sessionAuthorId: 'ana',
  autor: 'po',
  pergunta: 'Archived stories too?',
  afeta: { regras: [], historias: [], tarefas: [] },
  toolCallId: 'tc-1',
};
const envelope = () => makeEnvelope('agent.question.declare', 'p1', { ...declare });
const SUBJECT = 'agent.question.declare.p1';

describe('checkEventEnvelope', () => {
  it('accepts a valid envelope and replaces data with its validated instance', () => {
    const checked = checkEventEnvelope(envelope(), SUBJECT, agentEventRegistry);
    expect(checked.ok).toBe(true);
    expect(checked.ok && checked.envelope.data).toMatchObject(declare);
  });

  it.each([
    ['the envelope shape', { eventId: 'x' }, 'envelope_invalido', 'eventId'],
    ['another project than the subject', { projectId: 'p2' }, 'envelope_invalido', 'projectId'],
    ['another type than the subject', { type: 'agent.question.answer' }, 'envelope_invalido', 'type'],
    ['a payload field', { data: { ...declare, pergunta: '' } }, 'payload_invalido', 'data.pergunta'],
    ['an unknown payload field', { data: { ...declare, extra: 1 } }, 'payload_invalido', 'data.extra'],
  ])('refuses %s, naming the field', (_what, change, reason, field) => {
    const checked = checkEventEnvelope({ ...envelope(), ...change }, SUBJECT, agentEventRegistry);
    expect(checked).toMatchObject({ ok: false, reason, field });
  });

  it('refuses a type the registry does not know', () => {
    const unknown = { ...envelope(), type: 'agent.nothing' };
    expect(checkEventEnvelope(unknown, 'agent.nothing.p1', agentEventRegistry)).toMatchObject({
      ok: false,
      reason: 'tipo_desconhecido',
      field: 'type',
    });
  });

  it('is what parseEventMessage applies after decoding the JSON', () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ ...envelope(), projectId: 'p2' }));
    expect(parseEventMessage({ subject: SUBJECT, data: bytes }, agentEventRegistry)).toMatchObject({
      ok: false,
      reason: 'envelope_invalido',
    });
    expect(parseEventMessage({ subject: SUBJECT, data: new TextEncoder().encode('{') })).toMatchObject({
      ok: false,
      reason: 'json_invalido',
    });
  });
});
