import {
  AgentEvent,
  ANSWER_RULE,
  CENTRAL_INSTRUCTION,
  DECISIONS_HEADING,
  OpenqEvent,
  QA_CUT_RULE,
  type DecisionRecorded,
  type QuestionAnswered,
} from '@openq/contracts';
import { waitFor } from '@openq/testing';
import {
  AUTHOR,
  answer,
  consumedByContext,
  declare,
  taskStatus,
  upsertStory,
} from '../support/context-helpers';
import { Stack } from '../support/stack';

const P = 'proj-ctx';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions', 'context'] });
});
afterAll(() => stack.stop());

const viewer = () => stack.token('vera', P, 'viewer');

function taskContext(taskId: string, view: 'dev-context' | 'qa-cut', door: 'user' | 'internal' = 'user') {
  return door === 'user'
    ? stack.http('GET', `/projects/${P}/tasks/${taskId}/${view}`, { token: viewer() })
    : stack.http('GET', `/internal/projects/${P}/tasks/${taskId}/${view}`, { service: true });
}

/** Waits until the task's context counts `total` linked decisions (the decisions travel by events). */
async function devContextWith(taskId: string, total: number) {
  return waitFor(
    async () => {
      const res = await taskContext(taskId, 'dev-context');
      return res.status === 200 && res.body.decisoesTotal === total ? res.body : false;
    },
    { what: `dev-context of ${taskId} with ${total} decisions` },
  );
}

