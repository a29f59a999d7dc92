import { STREAMS, streamOfType } from '../subjects';
import { clone, eventExample, failingField, openqEventExamples } from '../testing/examples';
import { OPENQ_EVENT_TYPES, OpenqEvent, openqEventRegistry, type OpenqEventType } from './openq-events';

const validate = (type: OpenqEventType, data: unknown) => openqEventRegistry.validate(type, data);

describe('openq events', () => {
  it('registers every openq event type, each on a subject of OPENQ_EVENTS', () => {
    expect(new Set(openqEventRegistry.types())).toEqual(new Set(OPENQ_EVENT_TYPES));
    const prefixes = STREAMS.openqEvents.subjects.map((s) => s.replace('>', ''));
    for (const type of OPENQ_EVENT_TYPES) {
      expect(streamOfType(type)).toBe('openqEvents');
      expect(prefixes.some((p) => type.startsWith(p))).toBe(true);
    }
  });

  it.each(OPENQ_EVENT_TYPES)('accepts the example of %s', (type) => {
    expect(validate(type, clone(openqEventExamples[type]))).toMatchObject({ ok: true });
  });

  /** `projectId` travels in the envelope, never in `data` — except where SPEC §11.6 names it in `data`. */
  const PROJECT_IN_DATA: readonly OpenqEventType[] = [
    'delegation.granted',
    'delegation.revoked',
    'project.policy_changed',
  ];

  it.each(OPENQ_EVENT_TYPES)('refuses an unknown field on %s', (type) => {
    const unknown = PROJECT_IN_DATA.includes(type) ? 'reviewer' : 'projectId';
    expect(failingField(validate(type, { ...clone(openqEventExamples[type]), [unknown]: 'p1' }))).toBe(
      unknown,
    );
  });
});

describe('question.declared', () => {
  const base = () => eventExample(OpenqEvent.QuestionDeclared);

  it('accepts the QA and analyst origins with their own authors and no toolCallId', () => {
    expect(
      validate(OpenqEvent.QuestionDeclared, {
        ...base(),
        origin: 'qa_verdict',
        autor: 'qa-agent',
        toolCallId: null,
      }).ok,
    ).toBe(true);
    expect(
      validate(OpenqEvent.QuestionDeclared, {
        ...base(),
        origin: 'analyst',
        autor: 'analyst',
        toolCallId: null,
      }).ok,
    ).toBe(true);
  });

  it.each([
    ['an author that does not match the origin', { origin: 'analyst', autor: 'po' }, 'autor|origin'],
    ['a wrong origin', { origin: 'prose' }, 'origin'],
    ['a questionId that is not a UUID', { questionId: 'q-1' }, 'questionId'],
    ['a declaredAt that is not a timestamp', { declaredAt: '05/11/2026' }, 'declaredAt'],
  ])('refuses %s', (_name, patch, field) => {
    expect(failingField(validate(OpenqEvent.QuestionDeclared, { ...base(), ...patch }))).toBe(field);
  });

  it('needs toolCallId present, null allowed', () => {
    const { toolCallId: _t, ...rest } = base();
    expect(failingField(validate(OpenqEvent.QuestionDeclared, rest))).toBe('toolCallId');
  });
});

describe('question.answered / decision.recorded', () => {
  it('accepts an answer recorded by an agent', () => {
    expect(
      validate(OpenqEvent.QuestionAnswered, { ...eventExample(OpenqEvent.QuestionAnswered), viaAgente: 'po' })
        .ok,
    ).toBe(true);
  });

  it.each([
    ['an empty resposta', { resposta: '' }, 'resposta'],
    ['aceitouSugestao not a boolean', { aceitouSugestao: 'yes' }, 'aceitouSugestao'],
    ['a missing viaAgente (must be null for a click)', { viaAgente: undefined }, 'viaAgente'],
    ['a wrong viaAgente', { viaAgente: 'qa-agent' }, 'viaAgente'],
  ])('question.answered refuses %s', (_name, patch, field) => {
    expect(
      failingField(
        validate(OpenqEvent.QuestionAnswered, { ...eventExample(OpenqEvent.QuestionAnswered), ...patch }),
      ),
    ).toBe(field);
  });

  describe.each([OpenqEvent.QuestionAnswered, OpenqEvent.DecisionRecorded] as const)(
    '%s keeps the agent session for the audit (SPEC §11.2)',
    (type) => {
      it('accepts it from an agent, and an event without it (a click, an older event) stays valid', () => {
        const withSession = { ...eventExample(type), viaAgente: 'arquiteto', agentSessionId: 'sess-arq-9' };
        expect(validate(type, withSession)).toMatchObject({
          ok: true,
          value: { agentSessionId: 'sess-arq-9' },
        });
        expect('agentSessionId' in eventExample(type)).toBe(false);
        expect(validate(type, eventExample(type)).ok).toBe(true);
        expect(validate(type, { ...eventExample(type), agentSessionId: null }).ok).toBe(true);
      });

      it.each([['a/b'], [''], ['x'.repeat(65)], [42]])('refuses the session id %p', (agentSessionId) => {
        expect(failingField(validate(type, { ...eventExample(type), agentSessionId }))).toBe(
          'agentSessionId',
        );
      });
    },
  );

  it('decision.recorded: the actor is always the user', () => {
    const data = { ...eventExample(OpenqEvent.DecisionRecorded), actor: { kind: 'agent', id: 'po' } };
    expect(failingField(validate(OpenqEvent.DecisionRecorded, data))).toBe('actor.kind');
  });

  it('decision.recorded: consequences is an afeta', () => {
    const data = { ...eventExample(OpenqEvent.DecisionRecorded), consequences: { regras: [] } };
    expect(failingField(validate(OpenqEvent.DecisionRecorded, data))).toBe('consequences.historias');
  });
});

