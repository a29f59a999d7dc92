import type { EntityManager } from 'typeorm';
import type { AgentQaVerdictDto, QuestionAnswered } from '@openq/contracts';
import { recordStatements } from '@openq/persistence';
import { useServiceDatabase, waitFor } from '@openq/testing';
import { startCycle } from './commands/cycle-activity/cycle-activity.handler';
import { hearAnswers } from './commands/hear-answer/hear-answer.handler';
import type { QuestionDeclarer } from './adapters/question-declarer';
import { DeclaredBefore, prepareVerdict } from './commands/record-verdict/prepare-verdict';
import { recordVerdict } from './commands/record-verdict/record-verdict.handler';
import { GateTransaction } from './gate-transaction';
import { GATES_MIGRATIONS } from './migrations';
import { answeredByClick, inGateTransaction } from './__fixtures__/gate-transactions';

/**
 * The lost-wakeup race of §5 "if the answer arrived before the cycle parked, the cycle does not
 * park", on the real PostgreSQL: a verdict links a new question while its answer comes in.
 */
const store = useServiceDatabase('gates', GATES_MIGRATIONS);
const P = 'p1';
const Q = '01890a5d-ac96-774b-bcce-b302099a8057';
const D = '01890a5d-ac96-774b-bcce-b302099a8058';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A questions service that answers `Q` once the test lets it. */
function declarerHeldBy(release: Promise<void>) {
  const called = deferred();
  const declarer = {
    declare: async () => {
      called.resolve();
      await release;
      return [Q];
    },
  } as unknown as QuestionDeclarer;
  // These rounds cite no existing question, so the owner is never asked.
  const owner = {
    statusOf: () => Promise.reject(new Error('no question is cited: nothing to ask')),
  };
  return { declarer, owner, called: called.promise };
}

/** The round's question, as `prepareVerdict` declared it before the verdict's transaction. */
const declaredBefore = {
  declared: new DeclaredBefore({ ids: { 'r1:rules': Q } }),
  owner: { statusOf: () => Promise.reject(new Error('no question is cited: nothing to ask')) },
};

const verdict = (taskId: string): AgentQaVerdictDto => ({
  roundId: 'r1',
  taskId,
  gate: 'qa',
  sessionId: 'qa-s',
  sessionAuthorId: 'ana',
  verdicts: [
    { subspecialty: 'rules', veredito: 'needs_user_decision', resumo: 'ask', itens: [], pergunta: 'A?' },
  ],
});
const answer = answeredByClick(Q, D);

/** The verdict's cycle, started as the engine starts it before any round. */
const start = (taskId: string) =>
  inTx((_m, tx) => startCycle(tx, P, { taskId, gate: 'qa', sessionAuthorId: 'ana' } as never, 3, new Date()));

