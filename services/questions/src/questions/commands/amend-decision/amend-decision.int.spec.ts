import type { DataSource } from 'typeorm';
import { isRefusal, type Refusal } from '@openq/contracts';
import { withOutbox } from '@openq/messaging';
import { listQuestions } from '../../queries/list-open-questions.query';
import { replayQuestionProjection } from '../../projections/replay';
import { declareIn } from '../../testing/declare-in';
import { useQuestionsDatabase } from '../../testing/questions-database';
import {
  answerQuestion,
  type AnswerDecision,
  type AnswerInput as AnswerCommand,
} from '../answer-question/answer-question.handler';
import {
  amendDecision,
  type AmendInput as AmendCommand,
  type AmendResult as AmendOutcome,
} from './amend-decision.handler';

let ds: DataSource;
useQuestionsDatabase((opened) => (ds = opened), { poolSize: 12 });

const byAna = (resposta = 'Yes, lowercase too'): AmendCommand => ({ userId: 'ana', resposta });

function amend(
  projectId: string,
  questionId: string,
  command: AmendCommand = byAna(),
): Promise<AmendOutcome | Refusal> {
  return withOutbox(ds, {}, (m, outbox) =>
    amendDecision(m, outbox, projectId, questionId, command, new Date()),
  );
}

function answer(projectId: string, questionId: string, command: AnswerCommand): Promise<AnswerDecision> {
  return withOutbox(ds, {}, (m, outbox) =>
    answerQuestion(m, outbox, projectId, questionId, command, new Date()),
  );
}

const byAgent: AnswerCommand = { by: 'agent', viaAgente: 'po', resposta: 'No', agentSessionId: 'sess-po' };

async function count(sql: string, params: unknown[]): Promise<number> {
  const [row]: { n: string }[] = await ds.query(sql, params);
  return Number(row?.n ?? 0);
}

async function item(projectId: string, questionId: string, userId = 'ana') {
  const reply = await listQuestions(ds.manager, { projectId, userId, status: 'all', limit: 50 });
  if (isRefusal(reply)) throw new Error(reply.reason);
  return reply.items.find((i) => i.questionId === questionId);
}

