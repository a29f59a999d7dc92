import { requestSubject } from '../subjects';
import { validateAs } from '../validation';
import { clone, commandExamples, failingField } from '../testing/examples';
import { Commands, commandRegistry } from './command-registry';
import { ListQuestionsCommand, QuestionDeclarationDto } from './questions.commands';
import { openQuestionsQueuePath, readinessNotice } from './questions.views';
import { Verb } from './verbs';

type Service = keyof typeof Commands;
const every = (Object.keys(Commands) as Service[]).flatMap((service) =>
  Object.entries(Commands[service]).map(([verb, definition]) => ({ service, verb, definition })),
);
const example = (service: Service, verb: string): Record<string, unknown> =>
  clone((commandExamples[service] as Record<string, object>)[verb]) as Record<string, unknown>;
const validate = (service: Service, verb: string, data: unknown) =>
  commandRegistry.validate((Commands[service] as Record<string, { type: string }>)[verb]!.type, data);

describe('commands', () => {
  it('registers exactly the verbs of Verb, on openq.<service>.<verb>', () => {
    const fromVerb = Object.values(Verb).flatMap((verbs) =>
      Object.values(verbs).map((p) => requestSubject(p.service, p.verb)),
    );
    expect(new Set(commandRegistry.types())).toEqual(new Set(fromVerb));
    expect(commandRegistry.types()).toHaveLength(52);
    expect(Commands.questions.answerByAgent.type).toBe('openq.questions.answer-by-agent');
    expect(Commands.gates.pipelineQueue).toMatchObject({ service: 'gates', verb: 'pipeline-queue' });
  });

  it.each(every.map((c) => [`${c.service}.${c.verb}`, c] as const))('accepts the example of %s', (_n, c) => {
    expect(validate(c.service, c.verb, example(c.service, c.verb))).toMatchObject({ ok: true });
  });

  it.each(every.map((c) => [`${c.service}.${c.verb}`, c] as const))('%s needs a valid projectId', (_n, c) => {
    expect(
      failingField(validate(c.service, c.verb, { ...example(c.service, c.verb), projectId: 'p.1' })),
    ).toBe('projectId');
  });
});

describe('questions.declare', () => {
  const declaration = () => example('questions', 'declare')['declaration'] as Record<string, unknown>;

  it('defaults origin to tool', () => {
    const { origin: _o, ...rest } = declaration();
    const result = validateAs(QuestionDeclarationDto, rest);
    expect(result.ok && result.value.origin).toBe('tool');
  });

  it('accepts a QA question without toolCallId', () => {
    const qa = { ...declaration(), origin: 'qa_verdict', autor: 'qa-agent', toolCallId: undefined };
    expect(validate('questions', 'declare', { projectId: 'p1', declaration: qa }).ok).toBe(true);
  });

  it.each([
    ['a tool question without toolCallId', { toolCallId: null }, 'declaration.toolCallId|origin'],
    ['an analyst question authored by po', { origin: 'analyst', autor: 'po' }, 'declaration.autor|origin'],
    ['an unknown autor', { autor: 'ceo' }, 'declaration.autor'],
    ['a too long pergunta', { pergunta: 'p'.repeat(501) }, 'declaration.pergunta'],
  ])('refuses %s', (_name, patch, field) => {
    expect(
      failingField(
        validate('questions', 'declare', { projectId: 'p1', declaration: { ...declaration(), ...patch } }),
      ),
    ).toBe(field);
  });
});

describe('questions.answer / answer-by-agent', () => {
  it('answer takes exactly one of resposta and aceitarSugestao', () => {
    const base = { projectId: 'p1', questionId: '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b', userId: 'u1' };
    expect(validate('questions', 'answer', { ...base, resposta: 'yes' }).ok).toBe(true);
    expect(failingField(validate('questions', 'answer', base))).toBe('resposta|aceitarSugestao');
    expect(
      failingField(validate('questions', 'answer', { ...base, resposta: 'yes', aceitarSugestao: true })),
    ).toBe('resposta|aceitarSugestao');
  });

  it('answer-by-agent refuses a wrong viaAgente', () => {
    const data = { ...example('questions', 'answerByAgent'), viaAgente: 'dev' };
    expect(failingField(validate('questions', 'answerByAgent', data))).toBe('viaAgente');
  });
});

