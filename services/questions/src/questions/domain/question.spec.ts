import { isRefusal } from '@openq/contracts';
import {
  answerability,
  decideAnswer,
  decideDeclare,
  evolve,
  statusOf,
  type AnswerCommand,
  type Question,
} from './question';

const now = new Date('2026-11-30T10:00:00Z');

function given(overrides: { sugestao?: string | null; answered?: boolean } = {}): Question {
  const declared = decideDeclare(
    {
      questionId: 'q1',
      sessionId: 's1',
      sessionAuthorId: 'ana',
      autor: 'criativo',
      origin: 'tool',
      toolCallId: 'tc',
      pergunta: 'Accept lowercase codes?',
      sugestao: overrides.sugestao === undefined ? 'Yes' : overrides.sugestao,
      afeta: { regras: ['R1'], historias: [], tarefas: ['T1'] },
    },
    now,
  );
  let state = evolve(null, 'p1', { type: 'question.declared', data: declared });
  if (overrides.answered) {
    const d = decideAnswer({ by: 'user', userId: 'ana', resposta: 'No' }, state, 'p1', 'd0', now);
    if (isRefusal(d) || d.kind !== 'answered') throw new Error('setup');
    state = evolve(state, 'p1', { type: 'question.answered', data: d.answered });
  }
  return state!;
}

const click = (userId: string, b: { resposta?: string; aceitarSugestao?: true }): AnswerCommand => ({
  by: 'user',
  userId,
  ...b,
});
const agent = (resposta: string | null = null): AnswerCommand => ({ by: 'agent', viaAgente: 'po', resposta });

describe('decideAnswer', () => {
  it.each([
    ['missing question', null, 'p1', click('ana', { resposta: 'x' }), 'pergunta_nao_encontrada'],
    ['another project', given(), 'p2', click('ana', { resposta: 'x' }), 'pergunta_nao_encontrada'],
    ['not the session author', given(), 'p1', click('bia', { resposta: 'x' }), 'so_o_autor_da_sessao'],
    [
      'non-author on an answered question (403 before 409)',
      given({ answered: true }),
      'p1',
      click('bia', { resposta: 'x' }),
      'so_o_autor_da_sessao',
    ],
    [
      'already answered',
      given({ answered: true }),
      'p1',
      click('ana', { resposta: 'x' }),
      'pergunta_ja_respondida',
    ],
    [
      'no suggestion to accept',
      given({ sugestao: null }),
      'p1',
      click('ana', { aceitarSugestao: true }),
      'sem_sugestao',
    ],
    [
      'agent: neither resposta nor suggestion',
      given({ sugestao: null }),
      'p1',
      agent(),
      'sem_resposta_nem_sugestao',
    ],
    ['agent: another project', given(), 'p2', agent('x'), 'pergunta_nao_encontrada'],
  ])('refuses: %s', (_name, state, project, command, reason) => {
    const d = decideAnswer(command, state, project, 'd1', now);
    expect(isRefusal(d) && d.reason).toBe(reason);
  });

  it('records a click: respondidaPor is the author, no agent, and the decision mirrors the question', () => {
    const d = decideAnswer(click('ana', { resposta: '  No  ' }), given(), 'p1', 'd1', now);
    expect(d).toEqual({
      kind: 'answered',
      answered: {
        questionId: 'q1',
        resposta: '  No  ',
        aceitouSugestao: false,
        decisionEventId: 'd1',
        respondidaPor: 'ana',
        viaAgente: null,
        answeredAt: now.toISOString(),
      },
      decision: {
        decisionEventId: 'd1',
        actor: { kind: 'user', id: 'ana' },
        context: 'Accept lowercase codes?',
        choice: '  No  ',
        consequences: { regras: ['R1'], historias: [], tarefas: ['T1'] },
        questionId: 'q1',
        viaAgente: null,
        decidedAt: now.toISOString(),
      },
    });
  });

  it('accepting the suggestion answers with its text', () => {
    const d = decideAnswer(click('ana', { aceitarSugestao: true }), given(), 'p1', 'd1', now);
    expect(
      !isRefusal(d) && d.kind === 'answered' && [d.answered.resposta, d.answered.aceitouSugestao],
    ).toEqual(['Yes', true]);
  });

  it('an agent without resposta takes the suggestion; the user stays respondidaPor', () => {
    const d = decideAnswer(agent(), given(), 'p1', 'd1', now);
    expect(!isRefusal(d) && d.kind === 'answered' && d.answered).toMatchObject({
      resposta: 'Yes',
      aceitouSugestao: true,
      respondidaPor: 'ana',
      viaAgente: 'po',
    });
  });

  it('keeps the agent session in both events for the audit; none given (or a click) leaves the key out', () => {
    const withSession: AnswerCommand = {
      by: 'agent',
      viaAgente: 'arquiteto',
      resposta: 'No',
      agentSessionId: 'sess-arq-9',
    };
    const d = decideAnswer(withSession, given(), 'p1', 'd1', now);
    if (isRefusal(d) || d.kind !== 'answered') throw new Error('expected an answer');
    expect(d.answered).toMatchObject({
      viaAgente: 'arquiteto',
      agentSessionId: 'sess-arq-9',
      respondidaPor: 'ana',
    });
    expect(d.decision).toMatchObject({
      viaAgente: 'arquiteto',
      agentSessionId: 'sess-arq-9',
      actor: { kind: 'user', id: 'ana' },
    });

    for (const command of [
      agent('No'),
      { ...withSession, agentSessionId: null },
      click('ana', { resposta: 'No' }),
    ]) {
      const plain = decideAnswer(command, given(), 'p1', 'd1', now);
      if (isRefusal(plain) || plain.kind !== 'answered') throw new Error('expected an answer');
      expect('agentSessionId' in plain.answered || 'agentSessionId' in plain.decision).toBe(false);
    }
  });

  it('a second agent answer is already_answered with the first answer, never a conflict', () => {
    const state = given({ answered: true });
    const d = decideAnswer(agent('other'), state, 'p1', 'd9', now);
    expect(d).toEqual({ kind: 'already_answered', answered: state.answered });
  });
});

describe('status and answerability', () => {
  it('derives status from the log', () => {
    expect(statusOf(given())).toBe('open');
    expect(statusOf(given({ answered: true }))).toBe('answered');
  });

  it('lets only the session author answer an open question, and says why otherwise', () => {
    expect(answerability(given(), 'ana')).toEqual({ canAnswer: true, inertReason: null });
    expect(answerability(given(), 'bia')).toEqual({
      canAnswer: false,
      inertReason: expect.stringContaining('ana'),
    });
    expect(answerability(given({ answered: true }), 'ana')).toEqual({
      canAnswer: false,
      inertReason: 'Already answered.',
    });
  });
});
