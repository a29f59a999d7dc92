import { validateAs } from '../validation';
import { PERGUNTA_MAX_LENGTH, SUGESTAO_MAX_LENGTH } from '../limits';
import { agentEventExamples, clone, eventExample, failingField } from '../testing/examples';
import {
  AGENT_EVENT_TYPES,
  AgentEvent,
  AgentQuestionDeclareDto,
  agentEventRegistry,
  type AgentEventType,
} from './agent-events';

const validate = (type: AgentEventType, data: unknown) => agentEventRegistry.validate(type, data);

describe('agent events', () => {
  it('registers every agent event type, each under agent.>', () => {
    expect(new Set(agentEventRegistry.types())).toEqual(new Set(AGENT_EVENT_TYPES));
    expect(AGENT_EVENT_TYPES).toHaveLength(11);
    for (const type of AGENT_EVENT_TYPES) expect(type.startsWith('agent.')).toBe(true);
  });

  it.each(AGENT_EVENT_TYPES)('accepts the example of %s', (type) => {
    expect(validate(type, clone(agentEventExamples[type]))).toMatchObject({ ok: true });
  });

  it.each(AGENT_EVENT_TYPES)('refuses an unknown field on %s', (type) => {
    const result = validate(type, { ...clone(agentEventExamples[type]), extra: 1 });
    expect(result).toMatchObject({ ok: false, reason: 'payload_invalido', field: 'extra' });
  });

  it('refuses an unknown type', () => {
    expect(validate('agent.nope' as AgentEventType, {})).toMatchObject({
      ok: false,
      reason: 'tipo_desconhecido',
    });
  });
});

describe('agent.question.declare', () => {
  const base = () => eventExample(AgentEvent.QuestionDeclare);

  it('trims pergunta and turns a blank sugestao into null', () => {
    const result = validateAs(AgentQuestionDeclareDto, {
      ...base(),
      pergunta: '  Which one?  ',
      sugestao: '   ',
    });
    expect(result.ok && result.value).toMatchObject({ pergunta: 'Which one?', sugestao: null });
  });

  it('accepts a missing or null sugestao', () => {
    const { sugestao: _omit, ...rest } = base();
    expect(validate(AgentEvent.QuestionDeclare, rest).ok).toBe(true);
    expect(validate(AgentEvent.QuestionDeclare, { ...base(), sugestao: null }).ok).toBe(true);
  });

  it('counts pergunta after trim, in characters', () => {
    const exact = 'é'.repeat(PERGUNTA_MAX_LENGTH);
    expect(validate(AgentEvent.QuestionDeclare, { ...base(), pergunta: `  ${exact}  ` }).ok).toBe(true);
    expect(
      validate(AgentEvent.QuestionDeclare, { ...base(), pergunta: '😀'.repeat(PERGUNTA_MAX_LENGTH) }).ok,
    ).toBe(true);
  });

  it.each([
    ['too long pergunta', { pergunta: 'x'.repeat(PERGUNTA_MAX_LENGTH + 1) }, 'pergunta'],
    ['blank pergunta', { pergunta: '   ' }, 'pergunta'],
    ['pergunta not a string', { pergunta: 42 }, 'pergunta'],
    ['too long sugestao', { sugestao: 's'.repeat(SUGESTAO_MAX_LENGTH + 1) }, 'sugestao'],
    ['autor outside the askers', { autor: 'qa-agent' }, 'autor'],
    ['bad sessionId', { sessionId: 'has space' }, 'sessionId'],
    ['sessionAuthorId too long', { sessionAuthorId: 'u'.repeat(65) }, 'sessionAuthorId'],
    ['empty toolCallId', { toolCallId: '' }, 'toolCallId'],
    ['afeta not an object', { afeta: ['TASK-1'] }, 'afeta'],
    ['afeta with a bad id', { afeta: { regras: ['RN 1'], historias: [], tarefas: [] } }, 'afeta.regras'],
    [
      'afeta with 51 ids',
      { afeta: { regras: [], historias: [], tarefas: Array.from({ length: 51 }, (_, i) => `T-${i}`) } },
      'afeta.tarefas',
    ],
    ['afeta missing an array', { afeta: { regras: [], historias: [] } }, 'afeta.tarefas'],
    [
      'afeta with an unknown key',
      { afeta: { regras: [], historias: [], tarefas: [], epicos: [] } },
      'afeta.epicos',
    ],
  ])('refuses %s', (_name, patch, field) => {
    expect(failingField(validate(AgentEvent.QuestionDeclare, { ...base(), ...patch }))).toBe(field);
  });

  it.each(['sessionId', 'sessionAuthorId', 'autor', 'pergunta', 'afeta', 'toolCallId'])(
    'requires %s',
    (key) => {
      const data = base() as unknown as Record<string, unknown>;
      delete data[key];
      expect(failingField(validate(AgentEvent.QuestionDeclare, data))).toBe(key);
    },
  );
});

describe('agent.question.answer', () => {
  const base = () => eventExample(AgentEvent.QuestionAnswer);

  it('accepts an answer without resposta (the suggestion is the answer)', () => {
    const { resposta: _r, agentSessionId: _s, ...rest } = base();
    expect(validate(AgentEvent.QuestionAnswer, rest).ok).toBe(true);
  });

  it.each([
    ['a questionId that is not a UUID', { questionId: 'Q-1' }, 'questionId'],
    ['a blank resposta', { resposta: '  ' }, 'resposta'],
    ['a resposta over 2000 characters', { resposta: 'r'.repeat(2001) }, 'resposta'],
    ['viaAgente outside the askers', { viaAgente: 'qa-agent' }, 'viaAgente'],
    ['a bad agentSessionId', { agentSessionId: 'a/b' }, 'agentSessionId'],
  ])('refuses %s', (_name, patch, field) => {
    expect(failingField(validate(AgentEvent.QuestionAnswer, { ...base(), ...patch }))).toBe(field);
  });

  it('requires toolCallId and viaAgente', () => {
    const { toolCallId: _t, ...noCall } = base();
    expect(failingField(validate(AgentEvent.QuestionAnswer, noCall))).toBe('toolCallId');
    const { viaAgente: _v, ...noAgent } = base();
    expect(failingField(validate(AgentEvent.QuestionAnswer, noAgent))).toBe('viaAgente');
  });
});
