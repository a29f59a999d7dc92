import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startNatsServer, type TestNatsServer } from '@openq/testing';
import { loadGatewayConfig } from '../config';
import { startGateway } from '../gateway';

/**
 * [openq] issue #30 the OpenAPI document says every request body: its schema is derived from the
 * DTO class the route validates with, never an empty object; the one-tap link and the
 * development sign-in are in it.
 */
interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean;
}
interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** POST/PUT/PATCH routes that take no body at all (a verb on the path's resource). */
const BODILESS = [
  'POST /projects/{projectId}/delegations/{grantId}/revoke',
  'POST /projects/{projectId}/pipeline/tasks/{taskId}/pause',
  'POST /projects/{projectId}/pipeline/tasks/{taskId}/resume',
  'POST /projects/{projectId}/stories/{storyId}/archive',
  'POST /internal/projects/{projectId}/stories/{storyId}/archive',
  'POST /projects/{projectId}/notifications/deliveries/{deliveryId}/redeliver',
];

let nats: TestNatsServer;
let app: NestFastifyApplication;
let doc: Document;

beforeAll(async () => {
  nats = await startNatsServer();
  app = await startGateway(
    loadGatewayConfig({
      NATS_URL: nats.url,
      OPENQ_JWT_SECRET: 'j'.repeat(40),
      OPENQ_SERVICE_TOKEN: 's'.repeat(40),
      HOST: '127.0.0.1',
    }),
    { httpPort: 0, exitOnFailure: false, handleSignals: false, logLevel: 'silent' },
  );
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  const response = await fetch(`${base}/docs-json`);
  expect(response.status).toBe(200);
  doc = (await response.json()) as Document;
});

afterAll(async () => {
  await app?.close();
  await nats?.stop();
});

function resolve(schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  return doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
}

function writes(): { route: string; operation: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => ['post', 'put', 'patch'].includes(method))
      .map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation })),
  );
}

describe('the OpenAPI document (/docs-json)', () => {
  it('is OpenAPI 3.1 (its schemas are JSON Schema)', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  it('gives every POST/PUT/PATCH route that takes a body a schema with its fields', () => {
    const routes = writes();
    expect(routes.length).toBeGreaterThan(25);
    const bad: string[] = [];
    for (const { route, operation } of routes) {
      if (BODILESS.includes(route)) {
        if (operation.requestBody) bad.push(`${route}: listed as bodiless but has a body`);
        continue;
      }
      const contents = Object.values(operation.requestBody?.content ?? {});
      if (contents.length === 0) bad.push(`${route}: no request body`);
      for (const content of contents) {
        const schema = resolve(content.schema);
        if (!schema) bad.push(`${route}: no schema (${content.schema?.$ref ?? 'inline'})`);
        else if (schema.type === 'object' && Object.keys(schema.properties ?? {}).length === 0)
          bad.push(`${route}: empty schema ${content.schema?.$ref ?? ''}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('renders a body as it is validated: required fields, no unknown ones, nested DTOs by reference', () => {
    const answer = doc.components.schemas.AnswerQuestionBody!;
    expect(answer).toMatchObject({ type: 'object', additionalProperties: false });
    expect(Object.keys(answer.properties!)).toEqual(expect.arrayContaining(['resposta']));
    const accept = doc.components.schemas.AcceptSuggestionsBody!;
    expect(accept).toMatchObject({ required: ['questionIds'] });
    const channels = JSON.stringify(doc.components.schemas.NotificationChannelsBody);
    expect(channels).toContain('#/components/schemas/EmailChannelDto');
    expect(doc.components.schemas.EmailChannelDto?.properties).toBeDefined();
  });

  it('holds the one-tap link and the development sign-in, with their form bodies', () => {
    expect(doc.paths['/l/{token}']).toMatchObject({ get: {}, post: {} });
    expect(doc.paths['/dev/login']).toMatchObject({ get: {}, post: {} });
    const confirm = resolve(
      doc.paths['/l/{token}']!.post!.requestBody!.content!['application/x-www-form-urlencoded']!.schema,
    );
    expect(confirm).toMatchObject({ required: ['confirm'] });
    const login = resolve(doc.paths['/dev/login']!.post!.requestBody!.content!['application/json']!.schema);
    expect(login).toMatchObject({ required: ['user', 'project'] });
  });
});
