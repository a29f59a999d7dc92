import { validateAs } from '../validation';
import { RESPOSTA_MAX_LENGTH } from '../limits';
import { clone, failingField, httpExamples } from '../testing/examples';
import { AgentAnswerBody } from './agent-answer.dto';
import { AcceptSuggestionsBody } from './accept-suggestions.dto';
import { AmendDecisionBody } from './amend-decision.dto';
import { AnswerQuestionBody } from './answer-question.dto';
import { PipelineQueueQuery, ReadinessParams, RepoFreezeBody, TurnContextQuery } from './context-queries.dto';
import { DeclareQuestionBody } from './declare-question.dto';
import { ListOpenQuestionsQuery } from './list-open-questions.dto';
import { StoryCorrectionBody } from './story-correction.dto';
import { GateHistoryQuery } from './gate-history.dto';
import { ResumeGateBody } from './resume-gate.dto';
import { absentMeansEmpty } from '../validation';

describe('HTTP examples', () => {
  it.each([
    ['AnswerQuestionBody', AnswerQuestionBody, httpExamples.answerQuestionBody],
    ['AnswerQuestionBody (accept)', AnswerQuestionBody, httpExamples.acceptSuggestionBody],
    ['DeclareQuestionBody', DeclareQuestionBody, httpExamples.declareQuestionBody],
    ['AgentAnswerBody', AgentAnswerBody, httpExamples.agentAnswerBody],
    ['ListOpenQuestionsQuery', ListOpenQuestionsQuery, httpExamples.listOpenQuestionsQuery],
    ['StoryCorrectionBody', StoryCorrectionBody, httpExamples.storyCorrectionBody],
    ['TurnContextQuery', TurnContextQuery, httpExamples.turnContextQuery],
    ['PipelineQueueQuery', PipelineQueueQuery, httpExamples.pipelineQueueQuery],
    ['ReadinessParams', ReadinessParams, httpExamples.readinessParams],
    ['ResumeGateBody (override)', ResumeGateBody, httpExamples.resumeGateOverrideBody],
    ['GateHistoryQuery', GateHistoryQuery, httpExamples.gateHistoryQuery],
    ['RepoFreezeBody', RepoFreezeBody, httpExamples.repoFreezeBody],
    ['AmendDecisionBody', AmendDecisionBody, httpExamples.amendDecisionBody],
    ['AcceptSuggestionsBody', AcceptSuggestionsBody, httpExamples.acceptSuggestionsBody],
  ] as const)('%s accepts its example', (_name, cls, example) => {
    expect(validateAs(cls as new () => object, clone(example))).toMatchObject({ ok: true });
  });
});

describe('AnswerQuestionBody: { resposta } xor { aceitarSugestao: true }', () => {
  const check = (body: unknown) => failingField(validateAs(AnswerQuestionBody, body));

  it('accepts either one, trimming resposta', () => {
    const result = validateAs(AnswerQuestionBody, { resposta: '  410 Gone ' });
    expect(result.ok && result.value.resposta).toBe('410 Gone');
    expect(check({ aceitarSugestao: true })).toBeNull();
  });

  it.each([
    ['an empty body', {}, 'resposta|aceitarSugestao'],
    ['both', { resposta: 'x', aceitarSugestao: true }, 'resposta|aceitarSugestao'],
    ['aceitarSugestao false', { aceitarSugestao: false }, 'aceitarSugestao'],
    ['aceitarSugestao "true"', { aceitarSugestao: 'true' }, 'aceitarSugestao'],
    ['a blank resposta', { resposta: '   ' }, 'resposta'],
    ['a resposta too long', { resposta: 'r'.repeat(RESPOSTA_MAX_LENGTH + 1) }, 'resposta'],
    ['an unknown field', { resposta: 'x', respondidaPor: 'u2' }, 'respondidaPor'],
    ['a body that is a list', [], '(body)'],
  ])('refuses %s', (_name, body, field) => {
    expect(check(body)).toBe(field);
  });
});

