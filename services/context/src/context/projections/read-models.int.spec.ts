import { newId, type AgentStoryUpsertedDto, type DecisionRecorded } from '@openq/contracts';
import { useServiceDatabase } from '@openq/testing';
import { CONTEXT_MIGRATIONS } from '../migrations';
import { findCitedQuestion, openQuestionsForTurn } from '../queries/open-questions.query';
import { recentDecisionsForTurn } from '../queries/recent-decisions.query';
import { loadTaskFacts } from '../queries/task-facts.query';
import { projectDecisionRecorded } from './decision.projector';
import type { FactVersion } from '../store/fact-version';
import { findStory, writeStoryContent } from '../store/story.store';
import {
  projectQuestionAnswered,
  projectQuestionDeclared,
  projectQuestionWithdrawn,
} from './question.projector';
import { projectStoryUpserted } from './story.projector';
import { projectTaskStatus } from './task.projector';

const store = useServiceDatabase('context', CONTEXT_MIGRATIONS);
const P = 'p1';

/** A version at minute `m` (event ids are fresh UUID v7s, so they only break ties). */
const at = (m: number): FactVersion => ({
  at: `2026-11-05T10:${String(m).padStart(2, '0')}:00Z`,
  eventId: newId(),
});

function story(storyId: string, fields: Partial<AgentStoryUpsertedDto> = {}): AgentStoryUpsertedDto {
  return {
    storyId,
    status: 'draft',
    archived: false,
    title: 't',
    rf: [],
    rnf: [],
    dod: [],
    dor: [],
    regras: [],
    taskIds: [],
    ...fields,
  };
}

function decision(questionId: string, tarefas: string[], minute: number): DecisionRecorded {
  return {
    decisionEventId: newId(),
    actor: { kind: 'user', id: 'ana' },
    context: `q ${questionId}?`,
    choice: 'yes',
    consequences: { regras: [], historias: [], tarefas },
    questionId,
    viaAgente: null,
    decidedAt: at(minute).at,
  };
}

