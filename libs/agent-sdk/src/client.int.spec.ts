import { connect, type NatsConnection } from 'nats';
import { STREAMS } from '@openq/contracts';
// Test-only: the SDK itself depends on @openq/contracts and nats alone.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ensureStreams } from '@openq/messaging';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startNatsServer, type TestNatsServer } from '@openq/testing';
import { AgentEventPublisher, agentEventId, type DeclareOpenQuestionEvent } from './client';

let nats: TestNatsServer;
let nc: NatsConnection;

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url });
  await ensureStreams(await nc.jetstreamManager());
});

afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

const declaration = (toolCallId: string): DeclareOpenQuestionEvent => ({
  sessionId: 's1',
  sessionAuthorId: 'ana',
  autor: 'arquiteto',
  pergunta: 'Postgres or SQLite for the local mode?',
  sugestao: 'Postgres',
  afeta: { regras: ['r1'], historias: [], tarefas: ['t1'] },
  toolCallId,
});

async function stored(seq: number) {
  const jsm = await nc.jetstreamManager();
  const message = await jsm.streams.getMessage(STREAMS.agentEvents.name, { seq });
  return { subject: message.subject, msgId: message.header.get('Nats-Msg-Id'), envelope: message.json() };
}

describe('AgentEventPublisher over a real JetStream', () => {
  it('lands a declare on AGENT_EVENTS with its subject, envelope and Nats-Msg-Id', async () => {
    const publisher = new AgentEventPublisher(nc);
    const published = await publisher.declareOpenQuestion('proj-a', declaration('toolu_land'), {
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
    expect(published).toMatchObject({ stream: 'AGENT_EVENTS', duplicate: false });
    const eventId = agentEventId('proj-a', 'agent.question.declare', 'toolu_land');
    expect(await stored(published.seq)).toEqual({
      subject: 'agent.question.declare.proj-a',
      msgId: eventId,
      envelope: {
        eventId,
        type: 'agent.question.declare',
        schemaVersion: 1,
        occurredAt: expect.any(String),
        projectId: 'proj-a',
        correlationId: eventId,
        causationId: null,
        data: declaration('toolu_land'),
      },
    });
  });

  it('stores ONE message when the same toolCallId is published twice', async () => {
    const publisher = new AgentEventPublisher(nc);
    const jsm = await nc.jetstreamManager();
    const subject = 'agent.question.declare.proj-b';
    const first = await publisher.declareOpenQuestion('proj-b', declaration('toolu_twice'));
    const retry = await publisher.declareOpenQuestion('proj-b', declaration('toolu_twice'));
    expect(first.duplicate).toBe(false);
    expect(retry).toMatchObject({ duplicate: true, seq: first.seq, eventId: first.eventId });

    const other = await publisher.declareOpenQuestion('proj-b', declaration('toolu_other'));
    expect(other.duplicate).toBe(false);
    const info = await jsm.streams.info(STREAMS.agentEvents.name, { subjects_filter: subject });
    expect(info.state.subjects).toEqual({ [subject]: 2 });
  });
});
