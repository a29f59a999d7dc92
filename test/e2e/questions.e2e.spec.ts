import { AgentEvent, OpenqEvent } from '@openq/contracts';
import { waitFor } from '@openq/testing';
import { Stack } from '../support/stack';

const P = 'proj1';
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ['questions'] });
});
afterAll(() => stack.stop());

function declaration(toolCallId: string, extra: Record<string, unknown> = {}) {
  return {
    sessionId: 's1',
    sessionAuthorId: 'ana',
    autor: 'criativo',
    pergunta: 'Should GET /:codigo accept lowercase codes?',
    sugestao: 'Yes, normalise to upper case',
    afeta: { regras: ['RN-1'], historias: ['H-1'], tarefas: ['T-1'] },
    toolCallId,
    ...extra,
  };
}

async function listOpen(user = 'ana') {
  return stack.http('GET', `/projects/${P}/open-questions`, { token: stack.token(user, P, 'viewer') });
}

describe('questions: declare by event → list → answer by click', () => {
  it('declares once from a redelivered event, lists it, and answers it once with both events', async () => {
    const env = await stack.publishAgentEvent(AgentEvent.QuestionDeclare, P, declaration('tc-1'));
    // the same tool call again, as a new event (engine retry): still one question
    await stack.publishAgentEvent(AgentEvent.QuestionDeclare, P, declaration('tc-1'));
    // the same event again (broker redelivery is dedupe-windowed; force it past with a new msg id)
    await stack.nc
      .jetstream()
      .publish(`${AgentEvent.QuestionDeclare}.${P}`, new TextEncoder().encode(JSON.stringify(env)));

    const listed = await waitFor(
      async () => {
        const r = await listOpen();
        return r.body.total === 1 ? r : false;
      },
      { what: 'question listed' },
    );
    await stack.events.waitForType(OpenqEvent.QuestionDeclared, 1);
    expect(listed.status).toBe(200);
    const item = listed.body.items[0];
    expect(item).toMatchObject({
      pergunta: 'Should GET /:codigo accept lowercase codes?',
      status: 'open',
      canAnswer: true,
      inertReason: null,
      autor: 'criativo',
      origin: 'tool',
      toolCallId: 'tc-1',
    });
    expect(listed.body).toMatchObject({ total: 1, limit: 50, nextCursor: null });

    const other = await listOpen('bruno');
    expect(other.body.items[0]).toMatchObject({
      canAnswer: false,
      inertReason: expect.stringContaining('ana'),
    });

    const forbidden = await stack.http('POST', `/projects/${P}/open-questions/${item.questionId}/answer`, {
      token: stack.token('bruno', P, 'owner'),
      body: { resposta: 'no' },
    });
    expect(forbidden).toMatchObject({ status: 403, body: { reason: 'so_o_autor_da_sessao' } });

    const answered = await stack.http('POST', `/projects/${P}/open-questions/${item.questionId}/answer`, {
      token: stack.token('ana', P, 'viewer'),
      body: { aceitarSugestao: true },
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({
      questionId: item.questionId,
      status: 'answered',
      resposta: 'Yes, normalise to upper case',
      aceitouSugestao: true,
      respondidaPor: 'ana',
    });

    const again = await stack.http('POST', `/projects/${P}/open-questions/${item.questionId}/answer`, {
      token: stack.token('ana', P, 'viewer'),
      body: { resposta: 'changed my mind' },
    });
    expect(again).toMatchObject({ status: 409, body: { reason: 'pergunta_ja_respondida' } });

    const [ans] = await stack.events.waitForType(OpenqEvent.QuestionAnswered, 1);
    const [dec] = await stack.events.waitForType(OpenqEvent.DecisionRecorded, 1);
    expect(ans!.data).toMatchObject({
      questionId: item.questionId,
      decisionEventId: answered.body.decisionEventId,
      viaAgente: null,
    });
    expect(dec!.data).toMatchObject({
      decisionEventId: answered.body.decisionEventId,
      actor: { kind: 'user', id: 'ana' },
      choice: 'Yes, normalise to upper case',
      questionId: item.questionId,
    });
    expect(stack.events.ofType(OpenqEvent.QuestionDeclared)).toHaveLength(1);
    expect((await listOpen()).body.total).toBe(0);
  });
});
