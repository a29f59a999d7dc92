import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect, type NatsConnection } from 'nats';
import { eventSubject, makeEnvelope, STREAMS } from '@openq/contracts';
import { encodeJson, ensureStreams } from '@openq/messaging';
import { SseClient, startNatsServer, type TestNatsServer } from '@openq/testing';
import { startTestGateway } from '../testing/test-gateway';
import { claimsFor, signJwt } from '../testing/sign-jwt';

/**
 * The live tail against a real NATS and a real gateway, without the domain services: events
 * are published straight on OPENQ_EVENTS. What can go wrong underneath (no stream yet, the
 * tail's consumer deleted, NATS restarted, the gateway shutting down) must not lose an event
 * nor leave a connection hanging.
 */
const SECRET = 'k'.repeat(40);
const P = 'p1';
let nats: TestNatsServer;
let nc: NatsConnection;
const clients: SseClient[] = [];
const apps: NestFastifyApplication[] = [];

async function gateway(): Promise<string> {
  const { app, base } = await startTestGateway({
    NATS_URL: nats.url,
    OPENQ_JWT_SECRET: SECRET,
    OPENQ_SERVICE_TOKEN: 's'.repeat(40),
    GATEWAY_RPC_TIMEOUT_MS: '300',
  });
  apps.push(app);
  return base;
}

async function stream(base: string): Promise<SseClient> {
  const token = await signJwt(claimsFor('ana', { [P]: 'viewer' }), { alg: 'HS256', secret: SECRET });
  const client = await SseClient.open(`${base}/projects/${P}/stream`, { authorization: `Bearer ${token}` });
  clients.push(client);
  return client;
}

let n = 0;
const envelopeFor = (project = P) =>
  makeEnvelope('gate.resumed', project, {
    taskId: `T-${++n}`,
    gate: 'qa',
    trigger: 'human',
    questionIds: [],
    decisionEventIds: [],
  });

/** Publishes as a service's outbox relay would (a retry of the same envelope is deduplicated). */
async function publish(project = P, envelope = envelopeFor(project)): Promise<string> {
  await nc
    .jetstream()
    .publish(eventSubject('gate.resumed', project), encodeJson(envelope), { msgID: envelope.eventId });
  return envelope.eventId;
}

const received = (client: SseClient) => client.envelopes.map((e) => e.envelope.eventId);

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
});
afterAll(async () => {
  for (const c of clients) c.close();
  for (const app of apps) await app.close();
  await nc.close();
  await nats.stop();
});

describe('the live tail', () => {
  let base: string;

  it('answers 503 while OPENQ_EVENTS does not exist, and works once it does', async () => {
    base = await gateway();
    const early = await fetch(`${base}/projects/${P}/stream`, {
      headers: {
        authorization: `Bearer ${await signJwt(claimsFor('ana', { [P]: 'viewer' }), { alg: 'HS256', secret: SECRET })}`,
      },
    });
    expect(early.status).toBe(503);
    expect(await early.json()).toMatchObject({ reason: 'servico_indisponivel' });

    await ensureStreams(await nc.jetstreamManager());
    const client = await stream(base);
    expect(client.status).toBe(200);
    await client.ready();
  });

  it('loses nothing when its consumer is deleted under it, or NATS restarts', async () => {
    const client = await stream(base);
    await client.ready();
    const sent = [await publish(), await publish('p2')];
    await client.until(() => received(client).length === 1, 'the first event');

    const jsm = await nc.jetstreamManager();
    const live = (await jsm.consumers.list(STREAMS.openqEvents.name).next()).filter((c) =>
      c.name.startsWith('gateway_live_'),
    );
    expect(live).toHaveLength(1);
    await jsm.consumers.delete(STREAMS.openqEvents.name, live[0]!.name);
    sent.push(await publish(), await publish());
    await client.until(() => received(client).length === 3, 'the events after the consumer was deleted');

    await nats.kill();
    await nats.start();
    const afterRestart = envelopeFor();
    await client.until(
      () =>
        publish(P, afterRestart).then(
          () => true,
          () => false,
        ),
      'NATS back',
    );
    sent.push(afterRestart.eventId);
    await client.until(() => received(client).length === 4, 'the event after the restart', 30_000);
    expect(received(client)).toEqual([sent[0], sent[2], sent[3], sent[4]]);
    expect(client.ended).toBe(false);
  });

  it('ends open streams when the gateway shuts down, instead of waiting for the clients to leave', async () => {
    const own = await gateway();
    const client = await stream(own);
    await client.ready();
    // The client never leaves by itself: close() resolves only because the server ends the stream.
    await apps.pop()!.close();
    await client.until(() => client.ended, 'the stream to end');
  });
});
