import { deciderSpec } from '@openq/testing/decider';
import {
  answerability,
  answerOutcome,
  question,
  statusOf,
  type AnswerCommand,
  type DeclareInput,
  type QuestionCommand,
  type QuestionWasDeclared,
} from './question';

const T0 = Date.parse('2026-11-30T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);
const now = at(100);
const { given, history } = deciderSpec(question, at);

const afeta = { regras: ['R1'], historias: [], tarefas: ['T1'] };

/** q1 of p1, declared in ana's session (step 0 of `at`). */
const declared = (sugestao: string | null = 'Yes'): QuestionWasDeclared => ({
  type: 'question.declared',
  data: {
    projectId: 'p1',
    declared: {
      questionId: 'q1',
      sessionId: 's1',
      sessionAuthorId: 'ana',
      autor: 'criativo',
      pergunta: 'Accept lowercase codes?',
      sugestao,
      afeta,
      origin: 'tool',
      toolCallId: 'tc',
      declaredAt: at(0).toISOString(),
    },
  },
  occurredAt: at(0),
});

const answer = (answer: AnswerCommand, projectId = 'p1', decisionEventId = 'd1'): QuestionCommand => ({
  type: 'answer',
  projectId,
  decisionEventId,
  answer,
});
const click = (userId: string, b: { resposta?: string; aceitarSugestao?: true }, projectId = 'p1') =>
  answer({ by: 'user', userId, ...b }, projectId);
const agent = (resposta: string | null = null, projectId = 'p1') =>
  answer({ by: 'agent', viaAgente: 'po', resposta }, projectId);

const declaration = (over: Partial<DeclareInput> = {}): DeclareInput => ({
  sessionId: 's1',
  sessionAuthorId: 'ana',
  autor: 'criativo',
  pergunta: 'Accept lowercase codes?',
  sugestao: 'Yes',
  afeta,
  origin: 'tool',
  toolCallId: 'tc',
  ...over,
});

/** The command that declares q1 (as `declared()`, at step 0). */
const declare = (d: DeclareInput = declaration()): QuestionCommand => ({
  type: 'declare',
  projectId: 'p1',
  questionId: 'q1',
  declaration: d,
});

/** q1 declared (step 0), then answered "No" by ana (step 1, decision d0). */
const answeredHistory = () =>
  history([declare(), answer({ by: 'user', userId: 'ana', resposta: 'No' }, 'p1', 'd0')]);

describe('declare', () => {
  it('declares the question of the project: question.declared, and the question is open', () => {
    const then = given([]).when(declare(), 0);
    then.then([declared()]);
    expect(then.state).toEqual({ projectId: 'p1', declared: declared().data.declared, answered: null });
    expect(then.state?.declared.afeta.regras).not.toBe(afeta.regras);
  });

  it('no suggestion and no tool call unless given', () => {
    const bare = declaration();
    delete bare.sugestao;
    delete bare.toolCallId;
    const [event] = given([]).when(declare(bare), 0).events;
    expect(event?.data).toMatchObject({ declared: { sugestao: null, toolCallId: null } });
  });

  it('declaring a question that exists changes nothing', () => {
    given([declared()])
      .when(declare(declaration({ pergunta: 'Another?' })))
      .then([]);
  });
});

describe('answer', () => {
  it.each([
    ['missing question', [], click('ana', { resposta: 'x' }), 'pergunta_nao_encontrada'],
    ['another project', [declared()], click('ana', { resposta: 'x' }, 'p2'), 'pergunta_nao_encontrada'],
    ['not the session author', [declared()], click('bia', { resposta: 'x' }), 'so_o_autor_da_sessao'],
    [
      'non-author on an answered question (403 before 409)',
      answeredHistory(),
      click('bia', { resposta: 'x' }),
      'so_o_autor_da_sessao',
    ],
    ['already answered', answeredHistory(), click('ana', { resposta: 'x' }), 'pergunta_ja_respondida'],
    ['no suggestion to accept', [declared(null)], click('ana', { aceitarSugestao: true }), 'sem_sugestao'],
    ['agent: neither resposta nor suggestion', [declared(null)], agent(), 'sem_resposta_nem_sugestao'],
    ['agent: another project', [declared()], agent('x', 'p2'), 'pergunta_nao_encontrada'],
  ])('refuses: %s', (_name, events, command, reason) => {
    given(events).when(command).then({ reason });
  });

  it('records a click: respondidaPor is the author, no agent, and the decision mirrors the question', () => {
    given([declared()])
      .when(click('ana', { resposta: '  No  ' }))
      .then([
        {
          type: 'question.answered',
          data: {
            questionId: 'q1',
            resposta: '  No  ',
            aceitouSugestao: false,
            decisionEventId: 'd1',
            respondidaPor: 'ana',
            viaAgente: null,
            answeredAt: now.toISOString(),
          },
          occurredAt: now,
        },
        {
          type: 'decision.recorded',
          data: {
            decisionEventId: 'd1',
            actor: { kind: 'user', id: 'ana' },
            context: 'Accept lowercase codes?',
            choice: '  No  ',
            consequences: { regras: ['R1'], historias: [], tarefas: ['T1'] },
            questionId: 'q1',
            viaAgente: null,
            decidedAt: now.toISOString(),
          },
          occurredAt: now,
        },
      ]);
  });

  it('accepting the suggestion answers with its text', () => {
    const { state } = given([declared()]).when(click('ana', { aceitarSugestao: true }));
    expect([state?.answered?.resposta, state?.answered?.aceitouSugestao]).toEqual(['Yes', true]);
  });

  it('an agent without resposta takes the suggestion; the user stays respondidaPor', () => {
    expect(given([declared()]).when(agent()).state?.answered).toMatchObject({
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
    const [answered, decision] = given([declared()]).when(answer(withSession)).events;
    expect(answered?.data).toMatchObject({
      viaAgente: 'arquiteto',
      agentSessionId: 'sess-arq-9',
      respondidaPor: 'ana',
    });
    expect(decision?.data).toMatchObject({
      viaAgente: 'arquiteto',
      agentSessionId: 'sess-arq-9',
      actor: { kind: 'user', id: 'ana' },
    });

    for (const command of [
      agent('No'),
      answer({ ...withSession, agentSessionId: null }),
      click('ana', { resposta: 'No' }),
    ]) {
      const events = given([declared()]).when(command).events;
      expect(events).toHaveLength(2);
      expect(events.some((e) => 'agentSessionId' in e.data)).toBe(false);
    }
  });

  it('a second agent answer is already_answered with the first answer, never a conflict', () => {
    const first = given(answeredHistory()).state;
    const then = given(answeredHistory()).when(
      answer({ by: 'agent', viaAgente: 'po', resposta: 'other' }, 'p1', 'd9'),
    );
    then.then([]);
    expect(answerOutcome(first, then.events)).toEqual({
      kind: 'already_answered',
      answered: first?.answered,
    });
    expect(first?.answered).toMatchObject({ resposta: 'No', decisionEventId: 'd0' });
  });

  it('an answer decided now is the outcome: the answer and its decision', () => {
    const then = given([declared()]).when(click('ana', { resposta: 'No' }));
    expect(answerOutcome(then.state, then.events)).toEqual({
      kind: 'answered',
      answered: then.events[0]?.data,
      decision: then.events[1]?.data,
    });
  });
});

describe('status and answerability', () => {
  const open = () => given([declared()]).state!;
  const answered = () => given(answeredHistory()).state!;

  it('derives status from the log', () => {
    expect(statusOf(open())).toBe('open');
    expect(statusOf(answered())).toBe('answered');
  });

  it('lets only the session author answer an open question, and says why otherwise', () => {
    expect(answerability(open(), 'ana')).toEqual({ canAnswer: true, inertReason: null });
    expect(answerability(open(), 'bia')).toEqual({
      canAnswer: false,
      inertReason: expect.stringContaining('ana'),
    });
    expect(answerability(answered(), 'ana')).toEqual({
      canAnswer: false,
      inertReason: 'Already answered.',
    });
  });
});