describe('context read models are order-safe and idempotent (real PostgreSQL)', () => {
  it('keeps the newest story upsert whatever order they land in', async () => {
    await projectStoryUpserted(store.ds.manager, P, story('S1', { title: 'newer', status: 'ready' }), at(5));
    await projectStoryUpserted(
      store.ds.manager,
      P,
      story('S1', { title: 'older', status: 'draft', archived: true }),
      at(1),
    );
    expect(await findStory(store.ds.manager, P, 'S1')).toMatchObject({
      title: 'newer',
      status: 'ready',
      archived: false,
    });
  });

  it('lets a correction stand against older upserts, but not against newer ones', async () => {
    await projectStoryUpserted(store.ds.manager, P, story('S2', { title: 'v1', taskIds: ['T2'] }), at(1));
    await writeStoryContent(
      store.ds.manager,
      P,
      'S2',
      { title: 'corrected', rf: ['x'], rnf: [], dod: [], dor: [] },
      at(10),
    );
    await projectStoryUpserted(
      store.ds.manager,
      P,
      story('S2', { title: 'v2', status: 'ready', taskIds: ['T2'] }),
      at(5),
    );
    expect(await findStory(store.ds.manager, P, 'S2')).toMatchObject({
      title: 'corrected',
      rf: ['x'],
      status: 'ready',
    });
    await projectStoryUpserted(store.ds.manager, P, story('S2', { title: 'v3', taskIds: ['T2'] }), at(11));
    expect(await findStory(store.ds.manager, P, 'S2')).toMatchObject({
      title: 'v3',
      rf: [],
      status: 'draft',
    });
  });

  it('versions a task’s status and its story separately', async () => {
    await projectTaskStatus(store.ds.manager, P, { taskId: 'T3', status: 'in_review', storyId: 'S3' }, at(5));
    await projectTaskStatus(store.ds.manager, P, { taskId: 'T3', status: 'in_progress' }, at(3));
    await projectTaskStatus(store.ds.manager, P, { taskId: 'T3', stage: 'analysis' }, at(9));
    const [row] = await store.ds.query(
      `SELECT status, story_id FROM context_task WHERE project_id = $1 AND task_id = 'T3'`,
      [P],
    );
    expect(row).toEqual({ status: 'in_review', story_id: 'S3' });
  });

  it('knows a task from its status, a story listing it, or a decision naming it — nothing else', async () => {
    await projectTaskStatus(store.ds.manager, P, { taskId: 'T4', stage: 'analysis' }, at(1));
    expect(await loadTaskFacts(store.ds.manager, P, 'T4')).toEqual({
      task: { taskId: 'T4', storyId: null },
      story: null,
      candidates: [],
    });
    expect((await loadTaskFacts(store.ds.manager, P, 'T2'))?.task).toEqual({ taskId: 'T2', storyId: 'S2' });
    await projectDecisionRecorded(store.ds.manager, P, decision(newId(), ['T5'], 1));
    expect((await loadTaskFacts(store.ds.manager, P, 'T5'))?.candidates).toHaveLength(1);
    expect(await loadTaskFacts(store.ds.manager, P, 'T-unknown')).toBeNull();
    expect(await loadTaskFacts(store.ds.manager, 'other-project', 'T5')).toBeNull();
  });

  it('indexes a decision once, and finds it by task, story and rule', async () => {
    await projectStoryUpserted(
      store.ds.manager,
      P,
      story('S6', { regras: ['RN-6'], taskIds: ['T6'] }),
      at(1),
    );
    const byTask = decision(newId(), ['T6'], 1);
    const byStory = {
      ...decision(newId(), [], 2),
      consequences: { regras: [], historias: ['S6'], tarefas: [] },
    };
    const byRule = {
      ...decision(newId(), [], 3),
      consequences: { regras: ['RN-6'], historias: [], tarefas: [] },
    };
    const unrelated = {
      ...decision(newId(), ['T7'], 4),
      consequences: { regras: ['RN-7'], historias: ['S7'], tarefas: ['T7'] },
    };
    for (const d of [byTask, byStory, byRule, unrelated, byTask])
      await projectDecisionRecorded(store.ds.manager, P, d);
    const facts = await loadTaskFacts(store.ds.manager, P, 'T6');
    expect(facts?.candidates.map((c) => c.decisionEventId).sort()).toEqual(
      [byTask, byStory, byRule].map((d) => d.decisionEventId).sort(),
    );
  });

  it('keeps the recording agent’s session with the decision (SPEC §11.2); none for a click', async () => {
    const byAgent = {
      ...decision(newId(), ['T8'], 1),
      viaAgente: 'arquiteto' as const,
      agentSessionId: 'sess-arq-9',
    };
    const byClick = decision(newId(), ['T8'], 2);
    for (const d of [byAgent, byClick, byAgent]) await projectDecisionRecorded(store.ds.manager, P, d);
    const rows = await store.ds.query(
      `SELECT decision_event_id, via_agente, agent_session_id FROM context_decision WHERE decision_event_id = ANY($1)`,
      [[byAgent.decisionEventId, byClick.decisionEventId]],
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        {
          decision_event_id: byAgent.decisionEventId,
          via_agente: 'arquiteto',
          agent_session_id: 'sess-arq-9',
        },
        { decision_event_id: byClick.decisionEventId, via_agente: null, agent_session_id: null },
      ]),
    );
    expect(rows).toHaveLength(2);
  });

  it('gives a turn the project’s newest decisions: one per question, by instant, 10 of the total', async () => {
    const T = 'p-turn';
    expect(await recentDecisionsForTurn(store.ds.manager, T)).toEqual({ newest: [], total: 0 });
    const byMinute = Array.from({ length: 12 }, (_, i) => decision(newId(), [], i + 1));
    // a newer decision on the question of minute 1 supersedes it (one per question)
    const superseding = { ...decision(byMinute[0]!.questionId, [], 20), choice: 'changed my mind' };
    // 07:30-03:00 is 10:30Z: the newest instant, though the oldest text
    const offset = {
      ...decision(newId(), [], 0),
      decidedAt: '2026-11-05T07:30:00-03:00',
      viaAgente: 'po' as const,
    };
    for (const d of [...byMinute, superseding, offset]) await projectDecisionRecorded(store.ds.manager, T, d);
    await projectDecisionRecorded(store.ds.manager, 'p-other', decision(newId(), [], 59));

    const page = await recentDecisionsForTurn(store.ds.manager, T);
    expect(page.total).toBe(13);
    expect(page.newest.map((d) => d.decisionEventId)).toEqual(
      [offset, superseding, ...byMinute.slice(4).reverse()].map((d) => d.decisionEventId),
    );
    expect(page.newest[0]).toEqual({
      decisionEventId: offset.decisionEventId,
      questionId: offset.questionId,
      pergunta: offset.context,
      resposta: 'yes',
      viaAgente: 'po',
      decidedAt: '2026-11-05T07:30:00-03:00',
    });
    expect(page.newest[1]).toMatchObject({
      questionId: byMinute[0]!.questionId,
      resposta: 'changed my mind',
    });
  });

  it('keeps a question answered whichever of declared/answered lands first', async () => {
    const early = newId();
    await projectQuestionAnswered(store.ds.manager, P, answered(early));
    await projectQuestionDeclared(store.ds.manager, P, declared(early, 1));
    const open = newId();
    await projectQuestionDeclared(store.ds.manager, P, declared(open, 2));
    await projectQuestionDeclared(store.ds.manager, P, declared(open, 2));
    const turn = await openQuestionsForTurn(store.ds.manager, P);
    expect(turn).toEqual({
      newest: [expect.objectContaining({ questionId: open, sugestao: 'yes?' })],
      total: 1,
    });
    expect(await findCitedQuestion(store.ds.manager, P, early)).toEqual({
      questionId: early,
      answered: true,
    });
    expect(await findCitedQuestion(store.ds.manager, P, open)).toEqual({ questionId: open, answered: false });
    expect(await findCitedQuestion(store.ds.manager, 'other-project', open)).toBeNull();
  });

  it('§11.5 a withdrawn question leaves the turn’s open list, whichever of declared/withdrawn lands first, and is no decision', async () => {
    const project = 'withdrawals';
    const [kept, withdrawnFirst, withdrawnLater] = [newId(), newId(), newId()];
    await projectQuestionWithdrawn(store.ds.manager, project, withdrawn(withdrawnFirst));
    for (const [id, minute] of [
      [kept, 1],
      [withdrawnFirst, 2],
      [withdrawnLater, 3],
    ] as const)
      await projectQuestionDeclared(store.ds.manager, project, declared(id, minute));
    expect((await openQuestionsForTurn(store.ds.manager, project)).total).toBe(2);
    await projectQuestionWithdrawn(store.ds.manager, project, withdrawn(withdrawnLater));
    await projectQuestionWithdrawn(store.ds.manager, project, withdrawn(withdrawnLater));

    expect(await openQuestionsForTurn(store.ds.manager, project)).toEqual({
      newest: [expect.objectContaining({ questionId: kept })],
      total: 1,
    });
    const [{ n }] = await store.ds.query(
      `SELECT count(*)::int AS n FROM context_decision WHERE project_id = $1`,
      [project],
    );
    expect(n).toBe(0);
    expect(await findCitedQuestion(store.ds.manager, project, withdrawnLater)).toEqual({
      questionId: withdrawnLater,
      answered: false,
    });
  });
});

function withdrawn(questionId: string) {
  return {
    questionId,
    by: { kind: 'user' as const, id: 'ana' },
    motivo: 'no longer needed',
    withdrawnAt: at(4).at,
  };
}

function declared(questionId: string, minute: number) {
  return {
    questionId,
    sessionId: 's',
    sessionAuthorId: 'ana',
    autor: 'po' as const,
    pergunta: 'which?',
    sugestao: 'yes?',
    afeta: { regras: [], historias: [], tarefas: [] },
    origin: 'tool' as const,
    toolCallId: null,
    declaredAt: at(minute).at,
  };
}

function answered(questionId: string) {
  return {
    questionId,
    resposta: 'yes',
    aceitouSugestao: false,
    decisionEventId: newId(),
    respondidaPor: 'ana',
    viaAgente: null,
    answeredAt: at(3).at,
  };
}
