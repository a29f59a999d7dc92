import { connect, type NatsConnection } from 'nats';
import { AgentEvent, STREAMS, eventSubject, makeEnvelope } from '@openq/contracts';
import { eventExample } from '@openq/contracts/testing';
import { encodeJson, ensureStreams } from '@openq/messaging';
import { createTestDatabase, startNatsServer, type TestDatabase, type TestNatsServer } from '@openq/testing';
import { replay } from './replay';

// `openq replay …` as the CLI runs it (`cli.ts` hands it the arguments after `replay`), against a
// NATS server and a database of the test's own, named by the environment as in production.
let nats: TestNatsServer;
let db: TestDatabase;
let nc: NatsConnection;
const saved = {
  NATS_URL: process.env.NATS_URL,
  DATABASE_URL: process.env.DATABASE_URL,
  LOG_LEVEL: process.env.LOG_LEVEL,
};

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  nc = await connect({ servers: nats.url });
  await ensureStreams(await nc.jetstreamManager());
  Object.assign(process.env, { NATS_URL: nats.url, DATABASE_URL: db.url, LOG_LEVEL: 'error' });
});

afterAll(async () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await nc?.close();
  await nats?.stop();
  await db?.drop();
});

/** Runs `openq replay <args>`: its exit code and what it printed. */
async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = jest
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk) => ((out += String(chunk)), true));
  const stderr = jest
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk) => ((err += String(chunk)), true));
  try {
    return { code: await replay(args), out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

async function upsert(storyId: string): Promise<void> {
  const envelope = makeEnvelope(AgentEvent.StoryUpserted, 'cli-p', {
    ...eventExample(AgentEvent.StoryUpserted),
    storyId,
  });
  await nc.jetstream().publish(eventSubject(envelope.type, envelope.projectId), encodeJson(envelope), {
    msgID: envelope.eventId,
  });
}

describe('openq replay', () => {
  it('replay context prints one line with the counts; refuses a partial stream unless --allow-partial', async () => {
    for (const id of ['S1', 'S2', 'S3']) await upsert(id);
    await nc
      .jetstream()
      .publish(eventSubject(AgentEvent.TaskStatus, 'cli-p'), new TextEncoder().encode('{not json'));

    const first = await run('context');
    expect(first.code).toBe(0);
    expect(first.out.trim().split('\n')).toHaveLength(1);
    expect(first.out).toMatch(
      /^replayed the context read models from AGENT_EVENTS 1\.\.4, OPENQ_EVENTS 0\.\.0: 3 agent\.story\.upserted, 0 agent\.task\.status, .*; skipped 1 invalid, 0 duplicate, 0 failed \(\d+ ms\)\n$/,
    );
    expect(first.err).toMatch(/^skipped AGENT_EVENTS #4 agent\.task\.status: json_invalido: /);

    const jsm = await nc.jetstreamManager();
    await jsm.streams.purge(STREAMS.agentEvents.name, { seq: 3 });
    const refused = await run('context');
    expect(refused.code).toBe(1);
    expect(refused.out).toBe('');
    expect(refused.err).toMatch(/stream AGENT_EVENTS starts at sequence 3 .* --allow-partial/);

    const partial = await run('context', '--allow-partial');
    expect(partial.code).toBe(0);
    expect(partial.out).toMatch(
      /from AGENT_EVENTS 3\.\.4 \(partial\), OPENQ_EVENTS 0\.\.0: 1 agent\.story\.upserted,/,
    );
  });

  it('replay and replay questions rebuild the question projection; anything else is a usage error', async () => {
    for (const args of [[], ['questions']]) {
      const r = await run(...args);
      expect(r).toMatchObject({ code: 0, err: '' });
      expect(r.out).toMatch(/^replayed the question log up to position 0: 0 questions in 0 projects/);
    }
    for (const args of [['context', '--force'], ['gates'], ['questions', '--allow-partial']]) {
      expect(await run(...args)).toMatchObject({
        code: 2,
        out: '',
        err: expect.stringContaining('usage: openq replay'),
      });
    }
  });
});