/** Whether a transaction waits on a lock (an advisory lock, a row lock) now. */
const someoneWaitsOnALock = async () => {
  const rows: unknown[] = await store.ds.query(
    `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return rows.length === 1;
};

const inTx = <T>(work: (manager: EntityManager, tx: GateTransaction) => Promise<T>) =>
  inGateTransaction(store.ds, work);

const ctx = () => ({ projectId: P, correlationId: 'c', defaultMaxCorrections: 3, now: new Date() });

async function published(taskId: string): Promise<string[]> {
  const rows: { type: string }[] = await store.ds.query(
    `SELECT envelope->>'type' AS type FROM outbox WHERE envelope->'data'->>'taskId' = $1 ORDER BY id`,
    [taskId],
  );
  return rows.map((r) => r.type);
}

async function stateOf(taskId: string): Promise<string> {
  const [row]: { state: string }[] = await store.ds.query(`SELECT state FROM gate_cycle WHERE task_id = $1`, [
    taskId,
  ]);
  return row!.state;
}

beforeEach(async () => {
  await store.ds.query(`DELETE FROM answered_questions`);
});

describe("a verdict linking a question and that question's answer, at the same time", () => {
  it('the answer lands while the question is being declared: the cycle never parks', async () => {
    const release = deferred();
    const { declarer, owner, called } = declarerHeldBy(release.promise);
    // Declared before the verdict's transaction: nothing is locked while the questions service works.
    const prepared = prepareVerdict(store.ds.manager, verdict('T1'), { declarer, owner }, ctx());
    await called;
    await inTx((_m, tx) => hearAnswers(tx, [{ projectId: P, data: answer }], new Date()));
    release.resolve();
    const { declared } = await prepared;
    expect(declared).toEqual({ ids: { 'r1:rules': Q } });
    const questions = { declared: new DeclaredBefore(declared), owner };
    await inTx((_m, tx) => recordVerdict(tx, verdict('T1'), questions, ctx()));
    expect(await published('T1')).toEqual(['gate.verdict_recorded', 'gate.resumed']);
    expect(await stateOf('T1')).toBe('running');
  });

  it('the answer lands after the link, before the verdict commits: it waits, then resumes the cycle', async () => {
    const linked = deferred();
    const commit = deferred();
    const verdictDone = inTx(async (_m, tx) => {
      await recordVerdict(tx, verdict('T2'), declaredBefore, ctx());
      linked.resolve();
      await commit.promise;
    });
    await linked.promise;
    const answerDone = inTx((_m, tx) => hearAnswers(tx, [{ projectId: P, data: answer }], new Date()));
    await waitFor(someoneWaitsOnALock, { what: 'the answer waiting on the question lock' });
    commit.resolve();
    await Promise.all([verdictDone, answerDone]);
    expect(await published('T2')).toEqual(['gate.verdict_recorded', 'gate.rescue_parked', 'gate.resumed']);
    expect(await stateOf('T2')).toBe('running');
  });

  it("locks a started cycle's questions, then reads the cycle and their answers, in two statements", async () => {
    await start('T3');
    const { sent } = await recordStatements(store.ds, () =>
      inTx((_m, tx) => recordVerdict(tx, verdict('T3'), declaredBefore, ctx())),
    );
    const reads = sent.filter(
      (q) => !/^(START TRANSACTION|COMMIT)/.test(q) && !/outbox|gate_history/.test(q),
    );
    // (A statement sent ahead is recorded when its reply comes: the order here is not the wire's.)
    expect(reads).toHaveLength(2);
    expect(reads.filter((q) => q.includes('pg_advisory_xact_lock'))).toHaveLength(1);
    expect(reads.filter((q) => /FOR UPDATE[\s\S]*answered_questions/.test(q))).toHaveLength(1);
    expect(await published('T3')).toEqual(['gate.verdict_recorded', 'gate.rescue_parked']);
  });

  it("an answer that holds the question's lock when the verdict begins: the verdict waits, sees it, never parks", async () => {
    await start('T4');
    const heard = deferred();
    const commit = deferred();
    const answerDone = inTx(async (_m, tx) => {
      await hearAnswers(tx, [{ projectId: P, data: answer }], new Date());
      heard.resolve();
      await commit.promise;
    });
    await heard.promise;
    const verdictDone = inTx((_m, tx) => recordVerdict(tx, verdict('T4'), declaredBefore, ctx()));
    await waitFor(someoneWaitsOnALock, { what: 'the verdict waiting on the question lock' });
    commit.resolve();
    await Promise.all([answerDone, verdictDone]);
    expect(await published('T4')).toEqual(['gate.verdict_recorded', 'gate.resumed']);
    expect(await stateOf('T4')).toBe('running');
  });

  it('batches of answers racing the verdicts that link them, back to back: no cycle stays parked on an answer', async () => {
    const n = 40;
    const questionOf = (i: number) => `01890a5d-ac96-774b-bcce-${(0xb30209000000 + i).toString(16)}`;
    const answerOf = (i: number): QuestionAnswered => ({ ...answer, questionId: questionOf(i) });
    const link = (i: number) =>
      inTx((_m, tx) =>
        recordVerdict(
          tx,
          verdict(`R${i}`),
          { ...declaredBefore, declared: new DeclaredBefore({ ids: { 'r1:rules': questionOf(i) } }) },
          ctx(),
        ),
      );
    // Each batch answers two questions, in the order a batch sorts them: its own and the next race's.
    const hear = (i: number) =>
      inTx((_m, tx) =>
        hearAnswers(
          tx,
          [i, i + 1].filter((k) => k < n).map((k) => ({ projectId: P, data: answerOf(k) })),
          new Date(),
        ),
      );
    for (let i = 0; i < n; i += 2) {
      // Started in either order, then run concurrently: a verdict and a batch that answers its question.
      await Promise.all(i % 4 === 0 ? [link(i), hear(i), link(i + 1)] : [hear(i), link(i), link(i + 1)]);
    }
    const states: { task_id: string; state: string }[] = await store.ds.query(
      `SELECT task_id, state FROM gate_cycle WHERE task_id LIKE 'R%' ORDER BY task_id`,
    );
    expect(states).toHaveLength(n);
    expect(states.filter((s) => s.state !== 'running')).toEqual([]);
  });
});
