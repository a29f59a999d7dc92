import { eventExample, failingField } from '../testing/examples';
import { AgentEvent, agentEventRegistry, type AgentEventType } from './agent-events';

const validate = (type: AgentEventType, data: unknown) => agentEventRegistry.validate(type, data);

describe('agent.qa.verdict', () => {
  const base = () => eventExample(AgentEvent.QaVerdict);
  const item = (patch: Record<string, unknown>) => ({
    subspecialty: 'functional',
    veredito: 'needs_user_decision',
    resumo: 'depends on the user',
    itens: [],
    ...patch,
  });

  it('accepts needs_user_decision with an existing openQuestionId instead of pergunta', () => {
    const verdicts = [item({ openQuestionId: '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b' })];
    expect(validate(AgentEvent.QaVerdict, { ...base(), verdicts }).ok).toBe(true);
  });

  it.each([
    ['no verdicts', { verdicts: [] }, 'verdicts'],
    ['a verdict that is not an object', { verdicts: ['approved'] }, 'verdicts.0'],
    [
      'a wrong veredito',
      { verdicts: [item({ veredito: 'rejected', pergunta: 'x' })] },
      'verdicts.0.veredito',
    ],
    [
      'needs_user_decision with neither pergunta nor openQuestionId',
      { verdicts: [item({})] },
      'verdicts.0.pergunta|openQuestionId',
    ],
    [
      'needs_user_decision with both pergunta and openQuestionId',
      { verdicts: [item({ pergunta: 'x', openQuestionId: '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b' })] },
      'verdicts.0.pergunta|openQuestionId',
    ],
    [
      'an unknown field inside a verdict',
      { verdicts: [item({ pergunta: 'x', score: 3 })] },
      'verdicts.0.score',
    ],
    ['itens that are not strings', { verdicts: [item({ pergunta: 'x', itens: [1] })] }, 'verdicts.0.itens'],
    [
      'the same subspecialty twice',
      { verdicts: [item({ pergunta: 'x' }), item({ pergunta: 'y' })] },
      'verdicts',
    ],
    ['gate outside qa|secops', { gate: 'merge' }, 'gate'],
    ['maxCorrections 0', { maxCorrections: 0 }, 'maxCorrections'],
    ['maxCorrections 21', { maxCorrections: 21 }, 'maxCorrections'],
    ['maxCorrections not an integer', { maxCorrections: 2.5 }, 'maxCorrections'],
    ['a bad roundId', { roundId: 'round 1' }, 'roundId'],
  ])('refuses %s', (_name, patch, field) => {
    expect(failingField(validate(AgentEvent.QaVerdict, { ...base(), ...patch }))).toBe(field);
  });
});

describe('agent.gate.started / agent.gate.activity', () => {
  it('accepts a start without maxCorrections', () => {
    const { maxCorrections: _m, ...rest } = eventExample(AgentEvent.GateStarted);
    expect(validate(AgentEvent.GateStarted, rest).ok).toBe(true);
  });

  it('refuses a wrong gate and a missing taskId', () => {
    expect(failingField(validate(AgentEvent.GateActivity, { taskId: 'T-1', gate: 'QA' }))).toBe('gate');
    expect(failingField(validate(AgentEvent.GateActivity, { gate: 'qa' }))).toBe('taskId');
  });
});

describe('agent.task.created / agent.task.status', () => {
  it.each([
    ['a fractional order', { order: 1.5 }, 'order'],
    ['an order given as a string', { order: '1' }, 'order'],
    ['a bad dependency id', { deps: ['T 1'] }, 'deps'],
    ['labels that are not strings', { labels: [true] }, 'labels'],
  ])('task.created refuses %s', (_name, patch, field) => {
    expect(
      failingField(validate(AgentEvent.TaskCreated, { ...eventExample(AgentEvent.TaskCreated), ...patch })),
    ).toBe(field);
  });

  it('task.status accepts status alone or stage alone', () => {
    expect(validate(AgentEvent.TaskStatus, { taskId: 'T-1', status: 'done' }).ok).toBe(true);
    expect(validate(AgentEvent.TaskStatus, { taskId: 'T-1', stage: 'analysis' }).ok).toBe(true);
  });

  it('task.status needs at least one of status and stage', () => {
    expect(failingField(validate(AgentEvent.TaskStatus, { taskId: 'T-1' }))).toBe('status|stage');
    expect(failingField(validate(AgentEvent.TaskStatus, { taskId: 'T-1', status: null, stage: null }))).toBe(
      'status|stage',
    );
  });

  it('task.status refuses a wrong status', () => {
    expect(failingField(validate(AgentEvent.TaskStatus, { taskId: 'T-1', status: 'blocked' }))).toBe(
      'status',
    );
  });
});

