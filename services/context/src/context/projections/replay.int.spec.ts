import { connect, type NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import {
  AgentEvent,
  OpenqEvent,
  STREAMS,
  eventSubject,
  makeEnvelope,
  newId,
  streamOfType,
  type ArchiveStoryReply,
  type CorrectStoryReply,
  type EventEnvelope,
  type StreamKey,
} from '@openq/contracts';
import { eventExample } from '@openq/contracts/testing';
import { RpcClient, durableOf, encodeJson } from '@openq/messaging';
import { openDatabase } from '@openq/persistence';
import { loadConfig, type DomainService } from '@openq/platform';
import {
  EventCollector,
  createTestDatabase,
  startNatsServer,
  waitFor,
  type TestDatabase,
  type TestNatsServer,
} from '@openq/testing';
import { startContext } from '../../context-service';
import { CONTEXT_MIGRATIONS } from '../migrations';
import { CONSUMED_FACT_TYPES } from './context-facts';
import { PartialReplayRefusedError, replayContextReadModels, type SkippedMessage } from './replay';

const P1 = 'replay-p1';
const P2 = 'replay-p2';

let nats: TestNatsServer;
let db: TestDatabase;
let nc: NatsConnection;
let context: DomainService;
/** The replay's own connection and data source, as `openq replay context` opens them. */
let ds: DataSource;
let corrections: EventCollector;

beforeAll(async () => {
  nats = await startNatsServer();
  db = await createTestDatabase();
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'error', HOST: '127.0.0.1', NATS_URL: nats.url, DATABASE_URL: db.url },
    { authSecrets: false },
  );
  context = await startContext(config, { embedded: true, httpPort: 0 });
  nc = await connect({ servers: nats.url });
  ds = await openDatabase({ url: db.url, schema: 'context', migrations: CONTEXT_MIGRATIONS as never });
  corrections = await EventCollector.start(nc, STREAMS.openqEvents.name, `${OpenqEvent.StoryCorrected}.*`);
});

afterAll(async () => {
  corrections?.stop();
  await context?.close();
  await ds?.destroy();
  await nc?.close();
  await nats?.stop();
  await db?.drop();
});

/** Minutes from an hour ago: before the corrections' own clock (`now`), unless `m` > 60. */
const base = Date.now() - 3600_000;
const minute = (m: number) => new Date(base + m * 60_000);

/** Publishes a fact as its producer would (the engine, or the questions service). */
async function publish<T>(
  type: string,
  projectId: string,
  data: T,
  occurredAt = new Date(),
  eventId?: string,
) {
  const envelope = makeEnvelope(type, projectId, data, { occurredAt, ...(eventId ? { eventId } : {}) });
  await nc.jetstream().publish(eventSubject(type, projectId), encodeJson(envelope), { msgID: newId() });
  return envelope;
}

async function publishRaw(subject: string, body: string): Promise<void> {
  await nc.jetstream().publish(subject, new TextEncoder().encode(body), { msgID: newId() });
}

async function consumed(envelope: Pick<EventEnvelope, 'eventId' | 'type'>): Promise<void> {
  await waitFor(
    async () =>
      (
        await ds.query(`SELECT 1 FROM inbox WHERE consumer = $1 AND message_id = $2`, [
          durableOf('context', envelope.type),
          envelope.eventId,
        ])
      ).length > 0,
    { what: `${envelope.type} ${envelope.eventId} applied by context` },
  );
}

/** Every durable consumer of the context service has had all its messages delivered and settled. */
async function liveCaughtUp(): Promise<void> {
  const jsm = await nc.jetstreamManager();
  await waitFor(
    async () => {
      const durables = new Set(
        CONSUMED_FACT_TYPES.map((type) => `${streamOfType(type)}/${durableOf('context', type)}`),
      );
      for (const key of durables) {
        const [stream, durable] = key.split('/') as [StreamKey, string];
        const info = await jsm.consumers.info(STREAMS[stream].name, durable);
        if (info.num_pending > 0 || info.num_ack_pending > 0) return false;
      }
      return true;
    },
    { timeoutMs: 30_000, what: 'the context consumers to drain' },
  );
}