describe('questions.list / readiness', () => {
  it('list defaults status open and limit 50', () => {
    const result = validateAs(ListQuestionsCommand, { projectId: 'p1', userId: 'u1' });
    expect(result.ok && { status: result.value.status, limit: result.value.limit }).toEqual({
      status: 'open',
      limit: 50,
    });
  });

  it.each([
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 51', { limit: 51 }, 'limit'],
    ['a wrong status', { status: 'closed' }, 'status'],
    ['a cursor with spaces', { cursor: 'a b' }, 'cursor'],
  ])('list refuses %s', (_name, patch, field) => {
    expect(failingField(validate('questions', 'list', { ...example('questions', 'list'), ...patch }))).toBe(
      field,
    );
  });

  it('readiness refuses an unknown action', () => {
    expect(failingField(validate('questions', 'readiness', { projectId: 'p1', action: 'ship_it' }))).toBe(
      'action',
    );
  });

  it('readiness notice counts in words, singular for one, none for zero', () => {
    expect(readinessNotice(0)).toBeNull();
    expect(readinessNotice(1)).toBe('1 question is still open — answer');
    expect(readinessNotice(4)).toBe('4 questions are still open — answer');
    expect(openQuestionsQueuePath('p1')).toBe('/projects/p1/open-questions');
  });
});

describe('questions.status', () => {
  it('asks about 1 to 50 question ids', () => {
    const many = Array.from({ length: 51 }, () => '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b');
    expect(validate('questions', 'status', { projectId: 'p1', questionIds: many.slice(0, 50) }).ok).toBe(
      true,
    );
    expect(failingField(validate('questions', 'status', { projectId: 'p1', questionIds: many }))).toBe(
      'questionIds',
    );
    expect(failingField(validate('questions', 'status', { projectId: 'p1', questionIds: [] }))).toBe(
      'questionIds',
    );
    expect(failingField(validate('questions', 'status', { projectId: 'p1', questionIds: ['q1'] }))).toBe(
      'questionIds',
    );
  });
});

describe('gates and context commands', () => {
  it('gates.resume refuses a wrong gate', () => {
    expect(failingField(validate('gates', 'resume', { ...example('gates', 'resume'), gate: 'user' }))).toBe(
      'gate',
    );
  });

  it("gates.resume carries an override with its motivo, refused with the field's reason otherwise", () => {
    const override = { ...example('gates', 'resume'), override: true, motivo: 'asked the PO' };
    expect(validate('gates', 'resume', override).ok).toBe(true);
    expect(validate('gates', 'resume', { ...override, motivo: '' })).toMatchObject({
      ok: false,
      reason: 'motivo_invalido',
    });
    expect(validate('gates', 'resume', { ...override, override: false })).toMatchObject({
      ok: false,
      reason: 'override_invalido',
    });
  });

  it('pipeline-queue accepts no repo', () => {
    expect(validate('gates', 'pipelineQueue', { projectId: 'p1' }).ok).toBe(true);
  });

  it('turn-context refuses a role that is not an asker', () => {
    expect(failingField(validate('context', 'turnContext', { projectId: 'p1', role: 'qa-agent' }))).toBe(
      'role',
    );
  });

  it('correct-story needs at least one change and a known actor kind', () => {
    const base = example('context', 'correctStory');
    expect(failingField(validate('context', 'correctStory', { ...base, changes: {} }))).toBe(
      'changes.title|rf|rnf|dod|dor',
    );
    expect(
      failingField(validate('context', 'correctStory', { ...base, actor: { kind: 'robot', id: 'po' } })),
    ).toBe('actor.kind');
    expect(failingField(validate('context', 'correctStory', { ...base, changes: { rf: [''] } }))).toBe(
      'changes.rf',
    );
    expect(failingField(validate('context', 'correctStory', { ...base, changes: { owner: 'x' } }))).toBe(
      'changes.owner',
    );
  });
});
