import type { DataSource } from 'typeorm';
import { isRefusal } from '@openq/contracts';
import { OutboxWriter } from '@openq/messaging';
import { declareIn } from '../../testing/declare-in';
import { useQuestionsDatabase } from '../../testing/questions-database';
import { countRoundTrips } from '../../testing/round-trips';
import { answerQuestion } from './answer-question.handler';

let ds: DataSource;
useQuestionsDatabase((opened) => (ds = opened), { poolSize: 8 });

function answerCounted(projectId: string, questionId: string) {
  return countRoundTrips(ds, async (m) => {
    const outbox = new OutboxWriter(m);
    const decision = await answerQuestion(
      m,
      outbox,
      projectId,
      questionId,
      { by: 'user', userId: 'ana', resposta: 'Yes' },
      new Date(),
    );
    await outbox.flush();
    return decision;
  });
}

/** The view row's positions against the log's rows of the question. */
async function positions(questionId: string) {
  const [row]: { last: string; declared: string; answered: string; logDeclared: string; logLast: string }[] =
    await ds.query(
      `SELECT v.last_position::text AS last, v.declared_position::text AS declared, v.status AS answered,
              (SELECT min(position)::text FROM question_log WHERE question_id = $1) AS "logDeclared",
              (SELECT max(position)::text FROM question_log WHERE question_id = $1
                  AND type IN ('question.answered', 'question.withdrawn', 'decision.superseded')) AS "logLast"
         FROM question_view v WHERE v.question_id = $1`,
      [questionId],
    );
  return row;
}

describe('answerQuestion', () => {
  it('waits for one statement, the lock and load: the log insert, the view and the outbox go ahead of the COMMIT', async () => {
    const { questionId } = await declareIn(ds, 'ans1', {
      pergunta: 'Lowercase codes?',
      toolCallId: 'tc-ans1',
    });
    const { result, statements, waits } = await answerCounted('ans1', questionId);
    if (isRefusal(result)) throw new Error(result.reason);
    expect(result.kind).toBe('answered');
    // The question's lock (ahead), its load; the answer's and the decision's log rows (ahead); the
    // view and counts (ahead); the outbox (ahead of the COMMIT).
    expect({ statements, waits }).toEqual({ statements: 5, waits: 1 });
  });

  it("writes the log's own positions into the view although the insert's reply was not read", async () => {
    const { questionId } = await declareIn(ds, 'ans2', {
      pergunta: 'Uppercase codes?',
      toolCallId: 'tc-ans2',
    });
    await answerCounted('ans2', questionId);
    const row = await positions(questionId);
    expect(row).toMatchObject({ answered: 'answered', declared: row!.logDeclared, last: row!.logLast });
    expect(BigInt(row!.last)).toBeGreaterThan(BigInt(row!.declared));
  });
});
