import type { DataSource } from 'typeorm';
import { isRefusal, type QuestionListFilter, type Refusal } from '@openq/contracts';
import { withOutbox } from '@openq/messaging';
import { countQuestions, listQuestions } from '../../queries/list-open-questions.query';
import { questionStatuses } from '../../queries/question-status.query';
import { declareIn } from '../../testing/declare-in';
import { useQuestionsDatabase } from '../../testing/questions-database';
import {
  answerQuestion,
  type AnswerDecision,
  type AnswerInput as AnswerCommand,
} from '../answer-question/answer-question.handler';
import {
  withdrawQuestion,
  type WithdrawInput as WithdrawCommand,
  type WithdrawResult as WithdrawOutcome,
} from './withdraw-question.handler';

let ds: DataSource;
useQuestionsDatabase((opened) => (ds = opened), { poolSize: 12 });

const byAna = (motivo = 'Settled in the story'): WithdrawCommand => ({ by: 'user', userId: 'ana', motivo });

function withdraw(
  projectId: string,
  questionId: string,
  command: WithdrawCommand = byAna(),
): Promise<WithdrawOutcome | Refusal> {
  return withOutbox(ds, {}, (m, outbox) =>
    withdrawQuestion(m, outbox, projectId, questionId, command, new Date()),
  );
}

function answer(projectId: string, questionId: string, command: AnswerCommand): Promise<AnswerDecision> {
  return withOutbox(ds, {}, (m, outbox) =>
    answerQuestion(m, outbox, projectId, questionId, command, new Date()),
  );
}

async function rows(sql: string, params: unknown[]): Promise<number> {
  const [row]: { n: string }[] = await ds.query(sql, params);
  return Number(row?.n ?? 0);
}

async function listed(projectId: string, status: QuestionListFilter) {
  const reply = await listQuestions(ds.manager, { projectId, userId: 'ana', status, limit: 50 });
  if (isRefusal(reply)) throw new Error(reply.reason);
  return reply;
}