describe('gate.* events', () => {
  it('gate.rescue_parked carries idadeSegundos only when idle', () => {
    const idle = {
      taskId: 'T-1',
      gate: 'qa',
      reason: 'idle',
      questionIds: [],
      idadeSegundos: 7300,
      motivo: 'idle for 2h',
    };
    expect(validate(OpenqEvent.GateRescueParked, idle).ok).toBe(true);
    expect(failingField(validate(OpenqEvent.GateRescueParked, { ...idle, idadeSegundos: -1 }))).toBe(
      'idadeSegundos',
    );
    expect(failingField(validate(OpenqEvent.GateRescueParked, { ...idle, reason: 'bored' }))).toBe('reason');
  });

  it('gate.resumed by a person carries no questions', () => {
    const human = { taskId: 'T-1', gate: 'qa', trigger: 'human', questionIds: [], decisionEventIds: [] };
    expect(validate(OpenqEvent.GateResumed, human).ok).toBe(true);
    expect(failingField(validate(OpenqEvent.GateResumed, { ...human, trigger: 'timer' }))).toBe('trigger');
    expect(failingField(validate(OpenqEvent.GateResumed, { ...human, questionIds: ['q1'] }))).toBe(
      'questionIds',
    );
  });

  it('gate.resumed by an answer may carry the changes QA requested in the parked round', () => {
    const data = {
      ...eventExample(OpenqEvent.GateResumed),
      pendingChanges: [{ subspecialty: 'api', resumo: 'GET /:codigo 404', itens: ['fix the route'] }],
    };
    expect(validate(OpenqEvent.GateResumed, data).ok).toBe(true);
    expect(validate(OpenqEvent.GateResumed, { ...data, pendingChanges: [] }).ok).toBe(true);
    const bad = { ...data, pendingChanges: [{ subspecialty: 'api', resumo: null, itens: [42] }] };
    expect(failingField(validate(OpenqEvent.GateResumed, bad))).toBe('pendingChanges.0.itens');
  });

  it('gate.resumed by override names who and why, and only an override does', () => {
    const override = {
      ...eventExample(OpenqEvent.GateResumed),
      trigger: 'override',
      decisionEventIds: [],
      by: 'maria',
      motivo: 'Customer confirmed by phone',
    };
    expect(validate(OpenqEvent.GateResumed, override).ok).toBe(true);
    const { by: _by, ...withoutBy } = override;
    expect(failingField(validate(OpenqEvent.GateResumed, withoutBy))).toBe('by');
    expect(failingField(validate(OpenqEvent.GateResumed, { ...override, motivo: ' ' }))).toBe('motivo');
    expect(failingField(validate(OpenqEvent.GateResumed, { ...override, motivo: 'x'.repeat(501) }))).toBe(
      'motivo',
    );
    const answered = { ...eventExample(OpenqEvent.GateResumed), by: 'maria', motivo: 'why' };
    expect(failingField(validate(OpenqEvent.GateResumed, answered))).toBe('by|motivo');
  });

  it('gate.verdict_recorded refuses an unknown nextAction', () => {
    const data = { ...eventExample(OpenqEvent.GateVerdictRecorded), nextAction: 'merge' };
    expect(failingField(validate(OpenqEvent.GateVerdictRecorded, data))).toBe('nextAction');
  });
});

describe('pipeline.* and story.corrected', () => {
  it('pipeline.analysis_incomplete names only deliverables', () => {
    const data = { ...eventExample(OpenqEvent.PipelineAnalysisIncomplete), missing: ['01-questions.md'] };
    expect(failingField(validate(OpenqEvent.PipelineAnalysisIncomplete, data))).toBe('missing');
  });

  it('pipeline.task_paused refuses an unknown source', () => {
    expect(failingField(validate(OpenqEvent.PipelineTaskPaused, { taskId: 'T-1', source: 'cron' }))).toBe(
      'source',
    );
  });

  it('story.corrected needs at least one change and a valid actor', () => {
    const base = eventExample(OpenqEvent.StoryCorrected);
    expect(failingField(validate(OpenqEvent.StoryCorrected, { ...base, changes: {} }))).toBe(
      'changes.title|rf|rnf|dod|dor',
    );
    expect(
      failingField(validate(OpenqEvent.StoryCorrected, { ...base, actor: { kind: 'bot', id: 'po' } })),
    ).toBe('actor.kind');
    expect(validate(OpenqEvent.StoryCorrected, { ...base, questionId: null }).ok).toBe(true);
  });
});
