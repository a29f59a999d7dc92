import { makeEnvelope, newId, OpenqEvent, type EventEnvelope } from '@openq/contracts';
import { recomputeAnalytics, useServiceDatabase } from '@openq/testing';
import { CONTEXT_MIGRATIONS } from '../migrations';
import { applyContextFact, type ContextFactType } from '../projections/context-facts';
import { analyticsRows } from './analytics.query';

/*
 * Question quality's read model and statement on real PostgreSQL, over a history no end-to-end run
 * can make (weeks apart, ask-once events, idle parks, one park waiting on two roles), applied in a
 * shuffled order and twice: every figure equals the recomputation from the events.
 */
const store = useServiceDatabase('context', CONTEXT_MIGRATIONS);
const P = 'qual';
const day = (d: number, h = 9) => new Date(Date.UTC(2026, 10, d, h)); // November 2026

function history(): EventEnvelope[] {
  const events: EventEnvelope[] = [];
  const add = (type: string, data: object, at: Date, projectId = P) =>
    events.push(makeEnvelope(type, projectId, data, { occurredAt: at }));
  const question = (autor: string, at: Date, sugestao: string | null = 'yes') => {
    const questionId = newId();
    add(
      OpenqEvent.QuestionDeclared,
      {
        questionId,
        sessionId: 's1',
        sessionAuthorId: 'ana',
        autor,
        pergunta: `${autor}?`,
        sugestao,
        afeta: { regras: [], historias: [], tarefas: [] },
        origin: autor === 'qa-agent' ? 'qa_verdict' : 'tool',
        toolCallId: null,
        declaredAt: at.toISOString(),
      },
      at,
    );
    return questionId;
  };
  const answer = (questionId: string, at: Date, viaAgente: string | null, aceitouSugestao: boolean) =>
    add(
      OpenqEvent.QuestionAnswered,
      {
        questionId,
        resposta: 'ok',
        aceitouSugestao,
        decisionEventId: newId(),
        respondidaPor: 'ana',
        viaAgente,
        answeredAt: at.toISOString(),
      },
      at,
    );
  const gate = (type: string, taskId: string, at: Date, data: object) =>
    add(type, { taskId, gate: 'qa', questionIds: [], ...data }, at);

  const po1 = question('po', day(2));
  const po2 = question('po', day(3));
  const arq = question('arquiteto', day(9));
  const qa = question('qa-agent', day(10));
  const dev = question('dev_lead', day(16), null);
  const cri = question('criativo', day(17));
  answer(po1, day(2, 15), null, true); // same week, 6 h
  answer(po2, day(11, 9), 'po', false); // next week: counted there
  answer(arq, day(10, 9), null, false);
  answer(qa, day(12, 9), null, true);
  answer(dev, day(23, 9), 'dev_lead', false);
  add(
    OpenqEvent.QuestionWithdrawn,
    { questionId: cri, by: { kind: 'user', id: 'ana' }, motivo: 'no', withdrawnAt: day(18).toISOString() },
    day(18),
  );
  add(
    OpenqEvent.DecisionSuperseded,
    {
      questionId: po2,
      supersededDecisionEventId: newId(),
      supersededViaAgente: 'po',
      decisionEventId: newId(),
      resposta: 'no',
      by: 'ana',
      supersededAt: day(13).toISOString(),
    },
    day(13),
  );
  add(
    'question.joined',
    { questionId: arq, asker: { autor: 'criativo', sessionId: 's2', toolCallId: 't1' }, similarity: 0.93 },
    day(9, 12),
  );
  add(
    'question.precedent_offered',
    { questionId: po1, asker: { autor: 'dev_lead', sessionId: 's3', toolCallId: 't2' } },
    day(20),
  );
  // T-1 waits on two roles' questions; parked twice (the second on its own resume); T-2 idle (left out).
  gate(OpenqEvent.GateRescueParked, 'T-1', day(10, 10), {
    reason: 'user_decision',
    questionIds: [arq, qa],
    motivo: 'm',
  });
  gate(OpenqEvent.GateResumed, 'T-1', day(12, 10), { trigger: 'answer', decisionEventIds: [] });
  gate(OpenqEvent.GateRescueParked, 'T-1', day(16, 10), {
    reason: 'user_decision',
    questionIds: [dev],
    motivo: 'm',
  });
  gate(OpenqEvent.GateResumed, 'T-1', day(23, 10), { trigger: 'answer', decisionEventIds: [] });
  gate(OpenqEvent.GateRescueParked, 'T-2', day(4), { reason: 'idle', motivo: 'm', idadeSegundos: 9000 });
  gate(OpenqEvent.GateResumed, 'T-2', day(5), { trigger: 'human', decisionEventIds: [] });
  // Another project's question is not this one's.
  add(OpenqEvent.QuestionDeclared, { ...(events[0]!.data as object), questionId: newId() }, day(2), 'other');
  return events;
}

/** A fixed shuffle (no randomness in a test): reversed, then every third moved to the front. */
function shuffled<T>(items: T[]): T[] {
  const reversed = [...items].reverse();
  return [...reversed.filter((_, i) => i % 3 === 0), ...reversed.filter((_, i) => i % 3 !== 0)];
}

describe('question quality over weeks, in any order (real PostgreSQL)', () => {
  it('gives every figure the events say, by role and by week, applied out of order and twice', async () => {
    const events = history();
    await store.ds.transaction(async (m) => {
      for (const e of [...shuffled(events), ...events])
        await applyContextFact(m, e.type as ContextFactType, e);
    });
    const window = { from: '2026-11-01', to: '2026-11-30' };
    const range = { from: new Date('2026-11-01T00:00:00Z'), until: new Date('2026-12-01T00:00:00Z') };
    for (const by of ['role', 'week'] as const) {
      const rows = await analyticsRows(store.ds.manager, P, range, by);
      expect({ by, rows }).toEqual({ by, rows: recomputeAnalytics(events, P, window, by) });
    }
    const byRole = await analyticsRows(store.ds.manager, P, range, 'role');
    expect(byRole.find((r) => r.key === 'criativo')).toMatchObject({ asked: 1, joined: 1, withdrawn: 1 });
    expect(byRole.find((r) => r.key === 'dev_lead')).toMatchObject({ precedents: 1, answeredByAgent: 1 });
    // T-1's first park (2 days) counts for both roles it waited on; the idle park for none.
    expect(byRole.find((r) => r.key === 'arquiteto')!.parkedMinutesP50).toBe(2880);
    expect(byRole.find((r) => r.key === 'qa-agent')!.parkedMinutesP50).toBe(2880);
    const weeks = await analyticsRows(store.ds.manager, P, range, 'week');
    expect(weeks.map((w) => w.key)).toEqual([
      '2026-10-26',
      '2026-11-02',
      '2026-11-09',
      '2026-11-16',
      '2026-11-23',
      '2026-11-30',
    ]);
    expect(weeks.find((w) => w.key === '2026-11-09')).toMatchObject({
      answeredByClick: 2,
      answeredByAgent: 1,
      amended: 1,
    });

    // A window that ends before the answers counts the questions only.
    const early = await analyticsRows(
      store.ds.manager,
      P,
      { from: range.from, until: new Date('2026-11-04T00:00:00Z') },
      'role',
    );
    expect(early).toEqual(recomputeAnalytics(events, P, { from: '2026-11-01', to: '2026-11-03' }, 'role'));
    expect(early.map((r) => [r.key, r.asked, r.answeredByClick])).toEqual([['po', 2, 1]]);
  });
});
