import type { DataSource } from 'typeorm';
import { isRefusal } from '@openq/contracts';
import { runInScope } from '@openq/messaging';
import type { DeclarationInput as DeclareInput } from '../commands/declare-question/declare-question.handler';
import { useQuestionsDatabase } from '../testing/questions-database';
import {
  amendIn,
  answerGroups,
  answerIn,
  declarationGroups,
  QuestionGroups,
  withdrawIn,
  type AnswerUnit,
} from './question-groups.store';

let ds: DataSource;
useQuestionsDatabase((opened) => (ds = opened));

const declaration = (pergunta: string, toolCallId: string | null): DeclareInput => ({
  sessionId: 's',
  sessionAuthorId: 'ana',
  autor: 'po',
  origin: 'tool',
  pergunta,
  sugestao: 'yes',
  afeta: { regras: [], historias: [], tarefas: [] },
  toolCallId,
});

async function one<T>(sql: string, params: unknown[] = []): Promise<T> {
  const [row] = await ds.query(sql, params);
  return row as T;
}

/** How many transactions wrote these questions' log rows (`xmin` is the writing transaction). */
async function writers(projectId: string, type: string): Promise<number> {
  const { n } = await one<{ n: string }>(
    `SELECT count(DISTINCT xmin::text) AS n FROM question_log WHERE project_id = $1 AND type = $2`,
    [projectId, type],
  );
  return Number(n);
}

const click = (projectId: string, questionId: string, extra: Partial<AnswerUnit> = {}): AnswerUnit =>
  ({
    projectId,
    questionId,
    command: { by: 'user', userId: 'ana', aceitarSugestao: true },
    ...extra,
  }) as AnswerUnit;

