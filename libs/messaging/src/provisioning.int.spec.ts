import { connect, type NatsConnection } from 'nats';
import { STREAMS } from '@openq/contracts';
import { startNatsServer, type TestNatsServer } from '@openq/testing';
import { ensureEventConsumer, ensureStreams, retireConsumers } from './provisioning';

/*
 * Retiring a consumer (issue #14 retired context's question.answered; issue #33 brought it back,
 * so the list here is the test's own) on a real
 * JetStream: a service deletes only its own listed durables; another service's consumer of the
 * same type and its own other consumers stay; a second start finds nothing to do.
 */

let nats: TestNatsServer;
let nc: NatsConnection;

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url });
});
afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

const RETIRED = [{ service: 'context', type: 'question.answered', why: 'a test' }] as const;

it("deletes the service's retired durables and nothing else", async () => {
  const jsm = await nc.jetstreamManager();
  await ensureStreams(jsm);
  for (const [service, type] of [
    ['context', 'question.answered'],
    ['context', 'decision.recorded'],
    ['gates', 'question.answered'],
  ] as const)
    await ensureEventConsumer(jsm, service, type);
  const names = async () =>
    (await jsm.consumers.list(STREAMS.openqEvents.name).next()).map((c) => c.name).sort();

  expect(await retireConsumers(jsm, 'gates', RETIRED)).toEqual([]);
  expect(await retireConsumers(jsm, 'context', RETIRED)).toEqual(['context__question_answered']);
  expect(await names()).toEqual(['context__decision_recorded', 'gates__question_answered']);
  // The next start (or another replica) finds it gone already.
  expect(await retireConsumers(jsm, 'context', RETIRED)).toEqual([]);
});
