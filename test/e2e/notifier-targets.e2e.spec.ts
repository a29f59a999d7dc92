import type { AddressInfo } from 'node:net';
import { waitFor } from '@openq/testing';
import { Stack } from '../support/stack';
import { WebhookReceiver } from '@openq/testing/webhook-receiver';

/*
 * Issue #27 (SPEC §12.2) the SSRF holes an outside attacker found, over the real stack (questions,
 * notifier, gateway; real NATS and PostgreSQL), with NO operator allow-list: a project member may
 * not point a webhook or a Slack channel at openq's own network — loopback, private, link-local
 * (the cloud metadata address), the services' health ports, NATS — by address, by a name that
 * resolves there, or by a `user@host` URL. A target saved before the rule is refused at send, and
 * the receiver on 127.0.0.1 hears nothing; the delivery log says the class only.
 */

const P = 'ssrf';
const SECRET = 'whsec-ssrf-0123456789abcdef';
let stack: Stack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  stack = await Stack.start({
    services: ['questions', 'notifier'],
    env: { NOTIFIER_POLL_MS: '50', NOTIFIER_RETRY_BASE_MS: '50', NOTIFIER_RETRY_MAX_MS: '200' },
  });
});
afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

const as = (user: string) => stack.token(user, P, 'viewer');
const portOf = (url: string) => new URL(url).port;

function put(user: string, body: unknown) {
  return stack.http('PUT', `/projects/${P}/notification-channels`, { token: as(user), body });
}

describe('a notification target must be public (no allow-list)', () => {
  it('refuses every private form of a webhook URL with 400 destino_nao_permitido, saving nothing', async () => {
    const notifierPort = (stack.service('notifier').app.getHttpServer().address() as AddressInfo).port;
    const natsPort = portOf(stack.nats.url);
    const targets = [
      receiver.url('/hook'),
      `http://localhost:${portOf(receiver.baseUrl)}/hook`,
      `http://[::1]:${portOf(receiver.baseUrl)}/hook`,
      'http://0.0.0.0/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/hook',
      'http://192.168.0.10/hook',
      'http://100.64.0.1/hook',
      'http://[fd00::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      `http://127.0.0.1:${notifierPort}/metrics`,
      `http://127.0.0.1:${natsPort}/`,
      `https://hooks.slack.com@127.0.0.1:${portOf(receiver.baseUrl)}/hook`,
    ];
    for (const url of targets) {
      const res = await put('ana', { webhook: { url, secret: SECRET } });
      expect({ url, status: res.status, reason: res.body.reason }).toEqual({
        url,
        status: 400,
        reason: 'destino_nao_permitido',
      });
      // The refusal names no address it resolved, and echoes neither the URL nor the secret.
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
      expect(JSON.stringify(res.body)).not.toContain('/hook');
    }
    const slack = await put('ana', {
      slack: { webhookUrl: `https://hooks.slack.com@127.0.0.1:${portOf(receiver.baseUrl)}/services/T/B/x` },
    });
    expect(slack).toMatchObject({ status: 400, body: { reason: 'destino_nao_permitido' } });
    const saved = await stack.http('GET', `/projects/${P}/notification-channels`, { token: as('ana') });
    expect(saved.body).toMatchObject({ webhook: null, slack: null });
    expect(receiver.receipts).toEqual([]);
  });

  it('refuses at send a target saved before the rule: the receiver on 127.0.0.1 hears nothing', async () => {
    // As an older release saved it, with no check: straight into the notifier's table.
    await stack
      .service('notifier')
      .dataSource.query(
        `INSERT INTO notification_channel (project_id, user_id, kind, target) VALUES ($1, 'bia', 'webhook', $2)`,
        [P, JSON.stringify({ url: receiver.url('/bia'), secret: SECRET })],
      );
    const declared = await stack.http('POST', `/internal/projects/${P}/open-questions`, {
      service: true,
      body: {
        sessionId: 's-bia',
        sessionAuthorId: 'bia',
        autor: 'arquiteto',
        pergunta: 'Keep the legacy export?',
        sugestao: 'No',
        afeta: { regras: [], historias: [], tarefas: [] },
        toolCallId: 'toolu_ssrf_1',
      },
    });
    expect(declared.status).toBe(201);
    const dead = await waitFor(
      async () => {
        const res = await stack.http('GET', `/projects/${P}/notifications/deliveries?status=dead`, {
          token: as('bia'),
        });
        return res.body.total === 1 ? res.body.items[0] : false;
      },
      { what: 'bia’s delivery refused' },
    );
    // Refused for good at the first attempt; the class only, nothing that tells a port's state.
    expect(dead).toMatchObject({ status: 'dead', attempts: 1, lastError: 'destino_nao_permitido' });
    // Redelivery on demand fires the same check again: still nothing reaches the receiver.
    const again = await stack.http(
      'POST',
      `/projects/${P}/notifications/deliveries/${dead.deliveryId}/redeliver`,
      { token: as('bia') },
    );
    expect(again.status).toBe(200);
    await waitFor(
      async () => {
        const res = await stack.http('GET', `/projects/${P}/notifications/deliveries?status=dead`, {
          token: as('bia'),
        });
        return (
          res.body.total === 1 && res.body.items[0].attempts === 1 && res.body.items[0].deadAt !== dead.deadAt
        );
      },
      { what: 'the redelivery refused again' },
    );
    expect(receiver.receipts).toEqual([]);
  });
});
