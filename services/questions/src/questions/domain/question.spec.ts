import { deciderSpec } from '@openq/testing/decider';
import {
  amendOutcome,
  answerability,
  answerOutcome,
  canAmend,
  question,
  statusOf,
  type AnswerCommand,
  type DeclareInput,
  type QuestionCommand,
  type QuestionEvent,
  type QuestionWasDeclared,
  type QuestionWasWithdrawn,
  type WithdrawCommand,
  withdrawOutcome,
} from './question';
import type { Delegation } from '../delegation/domain/delegation';

const T0 = Date.parse('2026-11-30T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);
const now = at(100);
const { given } = deciderSpec(question, at);

const affects = { rules: ['R1'], stories: [], tasks: ['T1'] };

/** q1 of p1, declared in ana's session (step 0 of `at`). */
const declared = (suggestion: string | null = 'Yes'): QuestionWasDeclared => ({
  type: 'question.declared',
  data: {
    projectId: 'p1',
    declared: {
      questionId: 'q1',
      sessionId: 's1',
      sessionAuthorId: 'ana',
      askedBy: 'criativo',
      question: 'Accept lowercase codes?',
      suggestion,
      affects,
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
const click = (userId: string, b: { answer?: string; acceptSuggestion?: true }, projectId = 'p1') =>
  answer({ by: 'user', userId, ...b }, projectId);
const agent = (text: string | null = null, projectId = 'p1') =>
  answer({ by: 'agent', role: 'po', answer: text }, projectId);

const declaration = (over: Partial<DeclareInput> = {}): DeclareInput => ({
  sessionId: 's1',
  sessionAuthorId: 'ana',
  askedBy: 'criativo',
  question: 'Accept lowercase codes?',
  suggestion: 'Yes',
  affects,
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

/** q1 declared (step 0), then answered "No" by ana's click (step 1, decision d0). */
const answeredHistory = (): QuestionEvent[] => [
  declared(),
  {
    type: 'question.answered',
    data: {
      questionId: 'q1',
      answer: 'No',
      acceptedSuggestion: false,
      decisionEventId: 'd0',
      answeredFor: 'ana',
      agentRole: null,
      answeredAt: at(1).toISOString(),
    },
    occurredAt: at(1),
  },
  {
    type: 'decision.recorded',
    data: {
      decisionEventId: 'd0',
      actor: { kind: 'user', id: 'ana' },
      context: 'Accept lowercase codes?',
      choice: 'No',
      consequences: affects,
      questionId: 'q1',
      agentRole: null,
      decidedAt: at(1).toISOString(),
    },
    occurredAt: at(1),
  },
];

/** q1 withdrawn by `by` (step 1). */
const withdrawnBy = (
  by: QuestionWasWithdrawn['data']['by'] = { kind: 'user', id: 'ana' },
  reason = 'Settled in the story',
): QuestionWasWithdrawn => ({
  type: 'question.withdrawn',
  data: { questionId: 'q1', by, reason, withdrawnAt: at(1).toISOString() },
  occurredAt: at(1),
});

const withdraw = (withdrawal: WithdrawCommand, projectId = 'p1'): QuestionCommand => ({
  type: 'withdraw',
  projectId,
  withdrawal,
});
const withdrawByClick = (userId: string, reason = 'Settled in the story', projectId = 'p1') =>
  withdraw({ by: 'user', userId, reason }, projectId);

describe('declare', () => {
  it('declares the question of the project: question.declared, and the question is open', () => {
    const then = given([]).when(declare(), 0);
    then.then([declared()]);
    expect(then.state).toEqual({
      projectId: 'p1',
      declared: declared().data.declared,
      answered: null,
      withdrawn: null,
      amended: null,
      joined: [],
    });
    expect(then.state?.declared.affects.rules).not.toBe(affects.rules);
  });

  it('no suggestion and no tool call unless given', () => {
    const bare = declaration();
    delete bare.suggestion;
    delete bare.toolCallId;
    const [event] = given([]).when(declare(bare), 0).events;
    expect(event?.data).toMatchObject({ declared: { suggestion: null, toolCallId: null } });
  });

  it('declaring a question that exists changes nothing', () => {
    given([declared()])
      .when(declare(declaration({ question: 'Another?' })))
      .then([]);
  });
});

describe('answer', () => {
  it.each([
    ['missing question', [], click('ana', { answer: 'x' }), 'pergunta_nao_encontrada'],
    ['another project', [declared()], click('ana', { answer: 'x' }, 'p2'), 'pergunta_nao_encontrada'],
    ['not the session author', [declared()], click('bia', { answer: 'x' }), 'so_o_autor_da_sessao'],
    [
      'non-author on an answered question (403 before 409)',
      answeredHistory(),
      click('bia', { answer: 'x' }),
      'so_o_autor_da_sessao',
    ],
    ['already answered', answeredHistory(), click('ana', { answer: 'x' }), 'pergunta_ja_respondida'],
    ['no suggestion to accept', [declared(null)], click('ana', { acceptSuggestion: true }), 'sem_sugestao'],
    ['agent: neither resposta nor suggestion', [declared(null)], agent(), 'sem_resposta_nem_sugestao'],
    ['agent: another project', [declared()], agent('x', 'p2'), 'pergunta_nao_encontrada'],
    ['withdrawn (a click)', [declared(), withdrawnBy()], click('ana', { answer: 'x' }), 'pergunta_retirada'],
    [
      'non-author on a withdrawn question (403 before 409)',
      [declared(), withdrawnBy()],
      click('bia', { answer: 'x' }),
      'so_o_autor_da_sessao',
    ],
  ])('refuses: %s', (_name, events, command, reason) => {
    given(events).when(command).then({ reason });
  });

  it('records a click: respondidaPor is the author, who clicked (answeredBy), no agent, and the decision mirrors the question', () => {
    given([declared()])
      .when(click('ana', { answer: '  No  ' }))
      .then([
        {
          type: 'question.answered',
          data: {
            questionId: 'q1',
            answer: '  No  ',
            acceptedSuggestion: false,
            decisionEventId: 'd1',
            answeredFor: 'ana',
            agentRole: null,
            answeredBy: 'ana',
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
            consequences: { rules: ['R1'], stories: [], tasks: ['T1'] },
            questionId: 'q1',
            agentRole: null,
            answeredBy: 'ana',
            decidedAt: now.toISOString(),
          },
          occurredAt: now,
        },
      ]);
  });

  it('accepting the suggestion answers with its text', () => {
    const { state } = given([declared()]).when(click('ana', { acceptSuggestion: true }));
    expect([state?.answered?.answer, state?.answered?.acceptedSuggestion]).toEqual(['Yes', true]);
  });

  it('an agent without resposta takes the suggestion; the user stays respondidaPor', () => {
    expect(given([declared()]).when(agent()).state?.answered).toMatchObject({
      answer: 'Yes',
      acceptedSuggestion: true,
      answeredFor: 'ana',
      agentRole: 'po',
    });
  });

  it('keeps the agent session in both events for the audit; none given (or a click) leaves the key out', () => {
    const withSession: AnswerCommand = {
      by: 'agent',
      role: 'arquiteto',
      answer: 'No',
      agentSessionId: 'sess-arq-9',
    };
    const [answered, decision] = given([declared()]).when(answer(withSession)).events;
    expect(answered?.data).toMatchObject({
      agentRole: 'arquiteto',
      agentSessionId: 'sess-arq-9',
      answeredFor: 'ana',
    });
    expect(decision?.data).toMatchObject({
      agentRole: 'arquiteto',
      agentSessionId: 'sess-arq-9',
      actor: { kind: 'user', id: 'ana' },
    });

    for (const command of [
      agent('No'),
      answer({ ...withSession, agentSessionId: null }),
      click('ana', { answer: 'No' }),
    ]) {
      const events = given([declared()]).when(command).events;
      expect(events).toHaveLength(2);
      expect(events.some((e) => 'agentSessionId' in e.data)).toBe(false);
    }
  });

  it('a second agent answer is already_answered with the first answer, never a conflict', () => {
    const first = given(answeredHistory()).state;
    const then = given(answeredHistory()).when(
      answer({ by: 'agent', role: 'po', answer: 'other' }, 'p1', 'd9'),
    );
    then.then([]);
    expect(answerOutcome(first, then.events)).toEqual({
      kind: 'already_answered',
      answered: first?.answered,
    });
    expect(first?.answered).toMatchObject({ answer: 'No', decisionEventId: 'd0' });
  });

  it('§12.1 an agent answer to a withdrawn question is already_withdrawn, never a conflict', () => {
    const before = given([declared(), withdrawnBy()]).state;
    const then = given([declared(), withdrawnBy()]).when(agent('x'));
    then.then([]);
    expect(answerOutcome(before, then.events)).toEqual({
      kind: 'already_withdrawn',
      withdrawn: before?.withdrawn,
    });
  });

  it('an answer decided now is the outcome: the answer and its decision', () => {
    const then = given([declared()]).when(click('ana', { answer: 'No' }));
    expect(answerOutcome(then.state, then.events)).toEqual({
      kind: 'answered',
      answered: then.events[0]?.data,
      decision: then.events[1]?.data,
    });
  });
});

describe('withdraw', () => {
  it('the session author withdraws an open question: question.withdrawn, with who and why', () => {
    const then = given([declared()]).when(withdrawByClick('ana', 'Out of scope now'));
    then.then([
      {
        type: 'question.withdrawn',
        data: {
          questionId: 'q1',
          by: { kind: 'user', id: 'ana' },
          reason: 'Out of scope now',
          withdrawnAt: now.toISOString(),
        },
        occurredAt: now,
      },
    ]);
    expect(then.state?.withdrawn?.reason).toBe('Out of scope now');
    expect(then.state?.answered).toBeNull();
  });

  it('§12.1 only the asking agent (its role, its session) withdraws by tool: by is the agent', () => {
    given([declared()])
      .when(withdraw({ by: 'agent', role: 'criativo', sessionId: 's1', reason: 'Decided in the ADR' }))
      .then([
        {
          type: 'question.withdrawn',
          data: {
            questionId: 'q1',
            by: { kind: 'agent', id: 'criativo' },
            reason: 'Decided in the ADR',
            withdrawnAt: now.toISOString(),
          },
          occurredAt: now,
        },
      ]);
  });

  it.each([
    ['missing question', [], withdrawByClick('ana'), 'pergunta_nao_encontrada'],
    ['another project', [declared()], withdrawByClick('ana', 'why', 'p2'), 'pergunta_nao_encontrada'],
    ['not the session author', [declared()], withdrawByClick('bia'), 'so_o_autor_da_sessao'],
    [
      'non-author on an answered question (403 before 409)',
      answeredHistory(),
      withdrawByClick('bia'),
      'so_o_autor_da_sessao',
    ],
    ['already answered', answeredHistory(), withdrawByClick('ana'), 'pergunta_ja_respondida'],
    [
      'agent: already answered',
      answeredHistory(),
      withdraw({ by: 'agent', role: 'criativo', sessionId: 's1', reason: 'why' }),
      'pergunta_ja_respondida',
    ],
    [
      'agent: another asker role',
      [declared()],
      withdraw({ by: 'agent', role: 'po', sessionId: 's1', reason: 'why' }),
      'so_quem_perguntou',
    ],
    [
      'agent: the same role in another session',
      [declared()],
      withdraw({ by: 'agent', role: 'criativo', sessionId: 's2', reason: 'why' }),
      'so_quem_perguntou',
    ],
    [
      'agent: no session said',
      [declared()],
      withdraw({ by: 'agent', role: 'criativo', reason: 'why' }),
      'so_quem_perguntou',
    ],
    [
      'agent: not the asker, on an answered question (403 before 409)',
      answeredHistory(),
      withdraw({ by: 'agent', role: 'po', sessionId: 's1', reason: 'why' }),
      'so_quem_perguntou',
    ],
    [
      'agent: another project',
      [declared()],
      withdraw({ by: 'agent', role: 'po', reason: 'why' }, 'p2'),
      'pergunta_nao_encontrada',
    ],
  ])('refuses: %s', (_name, events, command, reason) => {
    given(events).when(command).then({ reason });
  });

  it('withdrawing a withdrawn question decides nothing: the first withdrawal stands', () => {
    const first = withdrawnBy({ kind: 'agent', id: 'po' }, 'First why');
    const then = given([declared(), first]).when(withdrawByClick('ana', 'Second why'));
    then.then([]);
    expect(withdrawOutcome(given([declared(), first]).state, then.events)).toEqual({
      kind: 'already_withdrawn',
      withdrawn: first.data,
    });
  });

  it('a withdrawal decided now is the outcome', () => {
    const then = given([declared()]).when(withdrawByClick('ana'));
    expect(withdrawOutcome(then.state, then.events)).toEqual({
      kind: 'withdrawn',
      withdrawn: then.events[0]?.data,
    });
  });
});

/** q1 declared (step 0), then answered "No" by the po agent in ana's chat (step 1, decision d0). */
const agentAnsweredHistory = (answeredAt = at(1)): QuestionEvent[] =>
  answeredHistory().map((e) => {
    if (e.type === 'question.answered')
      return { ...e, data: { ...e.data, agentRole: 'po' as const, answeredAt: answeredAt.toISOString() } };
    if (e.type === 'decision.recorded')
      return { ...e, data: { ...e.data, agentRole: 'po' as const, decidedAt: answeredAt.toISOString() } };
    return e;
  });

const amend = (
  userId: string,
  answer: string,
  projectId = 'p1',
  decisionEventId = 'd2',
): QuestionCommand => ({
  type: 'amend',
  projectId,
  decisionEventId,
  amendment: { userId, answer },
});

describe('amend (§11.5)', () => {
  it("the session author supersedes an agent's decision: a new user decision, then decision.superseded", () => {
    const then = given(agentAnsweredHistory()).when(amend('ana', 'Yes, lowercase too'));
    then.then([
      {
        type: 'decision.recorded',
        data: {
          decisionEventId: 'd2',
          actor: { kind: 'user', id: 'ana' },
          context: 'Accept lowercase codes?',
          choice: 'Yes, lowercase too',
          consequences: affects,
          questionId: 'q1',
          agentRole: null,
          decidedAt: now.toISOString(),
        },
        occurredAt: now,
      },
      {
        type: 'decision.superseded',
        data: {
          questionId: 'q1',
          supersededDecisionEventId: 'd0',
          supersededAgentRole: 'po',
          decisionEventId: 'd2',
          answer: 'Yes, lowercase too',
          by: 'ana',
          supersededAt: now.toISOString(),
        },
        occurredAt: now,
      },
    ]);
    expect(then.state?.amended?.decisionEventId).toBe('d2');
    expect(then.state?.answered?.decisionEventId).toBe('d0');
    expect(amendOutcome(then.state, then.events)).toEqual({
      kind: 'amended',
      superseded: then.events[1]?.data,
    });
  });

  it.each([
    ['missing question', [], amend('ana', 'Yes'), 'pergunta_nao_encontrada'],
    ['another project', agentAnsweredHistory(), amend('ana', 'Yes', 'p2'), 'pergunta_nao_encontrada'],
    ['not the session author', agentAnsweredHistory(), amend('bia', 'Yes'), 'so_o_autor_da_sessao'],
    ['an open question', [declared()], amend('ana', 'Yes'), 'decisao_nao_e_de_agente'],
    ['a withdrawn question', [declared(), withdrawnBy()], amend('ana', 'Yes'), 'decisao_nao_e_de_agente'],
    ['a decision made by click', answeredHistory(), amend('ana', 'Yes'), 'decisao_nao_e_de_agente'],
  ])('refuses: %s', (_name, events, command, reason) => {
    given(events).when(command).then({ reason });
  });

  it('amends once: the same resposta again decides nothing (the amendment stands), another is refused', () => {
    const amended = given(agentAnsweredHistory()).when(amend('ana', 'Yes'));
    const history = [...agentAnsweredHistory(), ...amended.events];
    const again = given(history).when(amend('ana', 'Yes', 'p1', 'd3'));
    again.then([]);
    expect(amendOutcome(given(history).state, again.events)).toEqual({
      kind: 'already_amended',
      superseded: amended.events[1]?.data,
    });
    given(history).when(amend('ana', 'No after all')).then({ reason: 'decisao_nao_e_de_agente' });
  });

  it("only the session author, over an agent's standing decision, may amend", () => {
    const agentAnswered = given(agentAnsweredHistory()).state!;
    expect(canAmend(agentAnswered, 'ana')).toBe(true);
    expect(canAmend(agentAnswered, 'bia')).toBe(false);
    expect(canAmend(given(answeredHistory()).state!, 'ana')).toBe(false);
    expect(canAmend(given([declared()]).state!, 'ana')).toBe(false);
    const amended = given(agentAnsweredHistory()).when(amend('ana', 'Yes'));
    expect(canAmend(amended.state!, 'ana')).toBe(false);
  });
});

describe('status and answerability', () => {
  const open = () => given([declared()]).state!;
  const answered = () => given(answeredHistory()).state!;
  const withdrawn = () => given([declared(), withdrawnBy()]).state!;

  it('derives status from the log', () => {
    expect(statusOf(open())).toBe('open');
    expect(statusOf(answered())).toBe('answered');
    expect(statusOf(withdrawn())).toBe('withdrawn');
  });

  it('a withdrawn question cannot be answered, and says so', () => {
    expect(answerability(withdrawn(), 'ana')).toEqual({
      canAnswer: false,
      inertReason: expect.stringContaining('Withdrawn'),
    });
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

describe('§11.6 a delegate answers for the session author', () => {
  /** ana lets bia answer for her in p1 until step `until` (granted at step 0), maybe revoked at step 5. */
  const grant = (
    over: { until?: number; revokedAt?: number; projectId?: string; from?: string; to?: string } = {},
  ): Delegation => ({
    granted: {
      grantId: 'g1',
      projectId: over.projectId ?? 'p1',
      from: over.from ?? 'ana',
      to: over.to ?? 'bia',
      until: at(over.until ?? 1000).toISOString(),
      grantedAt: at(0).toISOString(),
    },
    revoked:
      over.revokedAt === undefined
        ? null
        : { grantId: 'g1', projectId: 'p1', by: 'ana', revokedAt: at(over.revokedAt).toISOString() },
  });
  const delegateClick = (grants: Delegation[], userId = 'bia', delegationOn = true) =>
    answer({ by: 'user', userId, answer: 'No', grants, delegationOn });

  it("§12.1 refuses a live grant 403 delegacao_desligada while the project keeps the seeds' rule", () => {
    given([declared()])
      .when(delegateClick([grant()], 'bia', false))
      .then({ statusCode: 403, reason: 'delegacao_desligada' });
    given([declared()])
      .when(answer({ by: 'user', userId: 'bia', answer: 'No', grants: [grant()] }))
      .then({ statusCode: 403, reason: 'delegacao_desligada' });
    given([declared()])
      .when(delegateClick([], 'bia', false))
      .then({ statusCode: 403, reason: 'so_o_autor_da_sessao' });
  });

  it('records both: respondidaPor the author, answeredBy the delegate, and the grant, in the answer and the decision', () => {
    const { events } = given([declared()]).when(delegateClick([grant()]));
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ answeredFor: 'ana', answeredBy: 'bia', grantId: 'g1', agentRole: null }),
      expect.objectContaining({ actor: { kind: 'user', id: 'ana' }, answeredBy: 'bia', grantId: 'g1' }),
    ]);
  });

  it.each([
    ['a revoked grant', [grant({ revokedAt: 5 })], 'delegacao_revogada'],
    ['an expired grant', [grant({ until: 50 })], 'delegacao_expirada'],
    ['no grant', [], 'so_o_autor_da_sessao'],
    ['a grant of another project', [grant({ projectId: 'p2' })], 'so_o_autor_da_sessao'],
    ['a grant from someone else', [grant({ from: 'caio' })], 'so_o_autor_da_sessao'],
    ['a grant to someone else', [grant({ to: 'caio' })], 'so_o_autor_da_sessao'],
  ] as const)('refuses with %s: 403 %s', (_name, grants, reason) => {
    given([declared()])
      .when(delegateClick([...grants]))
      .then({ statusCode: 403, reason });
  });

  it('a grant that ends exactly now no longer counts (until is exclusive)', () => {
    given([declared()])
      .when(delegateClick([grant({ until: 100 })]), 100)
      .then({ reason: 'delegacao_expirada' });
  });

  it('a live grant wins over an older revoked one; a delegate still meets the 409 of an answered question', () => {
    const revoked = grant({ revokedAt: 5 });
    const live: Delegation = {
      granted: { ...grant().granted, grantId: 'g2', grantedAt: at(10).toISOString() },
      revoked: null,
    };
    expect(given([declared()]).when(delegateClick([revoked, live])).events[0]?.data).toMatchObject({
      grantId: 'g2',
    });
    given(answeredHistory())
      .when(delegateClick([live]))
      .then({ reason: 'pergunta_ja_respondida' });
  });

  it('the session author click carries no grant, whatever grants it is handed', () => {
    const { events } = given([declared()]).when(
      answer({ by: 'user', userId: 'ana', answer: 'No', grants: [grant()] }),
    );
    expect(events[0]?.data).toMatchObject({ answeredBy: 'ana' });
    expect(events[0]?.data).not.toHaveProperty('grantId');
  });

  it('answerability: a live grant lets the delegate answer as the author; others stay inert', () => {
    const q = given([declared()]).state!;
    expect(answerability(q, 'bia', [grant()], now)).toEqual({
      canAnswer: true,
      inertReason: null,
      answeringAs: { userId: 'ana', grantId: 'g1', until: at(1000).toISOString() },
    });
    expect(answerability(q, 'bia', [grant({ revokedAt: 5 })], now)).toMatchObject({
      canAnswer: false,
      inertReason: expect.stringContaining('Only ana'),
    });
    expect(answerability(q, 'caio', [grant()], now).canAnswer).toBe(false);
  });
});
