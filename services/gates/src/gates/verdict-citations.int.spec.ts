import type { DataSource, EntityManager } from 'typeorm';
import { connect, type NatsConnection, type Subscription } from 'nats';
import {
  Commands,
  newId,
  type AgentQaVerdictDto,
  type QuestionStatusCommand,
  type QuestionStatusItem,
} from '@openq/contracts';
import { decodeJson, encodeJson, RetryLaterError } from '@openq/messaging';
import { openDatabase } from '@openq/persistence';
import { QuestionOwner } from '@openq/platform';
import { createTestDatabase, startNatsServer, type TestDatabase, type TestNatsServer } from '@openq/testing';
import { hearAnswers } from './commands/hear-answer/hear-answer.handler';
import { hearWithdrawal } from './commands/hear-withdrawal/hear-withdrawal.handler';
import { DeclaredBefore } from './commands/record-verdict/prepare-verdict';
import { recordVerdict } from './commands/record-verdict/record-verdict.handler';
import { GateTransaction } from './gate-transaction';
import { GATES_MIGRATIONS } from './migrations';
import { answeredByClick, inGateTransaction } from './__fixtures__/gate-transactions';

/**
 * §11.1 / §11.2 on the real PostgreSQL and NATS: a verdict's `openQuestionId`s are checked with
 * the owner of the question log (`openq.questions.status`) before anything parks. The owner here
 * answers over the real broker from `committed`, the facts its log would hold.
 */
const P = 'p1';

let db: TestDatabase;
let ds: DataSource;
let nats: TestNatsServer;
let nc: NatsConnection;
let responder: Subscription | null = null;
let owner: QuestionOwner;
/** What the questions service has committed, by project then question id. */
const committed = new Map<string, QuestionStatusItem>();
const asked: string[][] = [];

/** These rounds declare no new question (`prepareVerdict` declared none). */
const declared = new DeclaredBefore(null);

function answerAsOwner(): Subscription {
  const { service, type } = Commands.questions.status;
  return nc.subscribe(type, {
    queue: service,
    callback: (_err, msg) => {
      const decoded = decodeJson(msg.data);
      const cmd = (decoded.ok ? decoded.value : {}) as QuestionStatusCommand;
      asked.push(cmd.questionIds);
      const items = cmd.questionIds.map(
        (questionId) =>
          committed.get(`${cmd.projectId}/${questionId}`) ?? {
            questionId,
            status: 'absent' as const,
            decisionEventId: null,
            answeredAt: null,
          },
      );
      msg.respond(encodeJson({ ok: true, data: { items } }));
    },
  });
}

beforeAll(async () => {
  [db, nats] = await Promise.all([createTestDatabase(), startNatsServer()]);
  ds = await openDatabase({ url: db.url, schema: 'gates', migrations: GATES_MIGRATIONS as never });
  nc = await connect({ servers: nats.url });
  owner = new QuestionOwner(nc);
  responder = answerAsOwner();
  await nc.flush();
});
afterAll(async () => {
  await nc.drain();
  await nats.stop();
  await ds.destroy();
  await db.drop();
});
beforeEach(() => {
  asked.length = 0;
});

const inTx = <T>(work: (manager: EntityManager, tx: GateTransaction) => Promise<T>) =>
  inGateTransaction(ds, work);

const citing = (taskId: string, questionId: string, roundId = 'r1'): AgentQaVerdictDto => ({
  roundId,
  taskId,
  gate: 'qa',
  sessionId: 'qa-s',
  sessionAuthorId: 'ana',
  verdicts: [
    {
      subspecialty: 'rules',
      veredito: 'needs_user_decision',
      resumo: 'ask',
      itens: [],
      openQuestionId: questionId,
    },
  ],
});

const record = (verdict: AgentQaVerdictDto) =>
  inTx((_m, tx) =>
    recordVerdict(
      tx,
      verdict,
      { declared, owner },
      { projectId: P, correlationId: 'c', defaultMaxCorrections: 3, now: new Date() },
    ),
  );