describe('amendDecision (§11.5)', () => {
  it("appends the author's decision and decision.superseded with their outbox rows; the list shows the new one", async () => {
    const q = (await declareIn(ds, 'a1', { pergunta: 'Lowercase codes?', toolCallId: 'tc-a1' })).questionId;
    const agentAnswer = await answer('a1', q, byAgent);
    if (isRefusal(agentAnswer)) throw new Error(agentAnswer.reason);
    expect(await item('a1', q)).toMatchObject({ viaAgente: 'po', canAmend: true, amendment: null });
    expect(await item('a1', q, 'bia')).toMatchObject({ canAmend: false });

    const outcome = await amend('a1', q);

    if (isRefusal(outcome)) throw new Error(outcome.reason);
    if (!('answered' in agentAnswer)) throw new Error(agentAnswer.kind);
    const superseded = agentAnswer.answered.decisionEventId;
    expect(outcome).toMatchObject({
      kind: 'amended',
      superseded: { questionId: q, supersededDecisionEventId: superseded, resposta: 'Yes, lowercase too' },
    });
    const { decisionEventId } = outcome.superseded;
    // Both events are in the log and the outbox under one id each; the new decision's id is its own.
    const logged: { type: string; event_id: string; subject: string }[] = await ds.query(
      `SELECT l.type, l.event_id, o.subject FROM question_log l JOIN outbox o ON o.event_id = l.event_id
        WHERE l.question_id = $1 AND l.type IN ('decision.recorded', 'decision.superseded') ORDER BY l.position`,
      [q],
    );
    expect(logged.map((r) => [r.type, r.subject])).toEqual([
      ['decision.recorded', 'decision.recorded.a1'],
      ['decision.recorded', 'decision.recorded.a1'],
      ['decision.superseded', 'decision.superseded.a1'],
    ]);
    expect(logged[1]?.event_id).toBe(decisionEventId);
    expect(await item('a1', q)).toMatchObject({
      status: 'answered',
      resposta: 'Yes, lowercase too',
      decisionEventId,
      viaAgente: null,
      agentSessionId: null,
      aceitouSugestao: false,
      respondidaPor: 'ana',
      canAmend: false,
      amendment: {
        supersededDecisionEventId: superseded,
        supersededViaAgente: 'po',
        supersededResposta: 'No',
        by: 'ana',
      },
    });
  });

  it('the same amendment again writes nothing and returns the first; another is 409', async () => {
    const q = (await declareIn(ds, 'a2', { pergunta: 'Twice?', toolCallId: 'tc-a2' })).questionId;
    await answer('a2', q, byAgent);
    const first = await amend('a2', q);

    const again = await amend('a2', q);

    expect(again).toEqual({ kind: 'already_amended', superseded: (first as AmendOutcome).superseded });
    expect(await amend('a2', q, byAna('Something else'))).toMatchObject({
      statusCode: 409,
      reason: 'decisao_nao_e_de_agente',
    });
    expect(await count(`SELECT count(*) AS n FROM question_log WHERE question_id = $1`, [q])).toBe(5);
  });

  it('refuses: 404, 403 not the author, 409 for a click and for an open question', async () => {
    const byClick = (await declareIn(ds, 'a3', { pergunta: 'Click?', toolCallId: 'tc-a3' })).questionId;
    const open = (await declareIn(ds, 'a3', { pergunta: 'Open?', toolCallId: 'tc-a3b' })).questionId;
    const byAgentQ = (await declareIn(ds, 'a3', { pergunta: 'Agent?', toolCallId: 'tc-a3c' })).questionId;
    await answer('a3', byClick, { by: 'user', userId: 'ana', resposta: 'yes' });
    await answer('a3', byAgentQ, byAgent);

    expect(await amend('other', byAgentQ)).toMatchObject({
      statusCode: 404,
      reason: 'pergunta_nao_encontrada',
    });
    expect(await amend('a3', byAgentQ, { userId: 'bia', resposta: 'x' })).toMatchObject({
      statusCode: 403,
      reason: 'so_o_autor_da_sessao',
    });
    for (const q of [byClick, open]) {
      expect(await amend('a3', q)).toMatchObject({ statusCode: 409, reason: 'decisao_nao_e_de_agente' });
    }
    expect(
      await count(
        `SELECT count(*) AS n FROM question_log WHERE project_id = 'a3' AND type = 'decision.superseded'`,
        [],
      ),
    ).toBe(0);
  });

  it('concurrent amendments of one decision: exactly one stands', async () => {
    for (let round = 0; round < 4; round++) {
      const q = (await declareIn(ds, 'a4', { pergunta: `race ${round}?`, toolCallId: `tc-a4-${round}` }))
        .questionId;
      await answer('a4', q, byAgent);
      const results = await Promise.all([amend('a4', q, byAna('one')), amend('a4', q, byAna('two'))]);
      expect(results.filter((r) => !isRefusal(r))).toHaveLength(1);
      expect(
        await count(
          `SELECT count(*) AS n FROM question_log WHERE question_id = $1 AND type = 'decision.superseded'`,
          [q],
        ),
      ).toBe(1);
    }
  });

  it('the log refuses a second supersession and a second user decision, whatever the handlers do', async () => {
    const q = (await declareIn(ds, 'a5', { pergunta: 'Backstop?', toolCallId: 'tc-a5' })).questionId;
    await answer('a5', q, byAgent);
    await amend('a5', q);
    const insert = (type: string, data: object) =>
      ds.query(
        `INSERT INTO question_log (event_id, project_id, question_id, type, data)
         VALUES (gen_random_uuid(), 'a5', $1, $2, $3::jsonb)`,
        [q, type, JSON.stringify(data)],
      );
    await expect(insert('decision.superseded', {})).rejects.toThrow(/question_log_one_supersession/);
    await expect(insert('decision.recorded', { viaAgente: null })).rejects.toThrow(
      /question_log_one_user_decision/,
    );
  });

  it('a replay rebuilds the amended view row for row', async () => {
    const q = (await declareIn(ds, 'a6', { pergunta: 'Replay?', toolCallId: 'tc-a6' })).questionId;
    await answer('a6', q, byAgent);
    await amend('a6', q);
    const before: unknown[] = await ds.query(`SELECT * FROM question_view ORDER BY question_id`);

    await replayQuestionProjection(ds);

    expect(await ds.query(`SELECT * FROM question_view ORDER BY question_id`)).toEqual(before);
  });
});