function story(storyId: string, fields: Record<string, unknown> = {}) {
  return { ...eventExample(AgentEvent.StoryUpserted), storyId, status: 'draft', taskIds: [], ...fields };
}

async function correct(projectId: string, storyId: string, body: Record<string, unknown>): Promise<void> {
  const reply = await new RpcClient(nc).request<CorrectStoryReply>('context', 'correct-story', {
    projectId,
    storyId,
    actor: { kind: 'user', id: 'dev1' },
    ...body,
  });
  if (!reply.ok) throw new Error(`correction refused: ${JSON.stringify(reply.error)}`);
}

async function archive(projectId: string, storyId: string): Promise<void> {
  const reply = await new RpcClient(nc).request<ArchiveStoryReply>('context', 'archive-story', {
    projectId,
    storyId,
    actor: { kind: 'agent', id: 'po' },
  });
  if (!reply.ok) throw new Error(`archive refused: ${JSON.stringify(reply.error)}`);
}

type Table =
  | 'context_story'
  | 'context_task'
  | 'context_decision'
  | 'context_question'
  | 'analytics_question'
  | 'analytics_gate_event';
const TABLES: [Table, string][] = [
  ['context_story', 'project_id, story_id'],
  ['context_task', 'project_id, task_id'],
  ['context_decision', 'decision_event_id'],
  ['context_question', 'project_id, question_id'],
  ['analytics_question', 'project_id, question_id'],
  ['analytics_gate_event', 'event_id'],
];

