import { OpenqEvent } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { ask, askExisting, publishVerdict, startGate } from '../support/gates';
import { analystPackage, BEFORE, PipelineDriver, Q_AT } from '../support/pipeline';
import { Stack } from '../support/stack';

/**
 * Issue #18, blocking cost, through the real stack (gateway, questions, gates, context; NATS
 * JetStream and PostgreSQL): the open list says what waits on each question (parked gates with
 * their task, the analysis of a task in Needs Input, the tasks queued behind it) and puts what
 * blocks most first with `sort=blocking` (the inbox asks for it); by default, and with
 * `sort=oldest`, §4's order (§12.1). `session=` keeps one session's questions. Needs Input without auto-pause,
 * so the serial gate keeps the next task of the repo waiting.
 */
const P = 'projblk';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({
    services: ['questions', 'gates', 'context'],
    env: { ANALYST_NEEDS_INPUT_AUTOPAUSE_ENABLED: 'false' },
  });
});
afterAll(() => stack.stop());

type Item = {
  questionId: string;
  pergunta: string;
  blocking: { blocks: Record<string, unknown>[]; since: string | null } | null;
};

const list = async (query: string) =>
  stack.http('GET', `/projects/${P}/open-questions${query}`, { token: stack.token('ana', P, 'viewer') });

const parkedOn = (taskId: string) =>
  waitFor(
    () =>
      stack.events
        .ofType<Record<string, unknown>>(OpenqEvent.GateRescueParked)
        .find((e) => e.projectId === P && e.data['taskId'] === taskId),
    { what: `${taskId} parked` },
  );

it('puts what blocks most first on request, says what waits and since when; by default the declared order', async () => {
  const old = await stack.http('POST', `/internal/projects/${P}/open-questions`, {
    service: true,
    body: {
      toolCallId: 'toolu_blk_1',
      sessionId: 'sess-po',
      sessionAuthorId: 'ana',
      autor: 'po',
      pergunta: 'Which logo on the invoice?',
      afeta: { regras: [], historias: [], tarefas: [] },
    },
  });
  const qOld = old.body.questionId as string;

  // qA parks two QA gates (T-101, then T-102 citing it); qB parks one (T-103).
  await startGate(stack, P, 'T-101');
  await publishVerdict(stack, P, 'T-101', 'r1', [
    ask('functional', 'Archived code: 404 or 410?', '410 Gone'),
  ]);
  const qA = ((await parkedOn('T-101')).data['questionIds'] as string[])[0]!;
  await startGate(stack, P, 'T-103');
  await publishVerdict(stack, P, 'T-103', 'r3', [ask('contract', 'Keep the v1 route?')]);
  const qB = ((await parkedOn('T-103')).data['questionIds'] as string[])[0]!;
  await startGate(stack, P, 'T-102');
  await publishVerdict(stack, P, 'T-102', 'r2', [askExisting('functional', qA)]);
  await parkedOn('T-102');

  // qC: T1's analysis waits in Needs Input, and T2 waits behind T1 (serial gate, no auto-pause).
  const p = new PipelineDriver(stack, P);
  await p.register('T1', 'R', 1);
  await p.register('T2', 'R', 2);
  await p.finishAnalysis('T1', 'R', {
    package: analystPackage(Q_AT, BEFORE),
    questions: [{ pergunta: 'Which currency for refunds?' }],
  });
  const [needsInput] = await p.published(OpenqEvent.PipelineNeedsInput, 'T1');
  const qC = (needsInput!.data.questionIds as string[])[0]!;
  expect(await p.task('T2', 'R')).toMatchObject({ state: 'waiting', blockedBy: ['T1'] });

  // A cycle has waited two hours (its park's instant, as "Waiting for you" reads it).
  await stack
    .service('gates')
    .dataSource.query(
      `UPDATE gate_cycle SET updated_at = now() - interval '2 hours' WHERE project_id = $1 AND task_id = 'T-103'`,
      [P],
    );

  const byBlocking = await waitFor(
    async () => {
      const r = await list('?status=open&sort=blocking');
      return (r.body.items as Item[]).length === 4 ? r : false;
    },
    { what: 'four open questions' },
  );
  expect(byBlocking.status).toBe(200);
  expect(byBlocking.body.sort).toBe('blocking');
  const items = byBlocking.body.items as Item[];
  expect(items.map((i) => i.questionId)).toEqual([qA, qC, qB, qOld]);
  expect(items[0]!.blocking).toEqual({
    blocks: [
      { kind: 'gate', taskId: 'T-101', gate: 'qa', since: expect.any(String) },
      { kind: 'gate', taskId: 'T-102', gate: 'qa', since: expect.any(String) },
    ],
    since: expect.any(String),
  });
  expect(items[1]!.blocking).toEqual({
    blocks: [
      { kind: 'analysis', taskId: 'T1', repo: 'R', since: null },
      { kind: 'queued', taskId: 'T2', repo: 'R', behindTaskId: 'T1', since: null },
    ],
    since: null,
  });
  const waitedMs = Date.now() - Date.parse(items[2]!.blocking!.since!);
  expect(waitedMs).toBeGreaterThanOrEqual(2 * 3600_000 - 60_000);
  expect(items[3]!.blocking).toEqual({ blocks: [], since: null });

  // Paging keeps the order; oldest first on request; a bad sort is 400.
  const first = await list('?status=open&sort=blocking&limit=2');
  const second = await list(
    `?status=open&sort=blocking&limit=2&cursor=${encodeURIComponent(first.body.nextCursor as string)}`,
  );
  expect([...first.body.items, ...second.body.items].map((i: Item) => i.questionId)).toEqual([
    qA,
    qC,
    qB,
    qOld,
  ]);
  expect(second.body.nextCursor).toBeNull();
  const oldest = await list('?status=open&sort=oldest');
  expect(oldest.body.sort).toBe('oldest');
  expect((oldest.body.items as Item[]).map((i) => i.questionId)).toEqual([qOld, qA, qB, qC]);
  expect((oldest.body.items as Item[])[1]!.blocking?.blocks).toHaveLength(2);
  // §4 / §12.1 without sort the list is oldest first.
  const byDefault = await list('?status=open');
  expect(byDefault.body.sort).toBe('oldest');
  expect((byDefault.body.items as Item[]).map((i) => i.questionId)).toEqual([qOld, qA, qB, qC]);
  // §12.1 a session's questions: the PO's one, or T-101's QA round.
  const ofSession = async (sessionId: string) =>
    ((await list(`?status=all&session=${sessionId}`)).body.items as Item[]).map((i) => i.questionId);
  expect(await ofSession('sess-po')).toEqual([qOld]);
  expect(await ofSession('qa-T-103')).toEqual([qB]);
  expect(await ofSession('no-such-session')).toEqual([]);
  expect(await list('?session=not%20an%20id')).toMatchObject({
    status: 400,
    body: { reason: 'parametro_invalido' },
  });
  expect(await list('?sort=loudest')).toMatchObject({ status: 400, body: { reason: 'parametro_invalido' } });

  // Answered: qA blocks nothing more (its gates resume), and leaves the open list.
  const answered = await stack.http('POST', `/projects/${P}/open-questions/${qA}/answer`, {
    token: stack.token('ana', P, 'viewer'),
    body: { aceitarSugestao: true },
  });
  expect(answered.status).toBe(200);
  await waitFor(
    async () =>
      ((await list('?status=open&sort=blocking')).body.items as Item[]).map((i) => i.questionId).join() ===
      [qC, qB, qOld].join(),
    { what: 'qA gone, the rest in blocking order' },
  );
});