describe('context: user decisions reach the dev kickoff and the QA cut (SPEC §6.1, §6.2)', () => {
  it('a decision on the task opens both contexts under the heading, on the user and internal doors', async () => {
    const questionId = await declare(
      stack,
      P,
      'Accept lowercase codes on GET /:codigo?',
      { tarefas: ['T-1'] },
      'Yes',
    );
    const unknown = await taskContext('T-1', 'dev-context');
    expect(unknown).toMatchObject({ status: 404, body: { reason: 'tarefa_nao_encontrada' } });

    const decisionEventId = await answer(stack, P, questionId, 'Yes, normalise to upper case');
    const dev = await devContextWith('T-1', 1);
    expect(dev).toMatchObject({ taskId: 'T-1', storyId: null, story: null, decisoesTotal: 1 });
    expect(dev.decisoes).toEqual([
      {
        decisionEventId,
        questionId,
        pergunta: 'Accept lowercase codes on GET /:codigo?',
        resposta: 'Yes, normalise to upper case',
        respondidaPor: AUTHOR,
        viaAgente: null,
        decidedAt: expect.any(String),
      },
    ]);
    expect(dev.text.split('\n').slice(0, 2)).toEqual([
      'User decisions — they win over FR/DoR when they conflict',
      '- Accept lowercase codes on GET /:codigo? → Yes, normalise to upper case',
    ]);

    const qa = await taskContext('T-1', 'qa-cut');
    expect(qa.status).toBe(200);
    expect(qa.body).toMatchObject({
      taskId: 'T-1',
      decisoes: dev.decisoes,
      decisoesTotal: 1,
      cutRule: QA_CUT_RULE,
    });
    expect(qa.body.text.startsWith(`${DECISIONS_HEADING}\n- Accept lowercase codes`)).toBe(true);
    expect(qa.body.text.endsWith(`QA cut rule: ${QA_CUT_RULE}`)).toBe(true);

    expect((await taskContext('T-1', 'dev-context', 'internal')).body).toEqual(dev);
    expect((await taskContext('T-1', 'qa-cut', 'internal')).body).toEqual(qa.body);
  });

  it('links through the task’s story and the story’s rules, newest first, and leaves the rest out', async () => {
    await upsertStory(stack, P, 'S-2', { title: 'Lookup by code', regras: ['RN-7'], taskIds: ['T-2'] });
    await taskStatus(stack, P, { taskId: 'T-3', storyId: 'S-2', status: 'todo' }); // linked by its own event
    const byStory = await declare(stack, P, 'Is the lookup case-sensitive?', { historias: ['S-2'] });
    const byRule = await declare(stack, P, 'Does RN-7 apply to archived codes?', { regras: ['RN-7'] });
    const elsewhere = await declare(stack, P, 'Unrelated?', { regras: ['RN-99'], tarefas: ['T-9'] });
    await answer(stack, P, byStory, 'No, case-insensitive');
    await answer(stack, P, byRule, 'Yes');
    await answer(stack, P, elsewhere, 'Whatever');

    for (const taskId of ['T-2', 'T-3']) {
      const dev = await devContextWith(taskId, 2);
      expect(dev).toMatchObject({
        storyId: 'S-2',
        story: { title: 'Lookup by code', rf: ['FR-1 lookup by code'], rnf: [], dod: ['tests pass'] },
      });
      expect(dev.decisoes.map((d: { questionId: string }) => d.questionId)).toEqual([byRule, byStory]);
      expect(dev.text).toContain('Task ' + taskId + ' — story S-2: Lookup by code');
    }
    const other = await devContextWith('T-9', 1);
    expect(other.decisoes[0].questionId).toBe(elsewhere);
  });

  it('shows the 10 newest of 12 decisions and declares the cut', async () => {
    for (let i = 1; i <= 12; i++) {
      const questionId = await declare(stack, P, `Q${i}?`, { tarefas: ['T-4'] });
      await answer(stack, P, questionId, `A${i}`);
    }
    const dev = await devContextWith('T-4', 12);
    expect(dev.decisoes).toHaveLength(10);
    expect(dev.decisoes.map((d: { pergunta: string }) => d.pergunta)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Q${12 - i}?`),
    );
    const lines = dev.text.split('\n');
    expect(lines[0]).toBe(DECISIONS_HEADING);
    expect(lines.slice(1, 12)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `- Q${12 - i}? → A${12 - i}`),
      'showing 10 of 12',
    ]);
    const qa = await taskContext('T-4', 'qa-cut');
    expect(qa.body).toMatchObject({ decisoesTotal: 12 });
    expect(qa.body.decisoes).toHaveLength(10);
    expect(qa.body.text).toContain('showing 10 of 12');
  });
});

describe("context: the askers' turn (SPEC §6.3)", () => {
  const Q = 'proj-turn';
  const turn = (role: string) =>
    stack.http('GET', `/internal/projects/${Q}/turn-context?role=${role}`, { service: true });

  it('carries the instruction and the open questions, and drops a question once it is answered', async () => {
    const empty = await turn('po');
    expect(empty).toMatchObject({
      status: 200,
      body: {
        role: 'po',
        instruction: CENTRAL_INSTRUCTION,
        answerRule: ANSWER_RULE,
        openQuestions: [],
        openQuestionsTotal: 0,
      },
    });
    expect(empty.body).toMatchObject({ decisoes: [], decisoesTotal: 0 });
    expect(empty.body.text).toBe(
      `${CENTRAL_INSTRUCTION}\n${ANSWER_RULE}\nOpen questions: none.\n\n` +
        `${DECISIONS_HEADING}\nNo user decisions in this project yet.`,
    );

    const first = await declare(stack, Q, 'Which currency on the invoice?', {}, 'BRL');
    const second = await declare(stack, Q, 'Round half up or half even?');
    const both = await waitFor(
      async () => {
        const res = await turn('po');
        return res.body.openQuestionsTotal === 2 ? res.body : false;
      },
      { what: 'two open questions in the turn' },
    );
    expect(both.openQuestions).toEqual([
      { questionId: second, pergunta: 'Round half up or half even?', sugestao: null },
      { questionId: first, pergunta: 'Which currency on the invoice?', sugestao: 'BRL' },
    ]);
    expect(both.text).toContain(`- ${first}: Which currency on the invoice? (suggestion: BRL)`);

    // ADR 0258: the PO records the user's chat answer (no resposta → the suggestion)
    const closed = await stack.http('POST', `/internal/projects/${Q}/open-questions/${first}/answer`, {
      service: true,
      body: { viaAgente: 'po' },
    });
    expect(closed).toMatchObject({ status: 200, body: { status: 'answered' } });
    const one = await waitFor(
      async () => {
        const res = await turn('criativo');
        return res.body.openQuestionsTotal === 1 ? res.body : false;
      },
      { what: 'the answered question dropped from the turn' },
    );
    expect(one).toMatchObject({ role: 'criativo', openQuestions: [{ questionId: second }] });
    expect(one.text).not.toContain(first);
  });

  it('an agent answers with its session: kept on both events and in the index, and the next turn shows the decision', async () => {
    const R = 'proj-turn-audit';
    const turnOf = (role: string) =>
      stack.http('GET', `/internal/projects/${R}/turn-context?role=${role}`, { service: true });
    const byRoute = await declare(
      stack,
      R,
      'Keep the legacy /v1 routes?',
      { historias: ['S-1'] },
      'Until 2.4',
    );
    const byEvent = await declare(stack, R, 'Which currency on invoices?');
    const byClick = await declare(stack, R, 'Round half up?');

    // ADR 0258 through the internal route: the arquiteto records the user's chat answer
    const routed = await stack.http('POST', `/internal/projects/${R}/open-questions/${byRoute}/answer`, {
      service: true,
      body: { viaAgente: 'arquiteto', agentSessionId: 'sess-arq-42' },
    });
    expect(routed).toMatchObject({ status: 200, body: { status: 'answered' } });
    // and through the agent event (answer_open_question published by the engine)
    await stack.publishAgentEvent(AgentEvent.QuestionAnswer, R, {
      toolCallId: 'tc-audit-1',
      questionId: byEvent,
      resposta: 'BRL',
      viaAgente: 'po',
      agentSessionId: 'sess-po-7',
    });

    // on the stream: both events of each answer carry the session; the click's carry none
    const eventsOf = (questionId: string) => {
      const answered = stack.events
        .ofType<QuestionAnswered>(OpenqEvent.QuestionAnswered)
        .find((e) => e.projectId === R && e.data.questionId === questionId);
      const recorded = stack.events
        .ofType<DecisionRecorded>(OpenqEvent.DecisionRecorded)
        .find((e) => e.projectId === R && e.data.questionId === questionId);
      return answered && recorded ? [answered.data, recorded.data] : null;
    };
    // the event is handled asynchronously: let it land before the click, so the order is known
    await waitFor(() => eventsOf(byEvent) !== null, { what: 'the agent event’s answer on OPENQ_EVENTS' });
    const clicked = await answer(stack, R, byClick, 'Half even');

    const stream = await waitFor(
      () => {
        const all = [byRoute, byEvent, byClick].map(eventsOf);
        return all.every((pair) => pair !== null) ? all : false;
      },
      { what: 'question.answered and decision.recorded of the three answers on OPENQ_EVENTS' },
    );
    expect(stream[0]).toEqual([
      expect.objectContaining({
        viaAgente: 'arquiteto',
        agentSessionId: 'sess-arq-42',
        respondidaPor: AUTHOR,
      }),
      expect.objectContaining({
        viaAgente: 'arquiteto',
        agentSessionId: 'sess-arq-42',
        actor: { kind: 'user', id: AUTHOR },
      }),
    ]);
    expect(stream[1]).toEqual([
      expect.objectContaining({ viaAgente: 'po', agentSessionId: 'sess-po-7', resposta: 'BRL' }),
      expect.objectContaining({ viaAgente: 'po', agentSessionId: 'sess-po-7', choice: 'BRL' }),
    ]);
    for (const data of stream[2]!) expect(data).not.toHaveProperty('agentSessionId');

    // in the context read model (the decision index)
    const recordedIds = stream.map((pair) => (pair![1] as DecisionRecorded).decisionEventId);
    expect(recordedIds[2]).toBe(clicked);
    for (const id of recordedIds) {
      await consumedByContext(stack, { type: OpenqEvent.DecisionRecorded, eventId: id });
    }
    const indexed = await stack
      .service('context')
      .dataSource.query(
        `SELECT question_id, via_agente, agent_session_id FROM context_decision WHERE project_id = $1 ORDER BY decided_at`,
        [R],
      );
    expect(indexed).toEqual([
      { question_id: byRoute, via_agente: 'arquiteto', agent_session_id: 'sess-arq-42' },
      { question_id: byEvent, via_agente: 'po', agent_session_id: 'sess-po-7' },
      { question_id: byClick, via_agente: null, agent_session_id: null },
    ]);

    // the next turn of any asker carries the decisions, newest first, without consuming decision.recorded
    const turn = await waitFor(
      async () => {
        const res = await turnOf('criativo');
        return res.status === 200 && res.body.decisoesTotal === 3 && res.body.openQuestionsTotal === 0
          ? res.body
          : false;
      },
      { what: 'three decisions in the turn' },
    );
    expect(turn.decisoes).toEqual([
      {
        decisionEventId: clicked,
        questionId: byClick,
        pergunta: 'Round half up?',
        resposta: 'Half even',
        viaAgente: null,
        decidedAt: expect.any(String),
      },
      expect.objectContaining({ questionId: byEvent, resposta: 'BRL', viaAgente: 'po' }),
      expect.objectContaining({ questionId: byRoute, resposta: 'Until 2.4', viaAgente: 'arquiteto' }),
    ]);
    expect(turn.text.split('\n\n')[1]!.split('\n')).toEqual([
      DECISIONS_HEADING,
      '- Round half up? → Half even',
      '- Which currency on invoices? → BRL',
      '- Keep the legacy /v1 routes? → Until 2.4',
    ]);
  });

  it('refuses a role that is not an asker', async () => {
    expect(await turn('qa-agent')).toMatchObject({ status: 400 });
  });
});
