import { deciderSpec } from '@openq/testing/decider';
import {
  question,
  type DeclareInput,
  type Question,
  type QuestionEvent,
  type QuestionWasDeclared,
} from './question';
import { askOnce, precedentOf } from './ask-once';
import { askBands, askKey, fold, type Affects } from './same-question';

const T0 = Date.parse('2026-12-03T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);
const { given } = deciderSpec(question, at);
const none = { rules: [], stories: [], tasks: [] };

const declared = (question = 'Should the login page support Google sign-in?'): QuestionWasDeclared => ({
  type: 'question.declared',
  data: {
    projectId: 'p1',
    declared: {
      questionId: 'q1',
      sessionId: 's1',
      sessionAuthorId: 'ana',
      askedBy: 'po',
      question,
      suggestion: 'Yes',
      affects: none,
      origin: 'tool',
      toolCallId: 'tc-po',
      declaredAt: at(0).toISOString(),
    },
  },
  occurredAt: at(0),
});
const answered: QuestionEvent = {
  type: 'question.answered',
  data: {
    questionId: 'q1',
    answer: 'Yes, Google only',
    acceptedSuggestion: false,
    decisionEventId: 'd1',
    answeredFor: 'ana',
    agentRole: null,
    answeredAt: at(5).toISOString(),
  },
  occurredAt: at(5),
};
const architect = { role: 'arquiteto' as const, sessionId: 's2', toolCallId: 'tc-arq' };
const asked = {
  sessionAuthorId: 'ana',
  question: 'Google sign-in on the login page?',
  suggestion: null,
  affects: none,
};
const join = { type: 'join' as const, projectId: 'p1', asker: architect, asked, similarity: 0.8 };
const joinedEvent = (s: number): QuestionEvent => ({
  type: 'question.joined',
  data: { questionId: 'q1', asker: architect, similarity: 0.8, asked, joinedAt: at(s).toISOString() },
  occurredAt: at(s),
});

describe('ask once: join', () => {
  it('an open question takes the second asker: question.joined, and the question lists it', () => {
    const then = given([declared()]).when(join, 10);
    then.then([joinedEvent(10)]);
    expect(then.state?.joined.map((j) => j.asker)).toEqual([architect]);
  });

  it('the same tool call joining again changes nothing', () => {
    given([declared(), joinedEvent(10)])
      .when(join, 11)
      .then([]);
  });

  it('a question answered meanwhile is not joined (409)', () => {
    given([declared(), answered]).when(join, 10).then({ statusCode: 409, reason: 'pergunta_ja_respondida' });
  });

  it('one answer closes it for every asker: the answer after a join is the one answer', () => {
    const then = given([declared(), joinedEvent(10), answered]).when(join, 20);
    then.then({ statusCode: 409, reason: 'pergunta_ja_respondida' });
  });
});

describe('ask once: the decision reaches every asker', () => {
  const answer = {
    type: 'answer' as const,
    projectId: 'p1',
    decisionEventId: 'd1',
    answer: { by: 'user' as const, userId: 'ana', answer: 'Yes, Google only' },
  };
  const joinedWith = (s: number, toolCallId: string, affects: Affects): QuestionEvent => ({
    type: 'question.joined',
    data: {
      questionId: 'q1',
      asker: { ...architect, toolCallId },
      similarity: 0.8,
      asked: { ...asked, affects },
      joinedAt: at(s).toISOString(),
    },
    occurredAt: at(s),
  });
  const first = declared();
  first.data.declared.affects = { rules: ['RN-1'], stories: [], tasks: ['T-1'] };
  const consequencesOf = (events: readonly QuestionEvent[]) =>
    events.flatMap((e) => (e.type === 'decision.recorded' ? [e.data.consequences] : []));

  it('the decision affects what every joined asker affects, each id once, the first asker’s first', () => {
    const then = given([
      first,
      joinedWith(10, 'tc-a', { rules: ['RN-1'], stories: ['H-2'], tasks: ['T-2', 'T-1'] }),
      joinedWith(11, 'tc-b', { rules: [], stories: [], tasks: ['T-3'] }),
    ]).when(answer, 20);
    expect(consequencesOf(then.events)).toEqual([
      { rules: ['RN-1'], stories: ['H-2'], tasks: ['T-1', 'T-2', 'T-3'] },
    ]);
  });

  it('an asker split off no longer counts; without joins, the question’s own afeta', () => {
    const split: QuestionEvent = {
      type: 'question.split',
      data: {
        questionId: 'q1',
        newQuestionId: 'q2',
        by: 'ana',
        toolCallId: 'tc-a',
        splitAt: at(15).toISOString(),
      },
      occurredAt: at(15),
    };
    const then = given([first, joinedWith(10, 'tc-a', { ...none, tasks: ['T-2'] }), split]).when(answer, 20);
    expect(consequencesOf(then.events)).toEqual([first.data.declared.affects]);
  });

  it('keeps the wire’s ceiling of 50 ids a list', () => {
    const many = Array.from({ length: 40 }, (_, i) => `T-${100 + i}`);
    const then = given([
      first,
      joinedWith(10, 'tc-a', { ...none, tasks: many }),
      joinedWith(11, 'tc-b', { ...none, tasks: many.map((t) => `${t}b`) }),
    ]).when(answer, 20);
    expect(consequencesOf(then.events)[0]!.tasks).toHaveLength(50);
  });
});

describe('ask once: precedent', () => {
  const offer = { type: 'offer_precedent' as const, projectId: 'p1', asker: architect, similarity: 0.9 };

  it('a decided question offers its decision: question.precedent_offered, the question unchanged', () => {
    const then = given([declared(), answered]).when(offer, 30);
    then.then([
      {
        type: 'question.precedent_offered',
        data: {
          questionId: 'q1',
          asker: architect,
          decisionEventId: 'd1',
          similarity: 0.9,
          offeredAt: at(30).toISOString(),
        },
        occurredAt: at(30),
      },
    ]);
    expect(then.state?.answered?.decisionEventId).toBe('d1');
  });

  it('an open question has no precedent to offer (409)', () => {
    given([declared()]).when(offer, 30).then({ statusCode: 409, reason: 'pergunta_nao_decidida' });
  });
});

describe('ask once: split', () => {
  const split = (userId: string, toolCallId = 'tc-arq') => ({
    type: 'split' as const,
    projectId: 'p1',
    userId,
    toolCallId,
    newQuestionId: 'q2',
  });

  it('the session author splits a joined asker off: question.split, the asker leaves the list', () => {
    const then = given([declared(), joinedEvent(10)]).when(split('ana'), 40);
    then.then([
      {
        type: 'question.split',
        data: {
          questionId: 'q1',
          newQuestionId: 'q2',
          by: 'ana',
          toolCallId: 'tc-arq',
          splitAt: at(40).toISOString(),
        },
        occurredAt: at(40),
      },
    ]);
    expect(then.state?.joined).toEqual([]);
  });

  it('refuses someone else (403), nothing joined with that call (409 nao_ha_o_que_separar), a second split (409)', () => {
    given([declared(), joinedEvent(10)])
      .when(split('bob'), 40)
      .then({ statusCode: 403, reason: 'so_o_autor_da_sessao' });
    given([declared()]).when(split('ana'), 40).then({ statusCode: 409, reason: 'nao_ha_o_que_separar' });
    given([declared(), joinedEvent(10)])
      .when(split('ana', 'tc-other'), 40)
      .then({ statusCode: 409, reason: 'nao_ha_o_que_separar' });
  });
});

describe('askOnce: which outcome a declaration has', () => {
  const fromEvents = (...events: QuestionEvent[]): Question =>
    events.reduce<Question | null>((s, e) => question.evolve(s, e), null)!;
  const input = (question: string, over: Partial<DeclareInput> = {}): DeclareInput => ({
    sessionId: 's2',
    sessionAuthorId: 'ana',
    askedBy: 'arquiteto',
    question,
    affects: none,
    origin: 'tool',
    toolCallId: 'tc-arq',
    ...over,
  });
  const open = fromEvents(declared());
  const decided = fromEvents(declared(), answered);

  it('the same question in other words joins the open one', () => {
    expect(askOnce('p1', input('Should we support sign-in with Google on the login page?'), [open])).toEqual({
      kind: 'join',
      questionId: 'q1',
      similarity: expect.any(Number),
    });
  });

  it('a decided one is the precedent, unless the asker insists (then a new question, precedentOf)', () => {
    const again = input('Does the login page need Google sign-in support?');
    expect(askOnce('p1', again, [decided]).kind).toBe('precedent');
    expect(askOnce('p1', { ...again, insist: true, reason: 'new SSO policy' }, [decided])).toEqual({
      kind: 'declare',
      precedentOf: 'q1',
    });
    expect(precedentOf(decided)).toEqual({
      questionId: 'q1',
      decisionEventId: 'd1',
      question: declared().data.declared.question,
      answer: 'Yes, Google only',
      decidedAt: at(5).toISOString(),
    });
  });

  it('near-misses stay apart: another entity, a negation, another number', () => {
    for (const other of [
      'Should the login page support GitHub sign-in?',
      'Should the login page not support Google sign-in?',
    ])
      expect(askOnce('p1', input(other), [open])).toEqual({ kind: 'declare' });
    const limit = fromEvents(declared('Is the maximum file upload size 10 MB?'));
    expect(askOnce('p1', input('Is the maximum file upload size 25 MB?'), [limit])).toEqual({
      kind: 'declare',
    });
  });

  it('disjoint afeta, another project, a withdrawn question, or a QA verdict never match', () => {
    const same = 'Should we support sign-in with Google on the login page?';
    const scoped = fromEvents({
      ...declared(),
      data: {
        ...declared().data,
        declared: { ...declared().data.declared, affects: { ...none, stories: ['S1'] } },
      },
    });
    expect(askOnce('p1', input(same, { affects: { ...none, stories: ['S2'] } }), [scoped]).kind).toBe(
      'declare',
    );
    expect(askOnce('p1', input(same, { affects: { ...none, stories: ['S1'] } }), [scoped]).kind).toBe('join');
    expect(askOnce('p2', input(same), [open]).kind).toBe('declare');
    expect(askOnce('p1', input(same, { origin: 'qa_verdict', askedBy: 'qa-agent' }), [open]).kind).toBe(
      'declare',
    );
  });
});

describe('fold: what the matcher reads', () => {
  it('folds case, accents, plurals and word order, in Portuguese and English', () => {
    expect(fold('As Decisões do RELATÓRIO mensal?').tokens).toEqual(fold('relatorio mensal: decisão').tokens);
    expect(fold('Should monthly reports be emailed?').tokens).toEqual(fold('emailed monthly report').tokens);
  });

  it('reads a negation in either language, and "no" as "in the" in Portuguese', () => {
    expect(fold('O app não deve funcionar offline?').negated).toBe(true);
    expect(fold('Do customer reviews need no moderation?').negated).toBe(true);
    expect(fold('A senha precisa ter no mínimo 8 caracteres?').negated).toBe(false);
  });
});

describe('askBands: the keys the index finds a question by', () => {
  const bands = (project: string, text: string) => askBands(project, askKey(text));

  it('a near question shares a band, an unrelated one none, another project none', () => {
    const a = bands('p1', 'Should the login page support Google sign-in?');
    expect(a).toHaveLength(32);
    expect(bands('p1', 'Does the login page need Google sign-in support?').some((b) => a.includes(b))).toBe(
      true,
    );
    expect(bands('p1', 'Should the database backup run daily?').some((b) => a.includes(b))).toBe(false);
    expect(bands('p2', 'Should the login page support Google sign-in?').some((b) => a.includes(b))).toBe(
      false,
    );
    expect(askBands('p1', '')).toEqual([]);
  });

  it('a key of one- and two-letter words still has bands (its blank-led trigrams)', () => {
    expect(askBands('p1', 'a b')).toHaveLength(32);
  });

  it('computes the bands of their plain definition, so the bands the view stores stay valid', () => {
    // The definition, written plainly: band b's key hashes the salt, b and the minimum over the
    // trigrams of FNV-1a seeded with 3b + r + 1, for r = 0, 1, 2.
    const fnv = (seed: number, text: string) => {
      let h = (0x811c9dc5 ^ seed) >>> 0;
      for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
      return h;
    };
    const plain = (project: string, key: string) => {
      const padded = key
        .split(' ')
        .flatMap((w) => [...`  ${w} `].slice(2).map((_, i) => `  ${w} `.slice(i, i + 3)));
      const all = [...new Set(padded)];
      const grams = all.some((g) => g[0] !== ' ') ? all.filter((g) => g[0] !== ' ') : all;
      const numbers = key.split(' ').filter((t) => /^\d+$/.test(t));
      const salt = numbers.length > 0 ? `${project}#${numbers.join(' ')}` : project;
      return Array.from({ length: 32 }, (_, b) => {
        const mins = [0, 1, 2].map((r) => Math.min(...grams.map((g) => fnv(b * 3 + r + 1, g))));
        return fnv(0, `${salt}|${b}|${mins.join('.')}`).toString(36);
      });
    };
    const keys = [
      ...[
        'Should the login page support Google sign-in?',
        'O app deve funcionar offline? Ações e decisões',
        'Which status code for case 12 of import 7?',
      ].map(askKey),
      'a b', // only blank-led trigrams
    ];
    for (const key of keys) expect(askBands('p9', key)).toEqual(plain('p9', key));
  });
});