describe('withdrawQuestion (§11.5)', () => {
  it('appends question.withdrawn with its outbox row, and the question leaves the open list and count', async () => {
    const q = (await declareIn(ds, 'w1', { pergunta: 'withdraw me?', toolCallId: 'tc-w1' })).questionId;
    const kept = (await declareIn(ds, 'w1', { pergunta: 'keep me?', toolCallId: 'tc-w1b' })).questionId;

    const outcome = await withdraw('w1', q, byAna('No longer needed'));

    expect(outcome).toMatchObject({
      kind: 'withdrawn',
      withdrawn: { questionId: q, by: { kind: 'user', id: 'ana' }, motivo: 'No longer needed' },
    });
    // The log row and the outbox row are one event (Nats-Msg-Id = log id).
    expect(
      await rows(
        `SELECT count(*) AS n FROM outbox o JOIN question_log l ON l.event_id = o.event_id
          WHERE l.question_id = $1 AND l.type = 'question.withdrawn' AND o.subject = 'question.withdrawn.w1'`,
        [q],
      ),
    ).toBe(1);
    expect((await listed('w1', 'open')).items.map((i) => i.questionId)).toEqual([kept]);
    expect(await countQuestions(ds.manager, 'w1', 'open')).toBe(1);
    const withdrawn = await listed('w1', 'withdrawn');
    expect(withdrawn.total).toBe(1);
    expect(withdrawn.items[0]).toMatchObject({
      questionId: q,
      status: 'withdrawn',
      canAnswer: false,
      resposta: null,
      withdrawal: { by: { kind: 'user', id: 'ana' }, motivo: 'No longer needed' },
    });
    expect((await listed('w1', 'all')).total).toBe(2);
    expect((await questionStatuses(ds.manager, 'w1', [q])).items[0]?.status).toBe('withdrawn');
  });

  it('withdrawing again writes nothing: the first withdrawal stands, whoever asks', async () => {
    const q = (await declareIn(ds, 'w2', { pergunta: 'twice?', toolCallId: 'tc-w2' })).questionId;
    await withdraw('w2', q, { by: 'agent', viaAgente: 'po', sessionId: 's', motivo: 'The PO settled it' });

    const again = await withdraw('w2', q, byAna('Mine'));

    expect(again).toMatchObject({
      kind: 'already_withdrawn',
      withdrawn: { by: { kind: 'agent', id: 'po' }, motivo: 'The PO settled it' },
    });
    expect(await rows(`SELECT count(*) AS n FROM question_log WHERE question_id = $1`, [q])).toBe(2);
    expect(await rows(`SELECT count(*) AS n FROM outbox WHERE subject = 'question.withdrawn.w2'`, [])).toBe(
      1,
    );
  });

  it('refuses a non-author (403), an answered question (409); a withdrawn one is never answered', async () => {
    const q = (await declareIn(ds, 'w3', { pergunta: 'answered?', toolCallId: 'tc-w3' })).questionId;
    const r = (await declareIn(ds, 'w3', { pergunta: 'withdrawn?', toolCallId: 'tc-w3b' })).questionId;
    await answer('w3', q, { by: 'user', userId: 'ana', resposta: 'yes' });
    await withdraw('w3', r);

    expect(await withdraw('w3', r, { by: 'user', userId: 'bia', motivo: 'x' })).toMatchObject({
      statusCode: 403,
      reason: 'so_o_autor_da_sessao',
    });
    expect(await withdraw('w3', q)).toMatchObject({ statusCode: 409, reason: 'pergunta_ja_respondida' });
    expect(await withdraw('other', r)).toMatchObject({ statusCode: 404, reason: 'pergunta_nao_encontrada' });
    expect(await answer('w3', r, { by: 'user', userId: 'ana', resposta: 'late' })).toMatchObject({
      statusCode: 409,
      reason: 'pergunta_retirada',
    });
    // §12.1 / ADR 0258 item 4: the agent's door finds it closed, never a conflict; nothing is recorded.
    expect(await answer('w3', r, { by: 'agent', viaAgente: 'po', resposta: 'late' })).toMatchObject({
      kind: 'already_withdrawn',
    });
    expect(
      await rows(
        `SELECT count(*) AS n FROM question_log WHERE question_id = $1 AND type <> 'question.declared'`,
        [r],
      ),
    ).toBe(1);
  });

  it('an answer and a withdrawal racing on one question: exactly one stands, in the log and the view', async () => {
    for (let round = 0; round < 5; round++) {
      const q = (await declareIn(ds, 'w4', { pergunta: `race ${round}?`, toolCallId: `tc-w4-${round}` }))
        .questionId;
      const results = await Promise.all([
        withdraw('w4', q),
        answer('w4', q, { by: 'user', userId: 'ana', resposta: 'yes' }),
        withdraw('w4', q, { by: 'agent', viaAgente: 'po', sessionId: 's', motivo: 'moot' }),
        answer('w4', q, { by: 'agent', viaAgente: 'po', resposta: 'no' }),
      ]);
      const closing = await rows(
        `SELECT count(*) AS n FROM question_log WHERE question_id = $1 AND type IN ('question.answered', 'question.withdrawn')`,
        [q],
      );
      expect(closing).toBe(1);
      const answeredFirst = results.some((x) => !isRefusal(x) && 'kind' in x && x.kind === 'answered');
      const [view]: { status: string }[] = await ds.query(
        `SELECT status FROM question_view WHERE question_id = $1`,
        [q],
      );
      expect(view?.status).toBe(answeredFirst ? 'answered' : 'withdrawn');
    }
    const counts: { open: number; answered: number; withdrawn: number }[] = await ds.query(
      `SELECT open, answered, withdrawn FROM question_counts WHERE project_id = 'w4'`,
    );
    expect(counts[0]!.open).toBe(0);
    expect(counts[0]!.answered + counts[0]!.withdrawn).toBe(5);
  });

  it('the log refuses a second closing event for one question, whatever the handlers do', async () => {
    const q = (await declareIn(ds, 'w5', { pergunta: 'backstop?', toolCallId: 'tc-w5' })).questionId;
    await withdraw('w5', q);
    await expect(
      ds.query(
        `INSERT INTO question_log (event_id, project_id, question_id, type, data)
         VALUES (gen_random_uuid(), 'w5', $1, 'question.answered', '{}'::jsonb)`,
        [q],
      ),
    ).rejects.toThrow(/question_log_one_closing/);
  });
});
