import type { EntityManager } from 'typeorm';
import { OutboxWriter } from '@openq/messaging';
import { useServiceDatabase, waitFor } from '@openq/testing';
import { PIPELINE_MIGRATIONS } from './migrations';
import { linkedTask, PipelineTaskStore } from './store/pipeline-task.store';
import { PipelineTransaction } from './pipeline-transaction';
import type { PipelineFlags } from './pipeline.flags';

/**
 * An answer does not lock the project (most answers concern no pipeline task); the link of an
 * analyst question does. They meet on the question's row: whichever commits second must see the
 * other, or the task would wait for an answer it already has.
 */
const store = useServiceDatabase('gates', PIPELINE_MIGRATIONS, { poolSize: 20 });
const P = 'p1';
const flags = {} as PipelineFlags;

/** What an answer's record tells of its question: the task it is linked to, if any. */
const answerOf = async (tx: PipelineTransaction, question: string) => {
  const { tasks } = await tx.store.recordAnswers([
    { projectId: P, questionId: question, answeredAt: new Date() },
  ]);
  return (await tasks).get(linkedTask(P, question)) ?? null;
};
const uuid = (i: number) => `01890a5d-ac96-774b-bcce-${i.toString(16).padStart(12, '0')}`;

describe('an answer and the link of its question, at the same moment', () => {
  it('always meet: the link sees the answer or the answer sees the task, for 200 races', async () => {
    // Ten races at a time: every link takes the project's lock, so 200 at once would queue 400
    // transactions on 20 connections and time out on a loaded machine; each pair still runs at
    // the same moment, in either order.
    const race = async (i: number) => {
      const question = uuid(i);
      const linkNow = () =>
        store.ds.transaction(async (manager) => {
          const tx = await PipelineTransaction.open(manager, new OutboxWriter(manager), P, flags);
          return tx.store.linkQuestions(P, `T${i}`, [question], new Date());
        });
      const answerNow = () =>
        store.ds.transaction((manager) => {
          // What recordAnswers does first, without the project lock.
          const tx = PipelineTransaction.unlocked(manager, new OutboxWriter(manager), P, flags);
          return answerOf(tx, question);
        });
      // Started in either order, then run concurrently.
      let link: Promise<string[]>;
      let answer: Promise<string | null>;
      if (i % 2) {
        link = linkNow();
        answer = answerNow();
      } else {
        answer = answerNow();
        link = linkNow();
      }
      const answeredAtLink = await link;
      const taskAtAnswer = await answer;
      return { linkSawAnswer: answeredAtLink.includes(question), answerSawTask: taskAtAnswer === `T${i}` };
    };
    const outcomes: Awaited<ReturnType<typeof race>>[] = [];
    for (let start = 0; start < 200; start += 10) {
      outcomes.push(...(await Promise.all(Array.from({ length: 10 }, (_, k) => race(start + k)))));
    }
    const missed = outcomes.filter((o) => !o.linkSawAnswer && !o.answerSawTask);
    expect(missed).toEqual([]);
    const rows: { n: string }[] = await store.ds.query(
      `SELECT count(*) AS n FROM pipeline_question WHERE task_id IS NOT NULL AND answered_at IS NOT NULL`,
    );
    expect(Number(rows[0]!.n)).toBe(200);
  });

  /** Runs `first` up to its upsert and holds its transaction open until `second` waits on the row. */
  async function interleave<A, B>(
    first: (tx: PipelineTransaction) => Promise<A>,
    lockFirst: boolean,
    second: (tx: PipelineTransaction) => Promise<B>,
    lockSecond: boolean,
  ): Promise<[A, B]> {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let firstDone!: (a: A) => void;
    const firstResult = new Promise<A>((r) => (firstDone = r));
    const open = async (manager: EntityManager, lock: boolean) => {
      const tx = PipelineTransaction.unlocked(manager, new OutboxWriter(manager), P, flags);
      if (lock) await tx.lockProject();
      return tx;
    };
    const firstTx = store.ds.transaction(async (manager) => {
      firstDone(await first(await open(manager, lockFirst)));
      await held;
    });
    const a = await firstResult;
    const secondTx = store.ds.transaction(async (manager) => second(await open(manager, lockSecond)));
    await waitFor(
      async () => {
        const rows: { n: string }[] = await store.ds.query(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return Number(rows[0]!.n) === 1;
      },
      { what: 'the second transaction waiting on the question row' },
    );
    release();
    await firstTx;
    return [a, await secondTx];
  }

  it('the answer waits for an uncommitted link and then sees its task', async () => {
    const question = uuid(1000);
    const [, task] = await interleave(
      (tx) => tx.store.linkQuestions(P, 'T-link-first', [question], new Date()),
      true,
      (tx) => answerOf(tx, question),
      false,
    );
    expect(task).toBe('T-link-first');
  });

  it('the link waits for an uncommitted answer and then sees it answered', async () => {
    const question = uuid(1001);
    const [task, answered] = await interleave(
      (tx) => answerOf(tx, question),
      false,
      (tx) => tx.store.linkQuestions(P, 'T-answer-first', [question], new Date()),
      true,
    );
    expect(task).toBeNull();
    expect(answered).toEqual([question]);
    expect(await new PipelineTaskStore(store.ds.manager).linkQuestions(P, 'T0', [], new Date())).toEqual([]);
  });

  it('a batch of answers is remembered at once: each learns its own task, a repeat is one row', async () => {
    const [linked, other, loose] = [uuid(2000), uuid(2001), uuid(2002)];
    await store.ds.transaction(async (manager) => {
      const tx = await PipelineTransaction.open(manager, new OutboxWriter(manager), P, flags);
      await tx.store.linkQuestions(P, 'T-batch', [linked], new Date());
      await tx.store.linkQuestions('p2', 'T-p2', [other], new Date());
    });
    const at = new Date();
    const tasks = await store.ds.transaction(async (manager) => {
      const { tasks } = await new PipelineTaskStore(manager).recordAnswers([
        { projectId: P, questionId: linked, answeredAt: at },
        { projectId: P, questionId: other, answeredAt: at }, // not p1's: no task
        { projectId: 'p2', questionId: other, answeredAt: at },
        { projectId: P, questionId: loose, answeredAt: at },
        { projectId: P, questionId: linked, answeredAt: at }, // a repeat in one upsert
      ]);
      return tasks;
    });
    expect([...tasks].sort()).toEqual(
      [
        [linkedTask(P, linked), 'T-batch'],
        [linkedTask('p2', other), 'T-p2'],
      ].sort(),
    );
    const answered: { project_id: string; n: number }[] = await store.ds.query(
      `SELECT project_id, count(*)::int AS n FROM pipeline_question
        WHERE question_id = ANY($1::uuid[]) AND answered_at IS NOT NULL GROUP BY project_id ORDER BY project_id`,
      [[linked, other, loose]],
    );
    expect(answered).toEqual([
      { project_id: P, n: 3 },
      { project_id: 'p2', n: 1 },
    ]);
  });
});
