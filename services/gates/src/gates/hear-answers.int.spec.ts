import type { EntityManager } from 'typeorm';
import {
  newId,
  type AgentQaVerdictDto,
  type QuestionAnswered,
  type QuestionStatusItem,
} from '@openq/contracts';
import { OutboxWriter } from '@openq/messaging';
import { recordStatements } from '@openq/persistence';
import { useServiceDatabase } from '@openq/testing';
import { hearAnswers } from './commands/hear-answer/hear-answer.handler';
import { DeclaredBefore } from './commands/record-verdict/prepare-verdict';
import { recordVerdict } from './commands/record-verdict/record-verdict.handler';
import { GateTransaction } from './gate-transaction';
import { GATES_MIGRATIONS } from './migrations';
import { answeredByClick, inGateTransaction } from './__fixtures__/gate-transactions';

/**
 * A batch of `question.answered` in one transaction (issue #29, `WHOLE_BATCH`) on the real
 * PostgreSQL: every answer is heard as it would be alone, in the batch's order, each resume
 * published with its own message's correlation, in one statement each for the answers, the
 * cycles' look-up and lock, the cycles' writes and the history.
 */
const store = useServiceDatabase('gates', GATES_MIGRATIONS);

/** The question log's owner, as the verdict asks it: every cited question is open. */
const owner = {
  statusOf: async (_projectId: string, ids: readonly string[]): Promise<QuestionStatusItem[]> =>
    ids.map((questionId) => ({ questionId, status: 'open', decisionEventId: null, answeredAt: null })),
};

const inTx = <T>(work: (manager: EntityManager, tx: GateTransaction) => Promise<T>) =>
  inGateTransaction(store.ds, work);

/** A QA round that parks the task's cycle on `questionIds`, one subspecialty each. */
const park = (projectId: string, taskId: string, questionIds: string[]) => {
  const verdict: AgentQaVerdictDto = {
    roundId: 'r1',
    taskId,
    gate: 'qa',
    sessionId: 'qa-s',
    sessionAuthorId: 'ana',
    verdicts: questionIds.map((openQuestionId, i) => ({
      subspecialty: `s${i}`,
      veredito: 'needs_user_decision' as const,
      resumo: 'ask',
      itens: [],
      openQuestionId,
    })),
  };
  return inTx((_m, tx) =>
    recordVerdict(
      tx,
      verdict,
      { declared: new DeclaredBefore(null), owner },
      { projectId, correlationId: 'c', defaultMaxCorrections: 3, now: new Date() },
    ),
  );
};

const answer = (questionId: string) => answeredByClick(questionId);

const stateOf = async (projectId: string, taskId: string) =>
  (
    (await store.ds.query(`SELECT state FROM gate_cycle WHERE project_id = $1 AND task_id = $2`, [
      projectId,
      taskId,
    ])) as { state: string }[]
  )[0]?.state;

it('hears a batch of answers as one by one: each resume under its own message, one statement each', async () => {
  const [q1, q2, q3, q4] = [newId(), newId(), newId(), newId()];
  await park('p1', 'T-two', [q1, q2]);
  await park('p1', 'T-one', [q3]);
  await park('p2', 'T-other', [q4]);

  const units: { projectId: string; data: QuestionAnswered; outbox?: OutboxWriter }[] = [
    { projectId: 'p1', data: answer(q1) },
    { projectId: 'p1', data: answer(q3) },
    { projectId: 'p1', data: answer(q2) },
    { projectId: 'p2', data: answer(q4) },
    // q4 in the wrong project: tells no cycle of p1, and p2's cycle is not told twice
    { projectId: 'p1', data: answer(q4) },
  ];
  const { sent, value: resumedBy } = await recordStatements(store.ds, () =>
    inTx(async (manager, tx) => {
      for (const unit of units) unit.outbox = new OutboxWriter(manager);
      await hearAnswers(tx, units, new Date());
      const resumed = units.map(({ outbox }) =>
        outbox!.queued
          .filter((e) => e.type === 'gate.resumed')
          .map((e) => (e.data as { taskId: string }).taskId),
      );
      for (const unit of units) await unit.outbox!.flush();
      return resumed;
    }),
  );
  // T-two resumes on its last answer (q2, the third message), not on the first
  expect(resumedBy).toEqual([[], ['T-one'], ['T-two'], ['T-other'], []]);
  expect(await stateOf('p1', 'T-two')).toBe('running');
  expect(await stateOf('p1', 'T-one')).toBe('running');
  expect(await stateOf('p2', 'T-other')).toBe('running');

  const recorded = await store.ds.query(
    `SELECT project_id, count(*)::int AS n FROM answered_questions GROUP BY project_id ORDER BY project_id`,
  );
  expect(recorded).toEqual([
    { project_id: 'p1', n: 4 },
    { project_id: 'p2', n: 1 },
  ]);
  const history = (await store.ds.query(
    `SELECT task_id, type FROM gate_history WHERE type = 'gate.resumed' ORDER BY id`,
  )) as { task_id: string }[];
  expect(history.map((h) => h.task_id)).toEqual(['T-one', 'T-two', 'T-other']);

  const count = (pattern: RegExp) => sent.filter((s) => pattern.test(s)).length;
  expect(count(/INSERT INTO answered_questions/)).toBe(1);
  expect(count(/FROM gate_cycle g JOIN candidates/)).toBe(1);
  expect(count(/INSERT INTO gate_cycle/)).toBe(1);
  expect(count(/INSERT INTO gate_history/)).toBe(1);
});

it('a cycle decided twice in a batch is written once, in its last state, with both answers', async () => {
  const [q1, q2] = [newId(), newId()];
  await park('p3', 'T-both', [q1, q2]);
  const { sent } = await recordStatements(store.ds, () =>
    inTx((_m, tx) =>
      hearAnswers(
        tx,
        [
          { projectId: 'p3', data: answer(q1) },
          { projectId: 'p3', data: answer(q2) },
        ],
        new Date(),
      ),
    ),
  );
  expect(sent.filter((s) => /INSERT INTO gate_cycle/.test(s))).toHaveLength(1);
  expect(await stateOf('p3', 'T-both')).toBe('running');
  const [row] = (await store.ds.query(
    `SELECT cycle FROM gate_cycle WHERE project_id = 'p3' AND task_id = 'T-both'`,
  )) as { cycle: { answeredQuestions: Record<string, string> } }[];
  expect(Object.keys(row!.cycle.answeredQuestions).sort()).toEqual([q1, q2].sort());
  const types = (await store.ds.query(
    `SELECT type FROM gate_history WHERE project_id = 'p3' ORDER BY id`,
  )) as { type: string }[];
  expect(types.map((t) => t.type)).toEqual(['gate.verdict_recorded', 'gate.rescue_parked', 'gate.resumed']);
});