/** The read models, row by row, every column (versions included). */
async function snapshot(): Promise<Record<Table, string[]>> {
  const out = {} as Record<Table, string[]>;
  for (const [table, order] of TABLES) {
    const rows: { row: string }[] = await ds.query(
      `SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY ${order}`,
    );
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

describe('openq replay context: the read models rebuilt from the streams (real NATS and PostgreSQL)', () => {
  let live: Record<Table, string[]>;

  it('rebuilds exactly what the live consumers built, corrections included, skipping what they dead-letter', async () => {
    // Stories: upserts out of order (an older one delivered last).
    await publish(AgentEvent.StoryUpserted, P1, story('S1', { title: 'S1 v1', taskIds: ['T1'] }), minute(0));
    await publish(
      AgentEvent.StoryUpserted,
      P1,
      story('S1', { title: 'S1 v3', status: 'ready', taskIds: ['T1', 'T2'] }),
      minute(10),
    );
    await publish(
      AgentEvent.StoryUpserted,
      P1,
      story('S1', { title: 'S1 stale', archived: true }),
      minute(5),
    );
    const s2 = await publish(
      AgentEvent.StoryUpserted,
      P1,
      story('S2', { title: 'S2 v1', rf: ['FR-1'] }),
      minute(0),
    );
    const s3 = await publish(
      AgentEvent.StoryUpserted,
      P1,
      story('S3', { title: 'S3 v1', taskIds: ['T3'] }),
      minute(0),
    );
    const s4 = await publish(AgentEvent.StoryUpserted, P2, story('S4', { title: 'S4 v1' }), minute(1));

    // Tasks: statuses out of order, a stage-only event, another project.
    await publish(AgentEvent.TaskStatus, P1, { taskId: 'T1', storyId: 'S1', status: 'in_review' }, minute(3));
    await publish(AgentEvent.TaskStatus, P1, { taskId: 'T1', status: 'todo' }, minute(1));
    await publish(AgentEvent.TaskStatus, P1, { taskId: 'T1', stage: 'analysis' }, minute(7));
    await publish(AgentEvent.TaskStatus, P1, { taskId: 'T2', storyId: 'S1', status: 'done' }, minute(4));
    await publish(AgentEvent.TaskStatus, P2, { taskId: 'T9', storyId: 'S4', status: 'todo' }, minute(2));

    // Questions and decisions, as the questions service publishes them; Q3's answer lands first.
    const [q1, q2, q3] = [newId(), newId(), newId()];
    const declared = (questionId: string, pergunta: string) => ({
      ...eventExample(OpenqEvent.QuestionDeclared),
      questionId,
      pergunta,
      declaredAt: minute(2).toISOString(),
    });
    const answered = (questionId: string) => ({
      ...eventExample(OpenqEvent.QuestionAnswered),
      questionId,
      decisionEventId: newId(),
      answeredAt: minute(6).toISOString(),
    });
    const decision = (questionId: string, tarefas: string[]) => ({
      ...eventExample(OpenqEvent.DecisionRecorded),
      decisionEventId: newId(),
      questionId,
      consequences: { regras: [], historias: ['S1'], tarefas },
      decidedAt: minute(6).toISOString(),
    });
    const q1Declared = await publish(
      OpenqEvent.QuestionDeclared,
      P1,
      declared(q1, 'Archived code: 404 or 410?'),
    );
    // Published as the questions service does; context takes the answered state from the decision.
    await publish(OpenqEvent.QuestionAnswered, P1, answered(q1));
    const q1Decision = await publish(OpenqEvent.DecisionRecorded, P1, decision(q1, ['T1']));
    await publish(OpenqEvent.QuestionDeclared, P1, declared(q2, 'Which rounding?'));
    await publish(OpenqEvent.QuestionAnswered, P2, answered(q3));
    await publish(OpenqEvent.QuestionDeclared, P2, declared(q3, 'Keep the old route?'));
    await publish(OpenqEvent.DecisionRecorded, P2, decision(q3, []));
    // §11.5 a withdrawn question: it leaves the open list, and no decision comes of it.
    const q4 = newId();
    await publish(OpenqEvent.QuestionDeclared, P1, declared(q4, 'Still needed?'));
    await publish(OpenqEvent.QuestionWithdrawn, P1, {
      ...eventExample(OpenqEvent.QuestionWithdrawn),
      questionId: q4,
      withdrawnAt: minute(7).toISOString(),
    });

    // Poison: not JSON, no envelope, a bad payload, a subject that lies, a bad decision.
    await publishRaw(eventSubject(AgentEvent.StoryUpserted, P1), '{not json');
    await publishRaw(eventSubject(AgentEvent.TaskStatus, P1), JSON.stringify({ hello: 'world' }));
    await publish(AgentEvent.StoryUpserted, P1, story('S1', { status: 'bogus' }), minute(30));
    await publishRaw(
      eventSubject(OpenqEvent.QuestionDeclared, P1),
      JSON.stringify(makeEnvelope(OpenqEvent.QuestionDeclared, P2, declared(newId(), 'x?'))),
    );
    await publish(OpenqEvent.DecisionRecorded, P1, { ...decision(q1, []), questionId: 'not-a-uuid' });
    // An event type the service does not consume, on the same stream.
    await publish(AgentEvent.TaskCreated, P1, eventExample(AgentEvent.TaskCreated));

    // A redelivered event id with other content (after the dedupe window, say): the inbox ignores it.
    await consumed(q1Declared);
    await publish(
      OpenqEvent.QuestionDeclared,
      P1,
      declared(q1, 'a different text, ignored'),
      new Date(),
      q1Declared.eventId,
    );

    // Corrections, through the command (the correction is applied to the story as it stands).
    for (const e of [s2, s3, s4, q1Decision]) await consumed(e);
    await correct(P1, 'S2', { changes: { title: 'S2 corrected', rf: ['FR-1 fixed'] } });
    await correct(P1, 'S3', {
      questionId: q1,
      actor: { kind: 'agent', id: 'po' },
      changes: { dod: ['contract green'] },
    });
    await correct(P2, 'S4', { changes: { rnf: ['p99 < 500 ms'] } });
    await correct(P2, 'S4', { changes: { title: 'S4 corrected twice' } });
    await corrections.waitForType(OpenqEvent.StoryCorrected, 4);
    // An archive (§11.3) of the draft S4: its flag and version come back from story.archived.
    await archive(P2, 'S4');
    // After them: S2's older upsert (its status applies, not its content: the correction was made
    // over S2 v1, whose DoD it keeps); S3's newer one replaces the correction.
    await publish(
      AgentEvent.StoryUpserted,
      P1,
      story('S2', { title: 'S2 stale', status: 'ready', dod: ['stale DoD'] }),
      minute(1),
    );
    await publish(
      AgentEvent.StoryUpserted,
      P1,
      story('S3', { title: 'S3 engine took it', taskIds: ['T3'] }),
      new Date(Date.now() + 60_000),
    );

    await liveCaughtUp();
    const deadLetters: { n: number }[] = await ds.query(`SELECT count(*)::int AS n FROM dead_letter`);
    expect(deadLetters[0]!.n).toBe(5);
    live = await snapshot();
    // The scenario is the one meant: what the live consumers and the command built.
    const row = async (p: string, s: string) =>
      (
        (await ds.query(
          `SELECT title, status, rf, rnf, dod FROM context_story WHERE project_id = $1 AND story_id = $2`,
          [p, s],
        )) as unknown[]
      )[0];
    const example = eventExample(AgentEvent.StoryUpserted);
    expect(await row(P1, 'S1')).toEqual({
      title: 'S1 v3',
      status: 'ready',
      rf: example.rf,
      rnf: example.rnf,
      dod: example.dod,
    });
    expect(await row(P1, 'S2')).toEqual({
      title: 'S2 corrected',
      status: 'ready',
      rf: ['FR-1 fixed'],
      rnf: example.rnf,
      dod: example.dod,
    });
    expect(await row(P1, 'S3')).toEqual({
      title: 'S3 engine took it',
      status: 'draft',
      rf: example.rf,
      rnf: example.rnf,
      dod: example.dod,
    });
    expect(await row(P2, 'S4')).toEqual({
      title: 'S4 corrected twice',
      status: 'draft',
      rf: example.rf,
      rnf: ['p99 < 500 ms'],
      dod: example.dod,
    });
    expect(live.context_question).toHaveLength(4);
    expect(live.context_question.filter((row) => row.includes('"withdrawn_at": null'))).toHaveLength(3);
    expect(live.context_decision).toHaveLength(2);
    // Issue #33: the answers reached question quality too (the replay must rebuild them the same).
    expect(live.analytics_question.filter((row) => row.includes('"answered_at": null'))).toHaveLength(2);

    // Spoil the models, then rebuild them.
    await ds.query(`UPDATE context_story SET title = 'garbage'`);
    await ds.query(`DELETE FROM context_decision`);
    await ds.query(`INSERT INTO context_task (project_id, task_id) VALUES ('nobody', 'T-ghost')`);
    const skipped: SkippedMessage[] = [];
    const result = await replayContextReadModels(ds, nc, { onSkip: (s) => skipped.push(s), batchSize: 4 });

    expect(await snapshot()).toEqual(live);
    expect(result.types).toEqual({
      [AgentEvent.StoryUpserted]: { read: 10, applied: 8, invalid: 2, duplicates: 0, failed: 0 },
      [AgentEvent.TaskStatus]: { read: 6, applied: 5, invalid: 1, duplicates: 0, failed: 0 },
      [OpenqEvent.DecisionRecorded]: { read: 3, applied: 2, invalid: 0, duplicates: 0, failed: 1 },
      [OpenqEvent.QuestionDeclared]: { read: 6, applied: 4, invalid: 1, duplicates: 1, failed: 0 },
      [OpenqEvent.QuestionWithdrawn]: { read: 1, applied: 1, invalid: 0, duplicates: 0, failed: 0 },
      // Issue #33: question quality reads the answers, amendments and parks too (none parked here),
      // and the ask-once events of issue #32 once they exist.
      [OpenqEvent.QuestionAnswered]: { read: 2, applied: 2, invalid: 0, duplicates: 0, failed: 0 },
      [OpenqEvent.DecisionSuperseded]: { read: 0, applied: 0, invalid: 0, duplicates: 0, failed: 0 },
      [OpenqEvent.GateRescueParked]: { read: 0, applied: 0, invalid: 0, duplicates: 0, failed: 0 },
      [OpenqEvent.GateResumed]: { read: 0, applied: 0, invalid: 0, duplicates: 0, failed: 0 },
      'question.joined': { read: 0, applied: 0, invalid: 0, duplicates: 0, failed: 0 },
      'question.precedent_offered': { read: 0, applied: 0, invalid: 0, duplicates: 0, failed: 0 },
      [OpenqEvent.StoryCorrected]: { read: 4, applied: 4, invalid: 0, duplicates: 0, failed: 0 },
      [OpenqEvent.StoryArchived]: { read: 1, applied: 1, invalid: 0, duplicates: 0, failed: 0 },
    });
    expect(skipped.map((s) => `${s.type} ${s.reason}`).sort()).toEqual([
      'agent.story.upserted json_invalido',
      'agent.story.upserted payload_invalido',
      'agent.task.status envelope_invalido',
      // openq's own events are trusted (not re-validated): the bad id fails where it is stored.
      'decision.recorded falha_no_tratamento',
      'question.declared envelope_invalido',
    ]);
    const jsm = await nc.jetstreamManager();
    for (const covered of result.streams) {
      const info = await jsm.streams.info(covered.stream);
      expect(covered).toMatchObject({ firstSeq: 1, lastSeq: info.state.last_seq, partial: false });
    }
    expect(result.streams.map((s) => s.stream).sort()).toEqual([
      STREAMS.agentEvents.name,
      STREAMS.openqEvents.name,
    ]);
    const checkpoints = await ds.query(
      `SELECT stream, first_seq::int AS "firstSeq", last_seq::int AS "lastSeq", messages::int AS messages, partial
         FROM context_replay_checkpoint ORDER BY stream`,
    );
    expect(checkpoints).toEqual(
      result.streams
        .map(({ stream, firstSeq, lastSeq, messages, partial }) => ({
          stream,
          firstSeq,
          lastSeq,
          messages,
          partial,
        }))
        .sort((a, b) => a.stream.localeCompare(b.stream)),
    );
    expect(checkpoints.find((c: { stream: string }) => c.stream === STREAMS.agentEvents.name).messages).toBe(
      16,
    );

    // A second replay changes nothing.
    await replayContextReadModels(ds, nc);
    expect(await snapshot()).toEqual(live);
  });

  it('ends at the streams’ ends of its start under live traffic; the consumers then catch up to the same result', async () => {
    const traffic = async () => {
      for (let i = 0; i < 40; i++) {
        await publish(
          AgentEvent.StoryUpserted,
          P1,
          story(`L${i % 7}`, { title: `live ${i}` }),
          minute(20 + i),
        );
        await publish(
          AgentEvent.TaskStatus,
          P1,
          { taskId: `LT${i % 5}`, status: i % 2 ? 'in_progress' : 'todo' },
          minute(20 + i),
        );
      }
    };
    const [result] = await Promise.all([replayContextReadModels(ds, nc), traffic()]);
    const agent = result.streams.find((s) => s.stream === STREAMS.agentEvents.name)!;
    const checkpoint = await ds.query(
      `SELECT last_seq::int AS "lastSeq" FROM context_replay_checkpoint WHERE stream = $1`,
      [agent.stream],
    );
    expect(checkpoint).toEqual([{ lastSeq: agent.lastSeq }]);

    await liveCaughtUp();
    const caughtUp = await snapshot();
    expect(caughtUp.context_story.filter((row) => row.includes('"story_id": "L'))).toHaveLength(7);
    await replayContextReadModels(ds, nc);
    expect(await snapshot()).toEqual(caughtUp);
    live = caughtUp;
  });

  it('keeps a correction and an archive the relay has not published yet (taken from the outbox)', async () => {
    // Nothing publishes: neither right after commit nor by the relay.
    const publisher = context.server.outboxPublisher!;
    await publisher.detach();
    const relay = context.server.outboxRelay!;
    await relay.stop();
    await consumed(await publish(AgentEvent.StoryUpserted, P1, story('S5', { title: 'S5 v1' }), minute(0)));
    await correct(P1, 'S5', { changes: { title: 'S5 corrected while the relay was down' } });
    await archive(P1, 'S5');
    await liveCaughtUp();
    const before = await snapshot();
    expect(before.context_story.some((row) => row.includes('S5 corrected while the relay was down'))).toBe(
      true,
    );

    const result = await replayContextReadModels(ds, nc);
    expect(result.correctionsFromOutbox).toBe(1);
    expect(result.archivesFromOutbox).toBe(1);
    expect(
      before.context_story.some(
        (row) => row.includes('"story_id": "S5"') && row.includes('"archived": true'),
      ),
    ).toBe(true);
    expect(await snapshot()).toEqual(before);

    publisher.attach();
    await relay.start();
    await corrections.waitForType(OpenqEvent.StoryCorrected, 5);
    await waitFor(
      async () =>
        (
          await ds.query(`SELECT 1 FROM outbox WHERE subject LIKE $1 AND published_at IS NULL`, [
            `${OpenqEvent.StoryArchived}.%`,
          ])
        ).length === 0,
      { what: 'story.archived published by the relay' },
    );
    const again = await replayContextReadModels(ds, nc);
    expect(again.correctionsFromOutbox).toBe(0);
    expect(again.archivesFromOutbox).toBe(0);
    expect(again.types[OpenqEvent.StoryArchived]).toMatchObject({ read: 2, applied: 2 });
    expect(again.types[OpenqEvent.StoryCorrected]).toMatchObject({ read: 5, applied: 5 });
    expect(await snapshot()).toEqual(before);
    live = before;
  });

  it('refuses when a stream lost its first messages, and rebuilds from what is left with allowPartial', async () => {
    const jsm = await nc.jetstreamManager();
    const before = await jsm.streams.info(STREAMS.agentEvents.name);
    // Everything before the live traffic's last 10 messages goes (as if it had aged out).
    const keepFrom = before.state.last_seq - 9;
    await jsm.streams.purge(STREAMS.agentEvents.name, { seq: keepFrom });

    const refused = replayContextReadModels(ds, nc);
    await expect(refused).rejects.toBeInstanceOf(PartialReplayRefusedError);
    await expect(refused).rejects.toThrow(`stream AGENT_EVENTS starts at sequence ${keepFrom}`);
    expect(await snapshot()).toEqual(live); // untouched

    const result = await replayContextReadModels(ds, nc, { allowPartial: true });
    expect(result.streams.find((s) => s.stream === STREAMS.agentEvents.name)).toMatchObject({
      firstSeq: keepFrom,
      lastSeq: before.state.last_seq,
      partial: true,
      messages: 10,
    });
    expect(result.streams.find((s) => s.stream === STREAMS.openqEvents.name)).toMatchObject({
      firstSeq: 1,
      partial: false,
    });
    const after = await snapshot();
    // OPENQ_EVENTS is whole: questions and decisions are as before; the stories' early facts are gone.
    expect(after.context_question).toEqual(live.context_question);
    expect(after.context_decision).toEqual(live.context_decision);
    expect(after.context_story.length).toBeLessThan(live.context_story.length);
    expect(
      await ds.query(
        `SELECT partial, first_seq::int AS "firstSeq" FROM context_replay_checkpoint WHERE stream = $1`,
        [STREAMS.agentEvents.name],
      ),
    ).toEqual([{ partial: true, firstSeq: keepFrom }]);
  });
});
