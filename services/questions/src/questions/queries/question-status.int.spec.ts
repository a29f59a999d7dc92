import type { DataSource } from 'typeorm';
import { useQuestionsDatabase } from '../testing/questions-database';
import { newId } from '@openq/contracts';
import { OutboxWriter } from '@openq/messaging';
import { answerQuestion } from '../commands/answer-question/answer-question.handler';
import { declareIn } from '../testing/declare-in';
import { questionStatuses } from './question-status.query';

let ds: DataSource;
useQuestionsDatabase((opened) => (ds = opened));

describe('questionStatuses (openq.questions.status)', () => {
  it('answers absent, open or answered from the log, per id asked, another project’s question absent', async () => {
    const open = (await declareIn(ds, 'p1', { pergunta: 'open one?', toolCallId: 'tc-open' })).questionId;
    const done = (await declareIn(ds, 'p1', { pergunta: 'answered one?', toolCallId: 'tc-done' })).questionId;
    const elsewhere = (await declareIn(ds, 'p2', { pergunta: 'p2?', toolCallId: 'tc-p2' })).questionId;
    const answer = await ds.transaction(async (m) => {
      const outbox = new OutboxWriter(m);
      const decision = await answerQuestion(
        m,
        outbox,
        'p1',
        done,
        { by: 'user', userId: 'ana', resposta: 'yes' },
        new Date(),
      );
      await outbox.flush();
      return decision;
    });
    if (!('kind' in answer) || answer.kind !== 'answered') throw new Error('not answered');
    const ghost = newId();

    const reply = await questionStatuses(ds.manager, 'p1', [ghost, done, open, elsewhere, open]);

    expect(reply.items).toEqual([
      { questionId: ghost, status: 'absent', decisionEventId: null, answeredAt: null },
      {
        questionId: done,
        status: 'answered',
        decisionEventId: answer.answered.decisionEventId,
        answeredAt: answer.answered.answeredAt,
      },
      { questionId: open, status: 'open', decisionEventId: null, answeredAt: null },
      { questionId: elsewhere, status: 'absent', decisionEventId: null, answeredAt: null },
    ]);
    expect((await questionStatuses(ds.manager, 'p2', [elsewhere])).items[0]?.status).toBe('open');
  });
});