describe('agent.story.upserted', () => {
  const base = () => eventExample(AgentEvent.StoryUpserted);

  it.each([
    ['a wrong status', { status: 'archived' }, 'status'],
    ['archived not a boolean', { archived: 'false' }, 'archived'],
    ['a blank title', { title: ' ' }, 'title'],
    ['rf not an array', { rf: 'GET /:codigo' }, 'rf'],
    ['a bad rule id', { regras: ['RN 858'] }, 'regras'],
  ])('refuses %s', (_name, patch, field) => {
    expect(failingField(validate(AgentEvent.StoryUpserted, { ...base(), ...patch }))).toBe(field);
  });

  it('requires every field', () => {
    const { taskIds: _t, ...rest } = base();
    expect(failingField(validate(AgentEvent.StoryUpserted, rest))).toBe('taskIds');
  });
});

describe('agent.analysis.finished', () => {
  const base = () => eventExample(AgentEvent.AnalysisFinished);

  it('accepts a package that lists only some files and no questions', () => {
    expect(
      validate(AgentEvent.AnalysisFinished, { ...base(), package: { '01-brd.md': null }, questions: [] }).ok,
    ).toBe(true);
  });

  it.each([
    ['an unknown package file', { package: { 'notes.md': null } }, 'package'],
    ['a package mtime that is not a timestamp', { package: { '01-brd.md': 'yesterday' } }, 'package'],
    ['a package mtime without a zone', { package: { '01-brd.md': '2026-11-05T10:00:00' } }, 'package'],
    ['a package that is a list', { package: [] }, 'package'],
    ['51 questions', { questions: Array.from({ length: 51 }, () => ({ pergunta: 'q' })) }, 'questions'],
    [
      'a question over 500 characters',
      { questions: [{ pergunta: 'q'.repeat(501) }] },
      'questions.0.pergunta',
    ],
    ['a question with an unknown field', { questions: [{ pergunta: 'q', autor: 'x' }] }, 'questions.0.autor'],
  ])('refuses %s', (_name, patch, field) => {
    expect(failingField(validate(AgentEvent.AnalysisFinished, { ...base(), ...patch }))).toBe(field);
  });
});

describe('agent.repo.freeze (§11.3)', () => {
  it('accepts a freeze with motivo, and an unfreeze with or without one', () => {
    expect(validate(AgentEvent.RepoFreeze, eventExample(AgentEvent.RepoFreeze)).ok).toBe(true);
    expect(validate(AgentEvent.RepoFreeze, { repo: 'api', frozen: false }).ok).toBe(true);
    expect(validate(AgentEvent.RepoFreeze, { repo: 'api', frozen: false, motivo: 'released' }).ok).toBe(true);
  });

  it.each([
    ['a freeze without motivo', { repo: 'api', frozen: true }, 'frozen|motivo'],
    ['a freeze with a null motivo', { repo: 'api', frozen: true, motivo: null }, 'frozen|motivo'],
    ['a blank motivo', { repo: 'api', frozen: true, motivo: '  ' }, 'motivo'],
    ['frozen as text', { repo: 'api', frozen: 'true', motivo: 'x' }, 'frozen'],
    ['a bad repo', { repo: 'a b', frozen: false }, 'repo'],
  ])('refuses %s', (_name, data, field) => {
    expect(failingField(validate(AgentEvent.RepoFreeze, data))).toBe(field);
  });
});