function commit(projectId: string, item: QuestionStatusItem): void {
  committed.set(`${projectId}/${item.questionId}`, item);
}
const open = (questionId: string): QuestionStatusItem => ({
  questionId,
  status: 'open',
  decisionEventId: null,
  answeredAt: null,
});

async function published(
  taskId: string,
): Promise<{ id: string; type: string; data: Record<string, unknown> }[]> {
  return ds.query(
    `SELECT event_id AS id, envelope->>'type' AS type, envelope->'data' AS data FROM outbox
      WHERE envelope->'data'->>'taskId' = $1 ORDER BY id`,
    [taskId],
  );
}

async function cycleOf(
  taskId: string,
): Promise<{ state: string; parked_reason: string | null; cycle: { correctionCount: number } }> {
  const [row] = await ds.query(`SELECT state, parked_reason, cycle FROM gate_cycle WHERE task_id = $1`, [
    taskId,
  ]);
  return row;
}

describe('a verdict citing an existing question (openQuestionId)', () => {
  it('refuses a question unknown in the project: nothing parked, the cycle running, one gate.verdict_rejected', async () => {
    const ghost = newId();
    const elsewhere = newId();
    commit('p2', open(elsewhere)); // a real question, of another project

    for (const [taskId, questionId] of [
      ['T-ghost', ghost],
      ['T-other-project', elsewhere],
    ] as const) {
      await record(citing(taskId, questionId));
      await record(citing(taskId, questionId)); // the same round delivered again

      const events = await published(taskId);
      expect(events.map((e) => [e.type, e.data])).toEqual([
        [
          'gate.verdict_rejected',
          { taskId, gate: 'qa', roundId: 'r1', reason: 'pergunta_nao_encontrada', questionId },
        ],
      ]);
      expect(await cycleOf(taskId)).toMatchObject({
        state: 'running',
        parked_reason: null,
        cycle: { correctionCount: 0 },
      });
    }
    // The redelivered round was known spent: the owner was asked once per task.
    expect(asked).toEqual([[ghost], [elsewhere]]);
  });

  it('the rejection of one round has one event id, whichever transaction writes it (JetStream dedupes it)', async () => {
    const ghost = newId();
    await record(citing('T-id-a', ghost));
    const [first] = await published('T-id-a');
    // Forget the round, as if the transaction that spent it had never been seen by the next one.
    await ds.query(`DELETE FROM gate_cycle WHERE task_id = 'T-id-a'`);
    await ds.query(`DELETE FROM outbox WHERE event_id = $1`, [first!.id]);
    await record(citing('T-id-a', ghost));
    await record(citing('T-id-b', ghost));

    const [second] = await published('T-id-a');
    const [other] = await published('T-id-b');
    expect(second).toMatchObject({ id: first!.id, type: 'gate.verdict_rejected' });
    expect(other?.id).not.toBe(first!.id);
  });

  it('a question the owner has answered, whose answer this service has not heard of, counts as answered', async () => {
    const q = newId();
    const d = newId();
    commit(P, {
      questionId: q,
      status: 'answered',
      decisionEventId: d,
      answeredAt: new Date().toISOString(),
    });

    await record(citing('T-answered', q));

    expect((await published('T-answered')).map((e) => e.type)).toEqual([
      'gate.verdict_recorded',
      'gate.resumed',
    ]);
    expect((await published('T-answered'))[1]?.data).toMatchObject({
      questionIds: [q],
      decisionEventIds: [d],
    });
    expect(await cycleOf('T-answered')).toMatchObject({ state: 'running', parked_reason: null });
  });

  it('an answer this service has heard of needs no call: the common path costs nothing extra', async () => {
    const q = newId();
    const d = newId();
    await inTx((_m, tx) =>
      hearAnswers(
        tx,
        [
          {
            projectId: P,
            data: answeredByClick(q, d),
          },
        ],
        new Date(),
      ),
    );

    await record(citing('T-heard', q));

    expect(asked).toEqual([]);
    expect((await published('T-heard')).map((e) => e.type)).toEqual([
      'gate.verdict_recorded',
      'gate.resumed',
    ]);
  });

  it('§11.5 a question the owner reports withdrawn exists and is not waited on: resumed, trigger withdrawn', async () => {
    const q = newId();
    commit(P, { questionId: q, status: 'withdrawn', decisionEventId: null, answeredAt: null });

    await record(citing('T-withdrawn', q));

    const events = await published('T-withdrawn');
    expect(events.map((e) => e.type)).toEqual(['gate.verdict_recorded', 'gate.resumed']);
    expect(events[1]?.data).toMatchObject({
      trigger: 'withdrawn',
      questionIds: [q],
      decisionEventIds: [],
      withdrawnQuestionIds: [q],
    });
    expect(await cycleOf('T-withdrawn')).toMatchObject({ state: 'running', parked_reason: null });
  });

  it('§11.5 a withdrawal heard before the verdict needs no call; heard while parked, it resumes the cycle', async () => {
    const early = newId();
    const withdrawnAt = new Date().toISOString();
    const by = { kind: 'user' as const, id: 'ana' };
    await inTx((_m, tx) =>
      hearWithdrawal(tx, P, { questionId: early, by, motivo: 'moot', withdrawnAt }, new Date()),
    );
    await record(citing('T-heard-withdrawn', early));
    expect(asked).toEqual([]);
    expect((await published('T-heard-withdrawn')).map((e) => e.type)).toEqual([
      'gate.verdict_recorded',
      'gate.resumed',
    ]);

    const late = newId();
    commit(P, open(late));
    await record(citing('T-parked-withdrawn', late));
    expect(await cycleOf('T-parked-withdrawn')).toMatchObject({ state: 'parked' });
    await inTx((_m, tx) =>
      hearWithdrawal(tx, P, { questionId: late, by, motivo: 'moot', withdrawnAt }, new Date()),
    );
    // Delivered twice: heard once.
    await inTx((_m, tx) =>
      hearWithdrawal(tx, P, { questionId: late, by, motivo: 'moot', withdrawnAt }, new Date()),
    );
    const events = await published('T-parked-withdrawn');
    expect(events.map((e) => e.type)).toEqual([
      'gate.verdict_recorded',
      'gate.rescue_parked',
      'gate.resumed',
    ]);
    expect(events[2]?.data).toMatchObject({
      trigger: 'withdrawn',
      questionIds: [late],
      withdrawnQuestionIds: [late],
    });
    expect(await cycleOf('T-parked-withdrawn')).toMatchObject({ state: 'running', parked_reason: null });
  });

  it('an open question parks the cycle on it; its answer resumes it', async () => {
    const q = newId();
    commit(P, open(q));

    await record(citing('T-open', q));
    expect(await cycleOf('T-open')).toMatchObject({ state: 'parked', parked_reason: 'user_decision' });

    await inTx((_m, tx) =>
      hearAnswers(
        tx,
        [
          {
            projectId: P,
            data: answeredByClick(q),
          },
        ],
        new Date(),
      ),
    );
    expect((await published('T-open')).map((e) => e.type)).toEqual([
      'gate.verdict_recorded',
      'gate.rescue_parked',
      'gate.resumed',
    ]);
  });

  it('the questions service down: the verdict is retried later (RetryLaterError), nothing written', async () => {
    responder?.unsubscribe();
    responder = null;
    await nc.flush();
    try {
      await expect(record(citing('T-down', newId()))).rejects.toBeInstanceOf(RetryLaterError);
      expect(await published('T-down')).toEqual([]);
      expect(await cycleOf('T-down')).toBeUndefined();
    } finally {
      responder = answerAsOwner();
      await nc.flush();
    }
  });
});