describe('AmendDecisionBody: { resposta } only', () => {
  const check = (body: unknown) => failingField(validateAs(AmendDecisionBody, body));

  it.each([
    ['an empty body', {}, 'resposta'],
    ['a blank resposta', { resposta: '  ' }, 'resposta'],
    ['a resposta too long', { resposta: 'r'.repeat(RESPOSTA_MAX_LENGTH + 1) }, 'resposta'],
    ['accepting the suggestion instead', { aceitarSugestao: true }, 'aceitarSugestao'],
  ])('refuses %s', (_name, body, field) => {
    expect(check(body)).toBe(field);
  });
});

describe('DeclareQuestionBody', () => {
  it.each([
    ['a pergunta over 500 characters', { pergunta: 'x'.repeat(501) }, 'pergunta'],
    ['a bad sessionId', { sessionId: '../etc' }, 'sessionId'],
    ['autor analyst (not a tool author)', { autor: 'analyst' }, 'autor'],
    ['an origin (the route is the tool door)', { origin: 'tool' }, 'origin'],
  ])('refuses %s', (_name, patch, field) => {
    expect(
      failingField(validateAs(DeclareQuestionBody, { ...clone(httpExamples.declareQuestionBody), ...patch })),
    ).toBe(field);
  });
});

describe('AgentAnswerBody', () => {
  it('needs viaAgente, nothing else', () => {
    expect(failingField(validateAs(AgentAnswerBody, {}))).toBe('viaAgente');
    expect(failingField(validateAs(AgentAnswerBody, { viaAgente: 'po' }))).toBeNull();
  });
});

describe('ListOpenQuestionsQuery (query strings)', () => {
  it('defaults to status open, limit 50', () => {
    expect(validateAs(ListOpenQuestionsQuery, {})).toEqual({
      ok: true,
      value: expect.objectContaining({ status: 'open', limit: 50 }),
    });
  });

  it('turns a numeric string into an integer', () => {
    const result = validateAs(ListOpenQuestionsQuery, { limit: '7', cursor: 'eyJwIjoxfQ' });
    expect(result.ok && result.value.limit).toBe(7);
  });

  it.each([
    ['limit 0', { limit: '0' }, 'limit'],
    ['limit 51', { limit: '51' }, 'limit'],
    ['a limit that is not a number', { limit: 'ten' }, 'limit'],
    ['a fractional limit', { limit: '2.5' }, 'limit'],
    ['a status outside open|answered|all', { status: 'closed' }, 'status'],
    ['a repeated status', { status: ['open', 'all'] }, 'status'],
    ['an unknown parameter', { sort: 'desc' }, 'sort'],
  ])('refuses %s', (_name, query, field) => {
    expect(failingField(validateAs(ListOpenQuestionsQuery, query, 'parametro_invalido'))).toBe(field);
  });

  it('names the reason asked for', () => {
    expect(validateAs(ListOpenQuestionsQuery, { limit: 'x' }, 'parametro_invalido')).toMatchObject({
      reason: 'parametro_invalido',
    });
  });
});

describe('StoryCorrectionBody', () => {
  it.each([
    ['no changes', { changes: {} }, 'changes.title|rf|rnf|dod|dor'],
    ['changes missing', { questionId: '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b' }, 'changes'],
    ['a questionId that is not a UUID', { questionId: 'Q-1', changes: { title: 't' } }, 'questionId'],
    ['an unknown change', { changes: { archived: true } }, 'changes.archived'],
    ['a dor item that is not text', { changes: { dor: [1] } }, 'changes.dor'],
  ])('refuses %s', (_name, body, field) => {
    expect(failingField(validateAs(StoryCorrectionBody, body))).toBe(field);
  });
});

describe('context queries', () => {
  it('refuse what is outside their lists', () => {
    expect(failingField(validateAs(TurnContextQuery, { role: 'qa-agent' }))).toBe('role');
    expect(failingField(validateAs(PipelineQueueQuery, { repo: 'a b' }))).toBe('repo');
    expect(failingField(validateAs(ReadinessParams, { action: 'go' }))).toBe('action');
  });
});

