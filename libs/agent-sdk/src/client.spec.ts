import type { NatsConnection } from 'nats';
import { isUuid } from '@openq/contracts';
import {
  AgentEventInvalid,
  AgentEventPublisher,
  agentEventId,
  buildAgentEvent,
  type DeclareOpenQuestionEvent,
  type QaVerdictEvent,
} from './client';

const declaration = (extra: Partial<DeclareOpenQuestionEvent> = {}): DeclareOpenQuestionEvent => ({
  sessionId: 's1',
  sessionAuthorId: 'ana',
  autor: 'po',
  pergunta: 'Should the export include archived stories?',
  sugestao: 'No, only active ones',
  afeta: { regras: [], historias: ['st1'], tarefas: [] },
  toolCallId: 'toolu_01',
  ...extra,
});

const verdict: QaVerdictEvent = {
  roundId: 'r1',
  taskId: 't1',
  gate: 'qa',
  sessionId: 's1',
  sessionAuthorId: 'ana',
  verdicts: [{ subspecialty: 'api', veredito: 'approved', resumo: 'fine', itens: [] }],
};

/** A NatsConnection whose JetStream records what would be published. */
function fakeNats() {
  const published: Array<{ subject: string; envelope: Record<string, unknown>; msgID: string }> = [];
  const js = {
    publish: jest.fn(async (subject: string, bytes: Uint8Array, options: { msgID: string }) => {
      published.push({
        subject,
        envelope: JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>,
        msgID: options.msgID,
      });
      return { stream: 'AGENT_EVENTS', seq: published.length, duplicate: false };
    }),
  };
  return { nc: { jetstream: () => js } as unknown as NatsConnection, js, published };
}

describe('agentEventId (dedupe by tool call)', () => {
  it('is a stable uuid (v5) of project, type and key', () => {
    const id = agentEventId('p1', 'agent.question.declare', 'toolu_01');
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('5');
    expect(agentEventId('p1', 'agent.question.declare', 'toolu_01')).toBe(id);
    // pinned: changing the namespace or the derivation would break dedupe across SDK versions
    expect(id).toBe('661a728d-97c1-5672-aa9c-9866c709fac4');
  });

  it('differs when the project, the type or the key differs', () => {
    const ids = new Set([
      agentEventId('p1', 'agent.question.declare', 'toolu_01'),
      agentEventId('p2', 'agent.question.declare', 'toolu_01'),
      agentEventId('p1', 'agent.question.answer', 'toolu_01'),
      agentEventId('p1', 'agent.question.declare', 'toolu_02'),
      // no ambiguity from concatenation
      agentEventId('p1', 'agent.question.declare', 'a.b'),
      agentEventId('p1.a', 'agent.question.declare', 'b'),
    ]);
    expect(ids.size).toBe(6);
  });
});

describe('buildAgentEvent', () => {
  it('envelopes a valid payload with the deterministic eventId and the type schema version', () => {
    const envelope = buildAgentEvent('agent.question.declare', 'p1', declaration(), 'toolu_01', {
      occurredAt: new Date('2026-01-02T03:04:05.000Z'),
    });
    expect(envelope).toEqual({
      eventId: agentEventId('p1', 'agent.question.declare', 'toolu_01'),
      type: 'agent.question.declare',
      schemaVersion: 1,
      occurredAt: '2026-01-02T03:04:05.000Z',
      projectId: 'p1',
      correlationId: agentEventId('p1', 'agent.question.declare', 'toolu_01'),
      causationId: null,
      data: declaration(),
    });
  });

  it.each<[string, Partial<DeclareOpenQuestionEvent> | Record<string, unknown>, RegExp, string]>([
    ['a blank pergunta', { pergunta: '   ' }, /pergunta/, 'pergunta'],
    ['an autor that is not an asker', { autor: 'qa-agent' }, /autor/, 'autor'],
    ['a missing afeta list', { afeta: { regras: [], historias: [] } }, /afeta\.tarefas/, 'afeta.tarefas'],
    ['a field the contract does not know', { prioridade: 'alta' }, /prioridade/, 'prioridade'],
  ])('refuses %s, naming the field', (_what, change, message, field) => {
    const build = () =>
      buildAgentEvent(
        'agent.question.declare',
        'p1',
        declaration(change as Partial<DeclareOpenQuestionEvent>),
      );
    expect(build).toThrow(AgentEventInvalid);
    expect(build).toThrow(message);
    try {
      build();
    } catch (error) {
      expect((error as AgentEventInvalid).field).toBe(field);
      expect((error as Error).message).toMatch(/^agent\.question\.declare: invalid payload: /);
    }
  });

  it('refuses a projectId that cannot be a subject token', () => {
    expect(() => buildAgentEvent('agent.question.declare', 'p1.>', declaration(), 'k')).toThrow(/projectId/);
  });
});

describe('AgentEventPublisher', () => {
  it('publishes on <type>.<projectId> with Nats-Msg-Id = the toolCallId-derived eventId', async () => {
    const { nc, published } = fakeNats();
    const publisher = new AgentEventPublisher(nc);
    const first = await publisher.declareOpenQuestion('p1', declaration());
    const again = await publisher.declareOpenQuestion('p1', declaration());
    expect(first.eventId).toBe(agentEventId('p1', 'agent.question.declare', 'toolu_01'));
    expect(again.eventId).toBe(first.eventId);
    expect(published.map((p) => [p.subject, p.msgID])).toEqual([
      ['agent.question.declare.p1', first.eventId],
      ['agent.question.declare.p1', first.eventId],
    ]);
    expect(published[0]?.envelope).toMatchObject({ eventId: first.eventId, type: 'agent.question.declare' });
  });

  it('dedupes a verdict by roundId, other events by the key given, else not at all', async () => {
    const { nc } = fakeNats();
    const publisher = new AgentEventPublisher(nc);
    expect((await publisher.emitQaVerdict('p1', verdict)).eventId).toBe(
      agentEventId('p1', 'agent.qa.verdict', 'r1'),
    );
    const beat = { taskId: 't1', gate: 'qa' } as const;
    const [a, b] = [await publisher.gateActivity('p1', beat), await publisher.gateActivity('p1', beat)];
    expect(a.eventId).not.toBe(b.eventId);
    const keyed = await publisher.gateActivity('p1', beat, { idempotencyKey: 'beat-7' });
    expect(keyed.eventId).toBe(agentEventId('p1', 'agent.gate.activity', 'beat-7'));
  });

  it('publishes nothing when the payload is invalid', async () => {
    const { nc, js } = fakeNats();
    const publisher = new AgentEventPublisher(nc);
    await expect(
      publisher.answerOpenQuestion('p1', {
        toolCallId: 'toolu_02',
        questionId: 'not-a-uuid',
        viaAgente: 'po',
      }),
    ).rejects.toThrow(/questionId/);
    await expect(
      publisher.taskStatus('p1', { taskId: 't1' }), // neither status nor stage
    ).rejects.toThrow(AgentEventInvalid);
    expect(js.publish).not.toHaveBeenCalled();
  });
});