describe('group commit of declarations and answers (real PostgreSQL)', () => {
  it('commits 200 concurrent declarations in a few transactions, each caller with its own question', async () => {
    const groups = new QuestionGroups(ds);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        groups.declarations.submit({ projectId: 'g1', input: declaration(`q ${i}`, `tc-g1-${i}`) }),
      ),
    );
    expect(new Set(results.map((r) => r.questionId)).size).toBe(200);
    expect(results.every((r) => r.created)).toBe(true);
    // two groups of one start at once (two slots), the other 198 wait and go in the next group(s)
    expect(groups.declarations.stats.groups).toBeLessThanOrEqual(4);
    expect(await writers('g1', 'question.declared')).toBe(groups.declarations.stats.groups);
    expect(await one(`SELECT open FROM question_counts WHERE project_id = 'g1'`)).toEqual({ open: 200 });
    expect(
      await one(`SELECT count(*)::int AS n FROM question_view WHERE project_id = 'g1' AND status = 'open'`),
    ).toEqual({ n: 200 });
    expect(await one(`SELECT count(*)::int AS n FROM outbox WHERE subject = 'question.declared.g1'`)).toEqual(
      {
        n: 200,
      },
    );
  });

  it('gives duplicates of one toolCallId in one group one question, created only for the first', async () => {
    const declarations = declarationGroups(ds, { maxConcurrentGroups: 1 });
    const lone = declarations.submit({ projectId: 'g2', input: declaration('lone', 'tc-lone') });
    const same = Array.from({ length: 10 }, (_, i) =>
      declarations.submit({ projectId: 'g2', input: declaration(`try ${i}`, 'tc-dup') }),
    );
    const other = declarations.submit({ projectId: 'g2', input: declaration('other', 'tc-other') });
    const [first, results, third] = await Promise.all([lone, Promise.all(same), other]);
    expect(declarations.stats).toMatchObject({ groups: 2, largestGroup: 11, splits: 0 });
    expect(new Set(results.map((r) => r.questionId)).size).toBe(1);
    expect(results.map((r) => r.created)).toEqual([true, ...Array<boolean>(9).fill(false)]);
    expect(first.created && third.created).toBe(true);
    expect(
      await one(
        `SELECT count(*)::int AS n FROM question_log WHERE project_id = 'g2' AND data->>'toolCallId' = 'tc-dup'`,
      ),
    ).toEqual({ n: 1 });
    expect(await one(`SELECT open FROM question_counts WHERE project_id = 'g2'`)).toEqual({ open: 3 });
    // the one question.declared published is the winner's (its id is the log's)
    expect(
      await one(
        `SELECT count(*)::int AS n FROM outbox o JOIN question_log l ON l.event_id = o.event_id
          WHERE l.question_id = $1`,
        [results[0]!.questionId],
      ),
    ).toEqual({ n: 1 });
    // a later group finds the declaration of an earlier transaction
    const again = await declarations.submit({ projectId: 'g2', input: declaration('again', 'tc-dup') });
    expect(again).toEqual({ questionId: results[0]!.questionId, created: false });
  });

  it('lets the first of several answers to one question in one group win, as sequential transactions would', async () => {
    const declarations = declarationGroups(ds, { maxConcurrentGroups: 1 });
    const [blocker, target] = await Promise.all([
      declarations.submit({ projectId: 'g3', input: declaration('blocker', null) }),
      declarations.submit({ projectId: 'g3', input: declaration('target', null) }),
    ]);
    const answers = answerGroups(ds, { maxConcurrentGroups: 1 });
    const lone = answerIn(answers, click('g3', blocker!.questionId));
    const group = [
      answerIn(answers, click('g3', target!.questionId, { idempotencyKey: 'k1' })),
      answerIn(answers, click('g3', target!.questionId)),
      answerIn(answers, click('g3', target!.questionId, { idempotencyKey: 'k1' })),
      answerIn(answers, {
        projectId: 'g3',
        questionId: target!.questionId,
        command: { by: 'agent', viaAgente: 'po', resposta: 'no' },
      }),
      answerIn(
        answers,
        click('g3', target!.questionId, {
          idempotencyKey: 'k1',
          command: { by: 'user', userId: 'ana', resposta: 'other' },
        }),
      ),
    ];
    const [alone, ...decisions] = await Promise.all([lone, ...group]);
    expect(answers.stats).toMatchObject({ groups: 2, largestGroup: 5 });
    expect(alone).toMatchObject({ kind: 'answered' });
    const [winner, second, replay, agent, reused] = decisions;
    expect(winner).toMatchObject({ kind: 'answered', answered: { resposta: 'yes' } });
    expect(second).toMatchObject({ refused: true, statusCode: 409, reason: 'pergunta_ja_respondida' });
    // the same request with the same key: the first answer back, not 409
    expect(replay).toMatchObject({ kind: 'already_answered' });
    expect(agent).toMatchObject({ kind: 'already_answered' });
    const decisionOf = (d: (typeof decisions)[number] | undefined) =>
      d && !isRefusal(d) && 'answered' in d ? d.answered.decisionEventId : null;
    const decisionEventId = decisionOf(winner);
    expect(decisionOf(replay)).toBe(decisionEventId);
    expect(decisionOf(agent)).toBe(decisionEventId);
    // the key with another request
    expect(reused).toMatchObject({ refused: true, statusCode: 422, reason: 'idempotency_key_reutilizada' });
    expect(
      await one(
        `SELECT count(*)::int AS n FROM question_log WHERE question_id = $1 AND type <> 'question.declared'`,
        [target!.questionId],
      ),
    ).toEqual({ n: 2 });
    expect(await one(`SELECT open, answered FROM question_counts WHERE project_id = 'g3'`)).toEqual({
      open: 0,
      answered: 2,
    });
    expect(await one(`SELECT count(*)::int AS n FROM answer_key WHERE project_id = 'g3'`)).toEqual({ n: 1 });
    // a later transaction still finds the key
    const later = await answerIn(answers, click('g3', target!.questionId, { idempotencyKey: 'k1' }));
    expect(later).toMatchObject({ kind: 'already_answered', answered: { decisionEventId } });
  });

  it('decides withdrawals and answers of one question in one group in arrival order, projected set-based', async () => {
    const declarations = declarationGroups(ds, { maxConcurrentGroups: 1 });
    const [blocker, first, second, third] = await Promise.all(
      ['blocker', 'withdrawn first', 'answered first', 'kept'].map((p) =>
        declarations.submit({ projectId: 'g7', input: declaration(p, null) }),
      ),
    );
    const withdrawal = (questionId: string, motivo = 'Settled in the story') =>
      ({ projectId: 'g7', questionId, withdrawal: { by: 'user', userId: 'ana', motivo } }) as const;
    const answers = answerGroups(ds, { maxConcurrentGroups: 1 });
    const lone = answerIn(answers, click('g7', blocker!.questionId));
    const group = [
      withdrawIn(answers, withdrawal(first!.questionId)),
      answerIn(answers, click('g7', first!.questionId)),
      answerIn(answers, {
        projectId: 'g7',
        questionId: first!.questionId,
        command: { by: 'agent', viaAgente: 'po', resposta: 'no' },
      }),
      withdrawIn(answers, {
        projectId: 'g7',
        questionId: first!.questionId,
        withdrawal: { by: 'agent', viaAgente: 'po', sessionId: 's', motivo: 'moot' },
      }),
      answerIn(answers, click('g7', second!.questionId)),
      withdrawIn(answers, withdrawal(second!.questionId)),
      withdrawIn(answers, withdrawal(third!.questionId, 'Not needed')),
    ];
    const [alone, ...decisions] = await Promise.all([lone, ...group]);
    expect(answers.stats).toMatchObject({ groups: 2, largestGroup: 7, splits: 0 });
    expect(alone).toMatchObject({ kind: 'answered' });
    const [withdrawn, lateClick, lateAgent, again, answered, tooLate, kept] = decisions;
    expect(withdrawn).toMatchObject({ kind: 'withdrawn', withdrawn: { by: { kind: 'user', id: 'ana' } } });
    expect(lateClick).toMatchObject({ refused: true, statusCode: 409, reason: 'pergunta_retirada' });
    // §12.1 an agent finds the question closed (withdrawn), never a conflict.
    expect(lateAgent).toMatchObject({
      kind: 'already_withdrawn',
      withdrawn: { by: { kind: 'user', id: 'ana' } },
    });
    expect(again).toMatchObject({
      kind: 'already_withdrawn',
      withdrawn: { by: { kind: 'user', id: 'ana' } },
    });
    expect(answered).toMatchObject({ kind: 'answered' });
    expect(tooLate).toMatchObject({ refused: true, statusCode: 409, reason: 'pergunta_ja_respondida' });
    expect(kept).toMatchObject({ kind: 'withdrawn', withdrawn: { motivo: 'Not needed' } });
    // the group's three closing events went in one insert, in one transaction with the projection
    expect(
      await one(
        `SELECT count(*)::int AS n, count(DISTINCT xmin::text)::int AS writers FROM question_log
          WHERE project_id = 'g7' AND type IN ('question.answered', 'question.withdrawn')
            AND question_id <> $1`,
        [blocker!.questionId],
      ),
    ).toEqual({ n: 3, writers: 1 });
    const views: { question_id: string; status: string; motivo: string | null; resposta: string | null }[] =
      await ds.query(
        `SELECT question_id, status, withdrawn->>'motivo' AS motivo, answered->>'resposta' AS resposta
           FROM question_view WHERE project_id = 'g7'`,
      );
    const byId = new Map(views.map((v) => [v.question_id, v]));
    expect(byId.get(first!.questionId)).toMatchObject({
      status: 'withdrawn',
      motivo: 'Settled in the story',
    });
    expect(byId.get(second!.questionId)).toMatchObject({ status: 'answered', motivo: null, resposta: 'yes' });
    expect(byId.get(third!.questionId)).toMatchObject({ status: 'withdrawn', motivo: 'Not needed' });
    expect(
      await one(`SELECT open, answered, withdrawn FROM question_counts WHERE project_id = 'g7'`),
    ).toEqual({ open: 0, answered: 2, withdrawn: 2 });
    expect(
      await one(`SELECT count(*)::int AS n FROM outbox WHERE subject = 'question.withdrawn.g7'`),
    ).toEqual({ n: 2 });
  });

  it("decides an agent's answer and its amendment (§11.5) in one group, projected set-based", async () => {
    const declarations = declarationGroups(ds, { maxConcurrentGroups: 1 });
    const [blocker, target, clicked] = await Promise.all(
      ['blocker', 'agent answers', 'clicked'].map((p) =>
        declarations.submit({ projectId: 'g8', input: declaration(p, null) }),
      ),
    );
    const amendment = (questionId: string, resposta = 'No: keep v1', userId = 'ana') =>
      ({ projectId: 'g8', questionId, amendment: { userId, resposta } }) as const;
    const answers = answerGroups(ds, { maxConcurrentGroups: 1 });
    const lone = answerIn(answers, click('g8', blocker!.questionId));
    const group = [
      amendIn(answers, amendment(target!.questionId)),
      answerIn(answers, {
        projectId: 'g8',
        questionId: target!.questionId,
        command: { by: 'agent', viaAgente: 'po', resposta: 'yes, v2' },
      }),
      amendIn(answers, amendment(target!.questionId, 'No: keep v1', 'bruno')),
      amendIn(answers, amendment(target!.questionId)),
      amendIn(answers, amendment(target!.questionId)),
      amendIn(answers, amendment(target!.questionId, 'something else')),
      answerIn(answers, click('g8', clicked!.questionId)),
      amendIn(answers, amendment(clicked!.questionId)),
    ];
    const [alone, ...decisions] = await Promise.all([lone, ...group]);
    expect(answers.stats).toMatchObject({ groups: 2, largestGroup: 8, splits: 0 });
    expect(alone).toMatchObject({ kind: 'answered' });
    const [tooEarly, agent, notAuthor, amended, again, other, click2, notAgent] = decisions;
    expect(tooEarly).toMatchObject({ refused: true, statusCode: 409, reason: 'decisao_nao_e_de_agente' });
    expect(agent).toMatchObject({ kind: 'answered', answered: { viaAgente: 'po' } });
    expect(notAuthor).toMatchObject({ refused: true, statusCode: 403, reason: 'so_o_autor_da_sessao' });
    const agentDecision = !isRefusal(agent!) && 'answered' in agent! && agent.answered.decisionEventId;
    expect(amended).toMatchObject({
      kind: 'amended',
      superseded: { supersededDecisionEventId: agentDecision, resposta: 'No: keep v1', by: 'ana' },
    });
    expect(again).toMatchObject({ kind: 'already_amended', superseded: { resposta: 'No: keep v1' } });
    expect(other).toMatchObject({ refused: true, statusCode: 409, reason: 'decisao_nao_e_de_agente' });
    expect(click2).toMatchObject({ kind: 'answered' });
    expect(notAgent).toMatchObject({ refused: true, statusCode: 409, reason: 'decisao_nao_e_de_agente' });
    // the answer, both decisions and the supersession went in one transaction
    expect(
      await one(
        `SELECT count(*)::int AS n, count(DISTINCT xmin::text)::int AS writers FROM question_log
          WHERE question_id = $1 AND type <> 'question.declared'`,
        [target!.questionId],
      ),
    ).toEqual({ n: 4, writers: 1 });
    const supersededAt = await one<{ position: string }>(
      `SELECT position::text FROM question_log WHERE question_id = $1 AND type = 'decision.superseded'`,
      [target!.questionId],
    );
    expect(
      await one(
        `SELECT status, answered->>'viaAgente' AS via, amended->>'resposta' AS amended, last_position::text AS last
           FROM question_view WHERE question_id = $1`,
        [target!.questionId],
      ),
    ).toEqual({ status: 'answered', via: 'po', amended: 'No: keep v1', last: supersededAt.position });
    expect(
      await one(`SELECT amended FROM question_view WHERE question_id = $1`, [clicked!.questionId]),
    ).toEqual({ amended: null });
    // an amendment moves no count
    expect(
      await one(`SELECT open, answered, withdrawn FROM question_counts WHERE project_id = 'g8'`),
    ).toEqual({ open: 0, answered: 3, withdrawn: 0 });
    expect(
      await one(`SELECT count(*)::int AS n FROM outbox WHERE subject = 'decision.superseded.g8'`),
    ).toEqual({ n: 1 });
  });

  it('splits a group with a failing unit: each unit runs alone, and only that one fails', async () => {
    const declarations = declarationGroups(ds, { maxConcurrentGroups: 1 });
    const questions = await Promise.all(
      ['a', 'b', 'c'].map((p) => declarations.submit({ projectId: 'g4', input: declaration(p, null) })),
    );
    const answers = answerGroups(ds, { maxConcurrentGroups: 1 });
    const lone = answerIn(answers, click('g4', questions[0]!.questionId));
    const group = [
      answerIn(answers, click('g4', questions[1]!.questionId)),
      // not a uuid: the group's statements fail on it, whatever the others are
      answerIn(answers, click('g4', 'not-a-uuid')).catch((error: Error) => error),
      answerIn(answers, click('g4', questions[2]!.questionId)),
    ];
    const [first, ...rest] = await Promise.all([lone, ...group]);
    expect(first).toMatchObject({ kind: 'answered' });
    expect(rest[0]).toMatchObject({ kind: 'answered' });
    expect(rest[1]).toBeInstanceOf(Error);
    expect(rest[2]).toMatchObject({ kind: 'answered' });
    expect(answers.stats).toMatchObject({ splits: 1, groups: 5 });
    expect(await one(`SELECT open, answered FROM question_counts WHERE project_id = 'g4'`)).toEqual({
      open: 0,
      answered: 3,
    });
  });

  it("keeps each caller's correlation id on its events, though the group writes them in one insert", async () => {
    const declarations = declarationGroups(ds, { maxConcurrentGroups: 1 });
    const noHeaders = () => undefined;
    const results = await Promise.all(
      ['c-1', 'c-2', 'c-3'].map((correlationId, i) =>
        runInScope(noHeaders, correlationId, { name: 'test', kind: 'server' }, () =>
          declarations.submit({ projectId: 'g5', input: declaration(`corr ${i}`, `tc-corr-${i}`) }),
        ),
      ),
    );
    expect(declarations.stats.groups).toBe(2);
    const rows: { question_id: string; correlation: string }[] = await ds.query(
      `SELECT l.question_id, o.envelope->>'correlationId' AS correlation
         FROM outbox o JOIN question_log l ON l.event_id = o.event_id WHERE l.project_id = 'g5'`,
    );
    const byQuestion = new Map(rows.map((r) => [r.question_id, r.correlation]));
    expect(results.map((r) => byQuestion.get(r.questionId))).toEqual(['c-1', 'c-2', 'c-3']);
  });

  it('answers a lone request alone, at once', async () => {
    const declarations = declarationGroups(ds);
    const result = await declarations.submit({ projectId: 'g6', input: declaration('alone', 'tc-alone') });
    expect(result.created).toBe(true);
    expect(declarations.stats).toMatchObject({ groups: 1, units: 1, largestGroup: 1 });
    expect(await writers('g6', 'question.declared')).toBe(1);
  });
});
