import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connect, type NatsConnection } from 'nats';
import { startNatsServer, type TestNatsServer } from '@openq/testing';
import { FakeService } from '../testing/fake-service';
import { claimsFor, signJwt } from '../testing/sign-jwt';
import { startTestGateway } from '../testing/test-gateway';
import { itemIdempotencyKey } from './accept-suggestions';

/**
 * Issue #18 the bulk accept's edge, against a real NATS and a stand-in questions service: one
 * `questions.answer` per question with `aceitarSugestao` and its own derived key, each reply (or
 * refusal, also a service failure) that question's result, in the order asked; the OpenAPI
 * document describes the route and its body.
 */
const SECRET = 'b'.repeat(40);
const ids = ['0190a3b8-7c1d-7e2f-8a3b-000000000001', '0190a3b8-7c1d-7e2f-8a3b-000000000002'] as const;
let nats: TestNatsServer;
let nc: NatsConnection;
let app: NestFastifyApplication;
let base: string;
let questions: FakeService;

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url });
  questions = new FakeService(nc, 'questions');
  ({ app, base } = await startTestGateway({
    NATS_URL: nats.url,
    OPENQ_JWT_SECRET: SECRET,
    OPENQ_SERVICE_TOKEN: 'x'.repeat(40),
  }));
});

afterAll(async () => {
  questions?.stop();
  await app?.close();
  await nc?.close();
  await nats?.stop();
});

it('asks the single answer once per question, with its own key, and reports each outcome', async () => {
  await questions.answer('answer', (payload) => {
    const { questionId } = payload as { questionId: string };
    return questionId === ids[0]
      ? {
          ok: true,
          data: {
            questionId,
            status: 'answered',
            resposta: '50',
            aceitouSugestao: true,
            decisionEventId: 'dec-1',
            respondidaPor: 'ana',
          },
        }
      : { ok: false, error: { statusCode: 503, reason: 'servico_indisponivel', message: 'down' } };
  });
  const token = await signJwt(claimsFor('ana', { p1: 'viewer' }), { alg: 'HS256', secret: SECRET });
  const response = await fetch(`${base}/projects/p1/open-questions/accept-suggestions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': 'k-1',
    },
    body: JSON.stringify({ questionIds: ids }),
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({
    results: [
      { questionId: ids[0], status: 'answered', decisionEventId: 'dec-1' },
      { questionId: ids[1], status: 'refused', reason: 'servico_indisponivel', message: 'down' },
    ],
  });
  expect(questions.count('answer')).toBe(2);
  const keys = new Set<string>();
  for (const id of ids) {
    const key = itemIdempotencyKey('k-1', id);
    expect(key).toMatch(/^bulk-[0-9a-f]{64}$/);
    keys.add(key);
  }
  expect(keys.size).toBe(2);
  // Whichever arrived last, it carried its own question's key and the click's fields.
  const last = questions.last('answer')!.payload as { questionId: string };
  expect(last).toEqual({
    projectId: 'p1',
    questionId: last.questionId,
    userId: 'ana',
    aceitarSugestao: true,
    idempotencyKey: itemIdempotencyKey('k-1', last.questionId),
  });
});

it('is in the OpenAPI document with its body', async () => {
  const doc = (await fetch(`${base}/docs-json`).then((r) => r.json())) as {
    paths: Record<
      string,
      { post?: { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } } }
    >;
    components: { schemas: Record<string, unknown> };
  };
  const route = doc.paths['/projects/{projectId}/open-questions/accept-suggestions'];
  // Derived from AcceptSuggestionsBody, the class that validates it (issue #30).
  const ref = route?.post?.requestBody?.content['application/json']?.schema.$ref;
  expect(ref).toBe('#/components/schemas/AcceptSuggestionsBody');
  expect(doc.components.schemas.AcceptSuggestionsBody).toMatchObject({
    required: ['questionIds'],
    properties: { questionIds: { minItems: 1, maxItems: 50, uniqueItems: true } },
  });
});