describe('ResumeGateBody: nothing (§4) or { override: true, motivo } (§11.1)', () => {
  const reasonOf = (body: unknown) => {
    const result = validateAs(ResumeGateBody, body);
    return result.ok ? null : result.reason;
  };

  it('may be left out: no body reads as {}, the §4 resume', () => {
    expect(absentMeansEmpty(ResumeGateBody)).toBe(true);
    expect(validateAs(ResumeGateBody, {})).toMatchObject({ ok: true, value: {} });
  });

  it('trims the motivo of an override', () => {
    const result = validateAs(ResumeGateBody, { override: true, motivo: '  asked the PO  ' });
    expect(result.ok && result.value).toMatchObject({ override: true, motivo: 'asked the PO' });
  });

  it.each([
    ['override without motivo', { override: true }, 'motivo_invalido'],
    ['an empty motivo', { override: true, motivo: '' }, 'motivo_invalido'],
    ['a blank motivo', { override: true, motivo: '   ' }, 'motivo_invalido'],
    ['a motivo of 501 characters', { override: true, motivo: 'x'.repeat(501) }, 'motivo_invalido'],
    ['a motivo that is not text', { override: true, motivo: 42 }, 'motivo_invalido'],
    ['override false', { override: false, motivo: 'why' }, 'override_invalido'],
    ['override "true"', { override: 'true', motivo: 'why' }, 'override_invalido'],
    ['a motivo without override', { motivo: 'why' }, 'override_invalido'],
    ['an unknown field', { override: true, motivo: 'why', force: true }, 'corpo_invalido'],
  ])('refuses %s with its own reason', (_name, body, reason) => {
    expect(reasonOf(body)).toBe(reason);
  });

  it('takes a motivo of exactly 500 characters (emoji count as one)', () => {
    expect(reasonOf({ override: true, motivo: '🙂'.repeat(500) })).toBeNull();
  });
});

describe('RepoFreezeBody (§11.3): a freeze says why', () => {
  const check = (body: unknown) => failingField(validateAs(RepoFreezeBody, body));

  it('trims motivo', () => {
    const result = validateAs(RepoFreezeBody, { motivo: '  release week ' });
    expect(result.ok && result.value.motivo).toBe('release week');
  });

  it.each([
    ['no motivo', {}, 'motivo'],
    ['a blank motivo', { motivo: '   ' }, 'motivo'],
    ['a motivo over 500 characters', { motivo: 'm'.repeat(501) }, 'motivo'],
    ['a motivo that is not text', { motivo: 3 }, 'motivo'],
    ['an unknown field', { motivo: 'x', by: 'someone-else' }, 'by'],
  ])('refuses %s', (_name, body, field) => {
    expect(check(body)).toBe(field);
  });
});

describe('AcceptSuggestionsBody (issue #18): 1 to 50 distinct question UUIDs', () => {
  const id = (n: number) => `0190a3b8-7c1d-7e2f-8a3b-${n.toString(16).padStart(12, '0')}`;
  const check = (body: unknown) => failingField(validateAs(AcceptSuggestionsBody, body));

  it('takes 1 and 50', () => {
    expect(validateAs(AcceptSuggestionsBody, { questionIds: [id(1)] })).toMatchObject({ ok: true });
    const fifty = Array.from({ length: 50 }, (_, i) => id(i));
    expect(validateAs(AcceptSuggestionsBody, { questionIds: fifty })).toMatchObject({ ok: true });
  });

  it.each([
    ['no questionIds', {}],
    ['an empty list', { questionIds: [] }],
    ['51 ids', { questionIds: Array.from({ length: 51 }, (_, i) => id(i)) }],
    ['an id that is not a UUID', { questionIds: [id(1), 'T-101'] }],
    ['the same id twice', { questionIds: [id(1), id(1)] }],
    ['a list that is not a list', { questionIds: id(1) }],
  ])('refuses %s', (_name, body) => {
    expect(check(body)).toBe('questionIds');
  });

  it('refuses an unknown field', () => {
    expect(check({ questionIds: [id(1)], resposta: 'yes' })).toBe('resposta');
  });
});
