import { OpenqEvent, type EventEnvelope } from '@openq/contracts';
import { SseClient, waitFor } from '@openq/testing';
import { mintDevToken } from '../../tools/token';
import { DEV_JWT_SECRET } from '@openq/platform';
import { Stack } from '../support/stack';
import { TestEngine } from '../support/engine';

/**
 * GET /projects/:projectId/stream, read with fetch as a program would: auth, one project's
 * events with the stream sequence as id, open_count, resume with Last-Event-ID (no loss, no
 * repeat), heartbeats, the per-process cap, and what a disconnect leaves behind.
 */
const P = 'live';
const OTHER = 'elsewhere';
let stack: Stack;
const ENV = {
  GATEWAY_SSE_HEARTBEAT_MS: '300',
  GATEWAY_SSE_MAX_STREAMS: '4',
  GATEWAY_SSE_MAX_STREAMS_PER_USER: '3',
};
const saved: Record<string, string | undefined> = {};
const readers: SseClient[] = [];

beforeAll(async () => {
  // The stream's settings come from the process environment (validated at boot like the rest).
  for (const [k, v] of Object.entries(ENV)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  stack = await Stack.start({ services: ['questions'] });
});
afterAll(async () => {
  for (const r of readers) r.close();
  await stack.stop();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});
afterEach(async () => {
  for (const r of readers.splice(0)) r.close();
  // Every test starts with no stream open (a closed client frees its slot).
  await waitFor(async () => (await streamsOpen()) === 0, { what: 'no stream open' });
});

/** Opens a stream and keeps it for the clean-up after the test. */
async function open(path: string, headers: Record<string, string>): Promise<SseClient> {
  const client = await SseClient.open(`${stack.baseUrl}${path}`, headers);
  readers.push(client);
  return client;
}

const cookie = (user = 'ana', project = P, role: 'viewer' | 'developer' = 'viewer') => ({
  cookie: `openq_token=${stack.token(user, project, role)}`,
});
const openStream = (headers: Record<string, string> = cookie(), project = P) =>
  open(`/projects/${project}/stream`, headers);

const declare = (project = P, pergunta = 'Which currency?'): Promise<string> =>
  new TestEngine(stack.baseUrl).declare(project, { pergunta, sugestao: 'BRL', afeta: { tarefas: ['T1'] } });

async function answer(questionId: string, project = P): Promise<void> {
  const r = await stack.http('POST', `/projects/${project}/open-questions/${questionId}/answer`, {
    token: stack.token('ana', project, 'viewer'),
    body: { aceitarSugestao: true },
  });
  expect(r.status).toBe(200);
}

/** The project's live events as the stream itself holds them, in stream order (the oracle). */
function projectEvents(project = P): EventEnvelope[] {
  return stack.events.events.filter(
    (e) => e.projectId === project && /^(question|decision|gate|pipeline)\./.test(e.type),
  );
}

async function streamsOpen(): Promise<number> {
  const r = await stack.http('GET', '/metrics');
  const line = String(r.body)
    .split('\n')
    .find((l) => l.startsWith('openq_gateway_sse_streams '));
  return line ? Number(line.split(' ')[1]) : 0;
}

describe('who may open the stream', () => {
  it('takes the openq_token cookie or a Bearer header, and needs a role on the project', async () => {
    const byCookie = await openStream();
    expect(byCookie.status).toBe(200);
    expect(byCookie.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(byCookie.headers.get('cache-control')).toContain('no-cache');
    await byCookie.ready();

    const byHeader = await openStream({ authorization: `Bearer ${stack.token('bruno', P, 'viewer')}` });
    expect(byHeader.status).toBe(200);

    const none = await stack.http('GET', `/projects/${P}/stream`);
    expect(none).toMatchObject({ status: 401, body: { reason: 'nao_autenticado' } });
    const inQuery = await stack.http('GET', `/projects/${P}/stream?access_token=${stack.token('ana', P)}`);
    expect(inQuery).toMatchObject({ status: 401, body: { reason: 'nao_autenticado' } });
    const otherProject = await stack.http('GET', `/projects/${P}/stream`, {
      token: stack.token('ana', OTHER),
    });
    expect(otherProject).toMatchObject({ status: 403, body: { reason: 'sem_papel_no_projeto' } });
  });
});

describe('what the stream carries', () => {
  it("sends this project's events with the stream sequence as id, and open_count after question events", async () => {
    const stream = await openStream();
    const ready = await stream.ready();
    expect(JSON.parse(ready.data)).toEqual({ resumed: false, reset: false });
    expect(Number(ready.id)).toBeGreaterThanOrEqual(0);

    const q = await declare();
    await declare(OTHER);
    await stream.until(() => stream.of('open_count').length >= 2, 'the first counts');
    await answer(q);
    await stream.until(
      () => stream.envelopes.some((e) => e.envelope.type === OpenqEvent.DecisionRecorded),
      'decision',
    );
    await stream.until(
      () =>
        JSON.parse(stream.of('open_count').at(-1)?.data ?? '{}').open === 0 &&
        stream.of('open_count').length >= 3,
      'open_count back to 0',
    );

    const got = stream.envelopes;
    expect(got.map((e) => e.envelope.type)).toEqual([
      OpenqEvent.QuestionDeclared,
      OpenqEvent.QuestionAnswered,
      OpenqEvent.DecisionRecorded,
    ]);
    expect(got.every((e) => e.envelope.projectId === P)).toBe(true);
    // ids are stream sequences: increasing, past the ready point, and the same as the events'
    const seqs = got.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(seqs[0]).toBeGreaterThan(Number(ready.id));
    expect(got.map((e) => e.envelope.eventId)).toEqual(
      projectEvents()
        .slice(-3)
        .map((e) => e.eventId),
    );
    // the count after the declaration, and after the answer
    const counts = stream.of('open_count');
    expect(counts.every((c) => c.id === null)).toBe(true);
    expect(counts.map((c) => JSON.parse(c.data).open)).toEqual(expect.arrayContaining([1, 0]));
  });

  it('keeps idle connections alive with comment lines', async () => {
    const stream = await openStream();
    await stream.ready();
    await stream.until(() => stream.comments.filter((c) => c === 'keep-alive').length >= 2, 'two heartbeats');
  });
});

describe('reconnecting with Last-Event-ID', () => {
  it('replays exactly what was missed when the client dropped mid-stream: no loss, no repeat', async () => {
    const before = projectEvents().length;
    const first = await openStream();
    await first.ready();
    // A burst of updates; the client drops after seeing a few of them.
    const burst = Promise.all(Array.from({ length: 8 }, (_, i) => declare(P, `Burst question ${i}?`)));
    await first.until(() => first.envelopes.length >= 3, 'three events');
    first.close();
    const seen = first.envelopes;
    const ids = await burst;
    await answer(ids[0]!);
    await answer(ids[1]!);
    await declare(OTHER);
    await waitFor(() => projectEvents().length >= before + 8 + 4, { what: 'all updates stored' });

    const lastId = String(seen.at(-1)!.seq);
    const second = await openStream({ ...cookie(), 'last-event-id': lastId });
    const ready = await second.ready();
    expect(JSON.parse(ready.data)).toEqual({ resumed: true, reset: false });

    const expected = projectEvents()
      .slice(before)
      .map((e) => e.eventId);
    const received = [...seen, ...second.envelopes].map((e) => e.envelope.eventId);
    expect(received).toEqual(expected);
    expect(new Set(received).size).toBe(received.length);
    const resumedSeqs = second.envelopes.map((e) => e.seq);
    expect(resumedSeqs.every((s) => s > Number(lastId))).toBe(true);
    expect(Number(ready.id)).toBeGreaterThanOrEqual(resumedSeqs.at(-1)!);

    // …and then it is live again, once.
    const q = await declare(P, 'After the catch-up?');
    await second.until(
      () => second.envelopes.some((e) => (e.envelope.data as { questionId?: string }).questionId === q),
      'live event',
    );
    expect(
      second.envelopes.filter((e) => (e.envelope.data as { questionId?: string }).questionId === q),
    ).toHaveLength(1);
  });

  it("resumes from the ready event's id when nothing of the project happened before the drop", async () => {
    const first = await openStream();
    const ready = await first.ready();
    first.close();
    const q = await declare();
    await waitFor(() => projectEvents().some((e) => (e.data as { questionId?: string }).questionId === q), {
      what: 'stored',
    });

    const second = await openStream({ ...cookie(), 'last-event-id': ready.id! });
    await second.ready();
    expect(second.envelopes.map((e) => (e.envelope.data as { questionId?: string }).questionId)).toEqual([q]);
  });

  it('starts fresh on a Last-Event-ID that is not a sequence, and repeats nothing on one from the future', async () => {
    const garbled = await openStream({ ...cookie(), 'last-event-id': 'yesterday' });
    expect(JSON.parse((await garbled.ready()).data)).toEqual({ resumed: false, reset: false });
    const future = await openStream({ ...cookie(), 'last-event-id': '999999999' });
    const ready = await future.ready();
    expect(JSON.parse(ready.data)).toEqual({ resumed: true, reset: false });
    expect(ready.id).toBe('999999999');
    await declare();
    await garbled.until(() => garbled.envelopes.length === 1, 'live event on the fresh stream');
    expect(future.envelopes).toEqual([]);
  });
});

describe('limits and clean-up', () => {
  it('caps the streams of a process, frees a slot on disconnect, and keeps one live consumer', async () => {
    const open = await Promise.all(['ana', 'bia', 'caio', 'davi'].map((u) => openStream(cookie(u))));
    for (const s of open) await s.ready();
    const refused = await stack.http('GET', `/projects/${P}/stream`, {
      token: stack.token('ana', P, 'viewer'),
    });
    expect(refused).toMatchObject({ status: 503, body: { reason: 'muitas_conexoes_ao_vivo' } });

    const jsm = await stack.nc.jetstreamManager();
    const consumers = async () => (await jsm.consumers.list('OPENQ_EVENTS').next()).map((c) => c.name);
    // one tail per gateway process, however many browsers; catch-up consumers are gone once done
    expect((await consumers()).filter((n) => n.startsWith('gateway_live_'))).toHaveLength(1);
    expect((await consumers()).filter((n) => n.startsWith('gateway_catchup_'))).toEqual([]);

    open[0]!.close();
    await waitFor(async () => (await streamsOpen()) === 3, { what: 'the slot freed' });
    const again = await openStream();
    expect(again.status).toBe(200);
    await again.ready();
  });

  it('gives each user a share: one user cannot take every slot of the process', async () => {
    const mine = await Promise.all([openStream(), openStream(), openStream()]);
    for (const s of mine) await s.ready();
    const fourth = await fetch(`${stack.baseUrl}/projects/${P}/stream`, {
      headers: { authorization: `Bearer ${stack.token('ana', P, 'viewer')}` },
    });
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toBe('30');
    expect(await fourth.json()).toMatchObject({ statusCode: 429, reason: 'muitas_conexoes_ao_vivo' });
    // Another user still gets the slot that is left.
    const theirs = await openStream(cookie('bia'));
    expect(theirs.status).toBe(200);
    await theirs.ready();
    mine[0]!.close();
    await waitFor(async () => (await streamsOpen()) === 3, { what: "ana's stream closed" });
    const again = await openStream();
    expect(again.status).toBe(200);
    await again.ready();
  });

  it('ends the stream when the token expires', async () => {
    const shortLived = mintDevToken({
      user: 'ana',
      project: P,
      role: 'viewer',
      secret: DEV_JWT_SECRET,
      ttl: 2,
    });
    const stream = await openStream({ cookie: `openq_token=${shortLived}` });
    await stream.ready();
    await stream.until(() => stream.ended, 'the stream to end at the expiry');
  });
});
