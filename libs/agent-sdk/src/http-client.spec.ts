import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { agentEventId, AgentEventInvalid, HttpAgentEventPublisher } from './client';
import { OpenqApiError, OpenqHttpClient, type OpenqHttpClientOptions } from './http-client';

interface Seen {
  method: string;
  url: string;
  serviceToken: string | undefined;
  body: unknown;
}

type Answer = { status: number; body?: unknown };

/** A tiny gateway on a local port: answers from a script (the last answer repeats) and records calls. */
async function fakeGateway(answers: Answer[]) {
  const seen: Seen[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        serviceToken: request.headers['x-service-token'] as string | undefined,
        body: raw === '' ? undefined : (JSON.parse(raw) as unknown),
      });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const TOKEN = 't'.repeat(40);
const QUESTION_ID = '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b';
const declaration = {
  sessionId: 's1',
  sessionAuthorId: 'ana',
  autor: 'po' as const,
  pergunta: 'Archived stories too?',
  afeta: { regras: [], historias: [], tarefas: [] },
  toolCallId: 'toolu_01',
};

/** The client with its backoff recorded instead of waited for. */
function clientFor(baseUrl: string, extra: Partial<OpenqHttpClientOptions> = {}) {
  const waits: number[] = [];
  const client = new OpenqHttpClient({
    baseUrl,
    serviceToken: TOKEN,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 1,
    ...extra,
  });
  return { client, waits };
}

describe('OpenqHttpClient', () => {
  it('retries a 503 with exponential backoff, then returns the answer', async () => {
    const gateway = await fakeGateway([
      { status: 503, body: { statusCode: 503, reason: 'servico_indisponivel', message: 'try again' } },
      { status: 503 },
      { status: 201, body: { questionId: QUESTION_ID } },
    ]);
    const { client, waits } = clientFor(gateway.baseUrl, { backoffMs: 100 });
    expect(await client.declare('p1', declaration)).toEqual({ questionId: QUESTION_ID, created: true });
    expect(waits).toEqual([100, 200]);
    expect(gateway.seen).toHaveLength(3);
    for (const call of gateway.seen) {
      expect(call).toEqual({
        method: 'POST',
        url: '/internal/projects/p1/open-questions',
        serviceToken: TOKEN,
        body: declaration,
      });
    }
  });

  it('reads a 200 on declare as "already declared by this toolCallId"', async () => {
    const gateway = await fakeGateway([{ status: 200, body: { questionId: QUESTION_ID } }]);
    expect(await clientFor(gateway.baseUrl).client.declare('p1', declaration)).toEqual({
      questionId: QUESTION_ID,
      created: false,
    });
  });

  it('never retries a 4xx, and surfaces its reason', async () => {
    const refusal = { statusCode: 400, reason: 'corpo_invalido', message: 'pergunta: must not be blank' };
    const gateway = await fakeGateway([{ status: 400, body: refusal }]);
    const { client, waits } = clientFor(gateway.baseUrl);
    const error = await client.declare('p1', declaration).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenqApiError);
    expect(error).toMatchObject({
      status: 400,
      reason: 'corpo_invalido',
      message: refusal.message,
      body: refusal,
    });
    expect(gateway.seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('gives up after the configured retries with the last failure', async () => {
    const gateway = await fakeGateway([
      { status: 504, body: { statusCode: 504, reason: 'servico_sem_resposta', message: 'no answer' } },
    ]);
    const { client, waits } = clientFor(gateway.baseUrl, { retries: 2, backoffMs: 100, maxBackoffMs: 150 });
    await expect(client.devContext('p1', 't1')).rejects.toMatchObject({
      status: 504,
      reason: 'servico_sem_resposta',
    });
    expect(gateway.seen).toHaveLength(3);
    expect(waits).toEqual([100, 150]);
  });

  it('retries network errors (nobody listening) and reports them with status 0', async () => {
    const gateway = await fakeGateway([{ status: 200 }]);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const { client, waits } = clientFor(gateway.baseUrl, { retries: 1 });
    await expect(client.turnContext('p1', 'po')).rejects.toMatchObject({
      status: 0,
      reason: 'network_error',
    });
    expect(waits).toHaveLength(1);
  });

  it('calls each internal route with its path and body', async () => {
    const gateway = await fakeGateway([{ status: 200, body: { ok: 1 } }]);
    const { client } = clientFor(gateway.baseUrl);
    await client.answer('p1', QUESTION_ID, { viaAgente: 'po', resposta: 'Yes' });
    await client.devContext('p1', 't1');
    await client.qaCut('p1', 't1');
    await client.turnContext('p1', 'arquiteto');
    await client.correctStory('p1', 'st1', { questionId: QUESTION_ID, changes: { title: 'New title' } });
    await client.archiveStory('p1', 'st1');
    expect(gateway.seen.map(({ method, url, body }) => [method, url, body])).toEqual([
      [
        'POST',
        `/internal/projects/p1/open-questions/${QUESTION_ID}/answer`,
        { viaAgente: 'po', resposta: 'Yes' },
      ],
      ['GET', '/internal/projects/p1/tasks/t1/dev-context', undefined],
      ['GET', '/internal/projects/p1/tasks/t1/qa-cut', undefined],
      ['GET', '/internal/projects/p1/turn-context?role=arquiteto', undefined],
      [
        'POST',
        '/internal/projects/p1/stories/st1/corrections',
        { questionId: QUESTION_ID, changes: { title: 'New title' } },
      ],
      ['POST', '/internal/projects/p1/stories/st1/archive', undefined],
    ]);
  });

  it('posts agent events as envelopes, the same eventId on every retry (SPEC §11.4)', async () => {
    const gateway = await fakeGateway([
      { status: 503, body: {} },
      { status: 202, body: { eventId: 'x' } },
    ]);
    const { client, waits } = clientFor(gateway.baseUrl);
    const events = new HttpAgentEventPublisher(client);
    await events.declareOpenQuestion('p1', declaration);
    expect(waits).toHaveLength(1);
    expect(gateway.seen.map((s) => [s.method, s.url, s.serviceToken])).toEqual([
      ['POST', '/internal/projects/p1/events', TOKEN],
      ['POST', '/internal/projects/p1/events', TOKEN],
    ]);
    const [first, second] = gateway.seen.map((s) => s.body as Record<string, unknown>);
    expect(first).toEqual(second);
    expect(first).toMatchObject({
      eventId: agentEventId('p1', 'agent.question.declare', 'toolu_01'),
      type: 'agent.question.declare',
      projectId: 'p1',
      data: declaration,
    });
  });

  it('refuses an invalid agent event before any request', async () => {
    const gateway = await fakeGateway([{ status: 202, body: {} }]);
    const events = new HttpAgentEventPublisher(clientFor(gateway.baseUrl).client);
    await expect(events.declareOpenQuestion('p1', { ...declaration, pergunta: ' ' })).rejects.toThrow(
      AgentEventInvalid,
    );
    expect(gateway.seen).toHaveLength(0);
  });
});
