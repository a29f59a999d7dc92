import { waitFor } from '@openq/testing';
import { verifySignature } from '@openq/contracts';
import { EXEC_AUTHOR, ask, publishVerdict, startGate } from '../support/gates';
import { Stack } from '../support/stack';
import { RECEIVERS_ALLOWED, WebhookReceiver } from '@openq/testing/webhook-receiver';
import { TestEngine } from '../support/engine';

/*
 * Issue #17 over the real stack (questions, gates, notifier, gateway; real NATS and PostgreSQL):
 * a person's signed webhook hears their questions and parked gates; failures are retried and
 * dead-lettered; a dead letter is listed for them and redelivered once the receiver is fixed.
 */

const P = 'notif';
const SECRET = 'whsec-e2e-0123456789abcdef';
let stack: Stack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  stack = await Stack.start({
    services: ['questions', 'gates', 'notifier'],
    env: {
      ...RECEIVERS_ALLOWED,
      NOTIFIER_POLL_MS: '50',
      NOTIFIER_RETRY_BASE_MS: '50',
      NOTIFIER_RETRY_MAX_MS: '200',
      NOTIFIER_MAX_ATTEMPTS: '4',
      NOTIFIER_SEND_TIMEOUT_MS: '3000',
      OPENQ_PUBLIC_URL: 'https://openq.example.com',
    },
  });
});
afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

const as = (user: string) => stack.token(user, P, 'viewer');

function setWebhook(user: string, path: string, secret = SECRET) {
  return stack.http('PUT', `/projects/${P}/notification-channels`, {
    token: as(user),
    body: { webhook: { url: receiver.url(path), secret } },
  });
}

const declare = (user: string, pergunta: string): Promise<string> =>
  new TestEngine(stack.baseUrl).declare(P, {
    sessionId: `s-${user}`,
    sessionAuthorId: user,
    autor: 'arquiteto',
    pergunta,
    sugestao: 'Keep it simple',
    afeta: { historias: ['H-1'], tarefas: ['T-101'] },
  });

function deliveries(user: string, status = 'all') {
  return stack.http('GET', `/projects/${P}/notifications/deliveries?status=${status}`, { token: as(user) });
}

describe('notification channels', () => {
  it('keeps the caller’s webhook and never shows its secret nor its whole URL', async () => {
    const put = await setWebhook('ana', '/ana/token-abcd');
    expect(put.status).toBe(200);
    const get = await stack.http('GET', `/projects/${P}/notification-channels`, { token: as('ana') });
    expect(get.status).toBe(200);
    expect(get.body.webhook).toMatchObject({
      secretSet: true,
      enabled: true,
      url: `${receiver.baseUrl}/…abcd`,
    });
    expect(JSON.stringify(get.body)).not.toContain(SECRET);
    expect(JSON.stringify(get.body)).not.toContain('token-abcd');
    // another person sees only their own (none)
    const other = await stack.http('GET', `/projects/${P}/notification-channels`, { token: as('bruno') });
    expect(other.body).toMatchObject({ userId: 'bruno', webhook: null, email: null, slack: null });
  });

  it.each([
    [{ webhook: { url: 'ftp://x.example.com/h', secret: SECRET } }, 'canal_webhook_invalido'],
    [{ webhook: { url: 'https://x.example.com/h', secret: 'short' } }, 'canal_webhook_invalido'],
    [{ email: { address: 'not-an-address' } }, 'canal_email_invalido'],
    [{ slack: { webhookUrl: 'nope' } }, 'canal_slack_invalido'],
    [{ sms: { to: '+1' } }, 'corpo_invalido'],
  ])('refuses %j with %s', async (body, reason) => {
    const res = await stack.http('PUT', `/projects/${P}/notification-channels`, { token: as('ana'), body });
    expect(res.status).toBe(400);
    expect(res.body.reason).toBe(reason);
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
  });
});

describe('the generic webhook', () => {
  it('posts a signed notification of a declared question to its author', async () => {
    await setWebhook('ana', '/ana');
    const questionId = await declare('ana', 'Archive or delete old codes?');
    const receipt = await waitFor(
      () =>
        receiver
          .at('/ana')
          .find(
            (r) =>
              (JSON.parse(r.body) as { questions: { questionId: string }[] }).questions[0]?.questionId ===
              questionId,
          ),
      { what: 'the webhook of the declared question' },
    );
    const check = verifySignature(
      SECRET,
      receipt.headers['x-openq-signature'] as string,
      receipt.body,
      Date.now() / 1000,
    );
    expect(check).toMatchObject({ ok: true });
    // a wrong secret or an old timestamp does not verify
    expect(
      verifySignature(
        'another-secret-123',
        receipt.headers['x-openq-signature'] as string,
        receipt.body,
        Date.now() / 1000,
      ),
    ).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(
      verifySignature(
        SECRET,
        receipt.headers['x-openq-signature'] as string,
        receipt.body,
        Date.now() / 1000 + 3600,
      ),
    ).toMatchObject({ ok: false, reason: 'stale' });
    const body = JSON.parse(receipt.body);
    expect(body).toMatchObject({
      type: 'openq.notification.question_declared',
      kind: 'question_declared',
      projectId: P,
      recipientUserId: 'ana',
      questions: [
        {
          questionId,
          pergunta: 'Archive or delete old codes?',
          sugestao: 'Keep it simple',
          autor: 'arquiteto',
        },
      ],
      blocks: ['work on T-101'],
      links: { open: expect.stringMatching(/^https:\/\/openq\.example\.com\/l\//) },
    });
    expect(receipt.headers['x-openq-delivery-id']).toBe(body.id);
    const log = await waitFor(
      async () => {
        const res = await deliveries('ana', 'sent');
        return res.body.items.find((d: { deliveryId: string }) => d.deliveryId === body.id) ?? false;
      },
      { what: 'the delivery marked sent' },
    );
    expect(log).toMatchObject({ channel: 'webhook', kind: 'question_declared', status: 'sent', attempts: 1 });
  });

  it('retries a receiver that answers 500 twice, and delivers once with one delivery id', async () => {
    receiver.answer('/bia', (n) => (n <= 2 ? 500 : 200));
    await setWebhook('bia', '/bia');
    await declare('bia', 'Which currency for refunds?');
    await waitFor(() => receiver.at('/bia').some((r) => r.status === 200), { what: 'the third attempt' });
    const got = receiver.at('/bia');
    expect(got.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(new Set(got.map((r) => r.headers['x-openq-delivery-id'])).size).toBe(1);
    const list = await waitFor(
      async () => {
        const res = await deliveries('bia', 'sent');
        return res.body.total === 1 ? res.body : false;
      },
      { what: 'bia’s delivery sent' },
    );
    expect(list.items[0]).toMatchObject({ attempts: 3, status: 'sent', lastError: null });
  });

  it('dead-letters a receiver that answers 400, lists it for the person, and redelivers once fixed', async () => {
    let fixed = false;
    receiver.answer('/caio', () => (fixed ? 200 : 400));
    await setWebhook('caio', '/caio');
    await declare('caio', 'Drop IE11 support?');
    const dead = await waitFor(
      async () => {
        const res = await deliveries('caio', 'dead');
        return res.body.total === 1 ? res.body.items[0] : false;
      },
      { what: 'caio’s dead letter' },
    );
    expect(dead).toMatchObject({ status: 'dead', attempts: 1, lastError: 'http_4xx', channel: 'webhook' });
    expect(receiver.at('/caio')).toHaveLength(1);
    // Nobody else sees or redelivers it (the same 404 as for no delivery at all).
    const stranger = await stack.http(
      'POST',
      `/projects/${P}/notifications/deliveries/${dead.deliveryId}/redeliver`,
      { token: as('ana') },
    );
    expect(stranger).toMatchObject({ status: 404, body: { reason: 'entrega_nao_encontrada' } });
    fixed = true;
    const again = await stack.http(
      'POST',
      `/projects/${P}/notifications/deliveries/${dead.deliveryId}/redeliver`,
      {
        token: as('caio'),
      },
    );
    expect(again).toMatchObject({ status: 200, body: { deliveryId: dead.deliveryId, status: 'pending' } });
    await waitFor(() => receiver.at('/caio').some((r) => r.status === 200), { what: 'the redelivery' });
    expect(new Set(receiver.at('/caio').map((r) => r.headers['x-openq-delivery-id']))).toEqual(
      new Set([dead.deliveryId]),
    );
    const sent = await waitFor(
      async () => {
        const res = await deliveries('caio', 'sent');
        return res.body.total === 1 ? res.body.items[0] : false;
      },
      { what: 'caio’s delivery sent' },
    );
    expect(sent).toMatchObject({ deliveryId: dead.deliveryId, status: 'sent', attempts: 1 });
  });

  it('tells the author when a QA gate parks on their decision and when it resumes', async () => {
    await setWebhook(EXEC_AUTHOR, '/exec');
    await startGate(stack, P, 'T-200');
    await publishVerdict(stack, P, 'T-200', 'round-1', [
      ask('api', 'Keep v1 endpoints?', 'Yes, for 6 months'),
    ]);
    const kinds = () =>
      receiver.at('/exec').map(
        (r) =>
          JSON.parse(r.body) as {
            kind: string;
            blocks: string[];
            questions: { questionId: string }[];
            gate?: unknown;
          },
      );
    const parked = await waitFor(() => kinds().find((b) => b.kind === 'gate_parked'), {
      what: 'gate_parked',
    });
    expect(parked).toMatchObject({ blocks: ['QA gate on T-200'], gate: { taskId: 'T-200', gate: 'qa' } });
    const questionId = parked.questions[0]!.questionId;
    const answer = await stack.http('POST', `/projects/${P}/open-questions/${questionId}/answer`, {
      token: stack.token(EXEC_AUTHOR, P, 'viewer'),
      body: { aceitarSugestao: true },
    });
    expect(answer.status).toBe(200);
    const resumed = await waitFor(() => kinds().find((b) => b.kind === 'gate_resumed'), {
      what: 'gate_resumed',
    });
    expect(resumed).toMatchObject({
      blocks: ['QA gate on T-200'],
      gate: { taskId: 'T-200', gate: 'qa', trigger: 'answer' },
    });
    // one notification per event: declared, parked, resumed (the click's own answer tells nobody)
    expect(
      kinds()
        .map((b) => b.kind)
        .sort(),
    ).toEqual(['gate_parked', 'gate_resumed', 'question_declared']);
  });
});

describe('metrics', () => {
  it('counts sent, failed and dead-lettered notifications per channel, and declared → notified', async () => {
    const address = stack.service('notifier').app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : 0;
    let text = '';
    const value = (series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line ? Number(line.split(' ')[1]) : NaN;
    };
    // The notifier counts a send after the receiver's 200 comes back and the row is marked: the
    // last receipt the tests above waited for may be seen a moment before its count.
    await waitFor(
      async () => {
        text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        return value('openq_notifications_sent_total{channel="webhook"}') >= 6;
      },
      { what: 'six webhook notifications counted as sent' },
    );
    // ana, bia, caio's redelivery and the gate's three: at least 6 sent; bia's two 500s and caio's 400
    expect(value('openq_notifications_sent_total{channel="webhook"}')).toBeGreaterThanOrEqual(6);
    expect(value('openq_notifications_failed_total{channel="webhook"}')).toBeGreaterThanOrEqual(3);
    expect(value('openq_notifications_dead_lettered_total{channel="webhook"}')).toBeGreaterThanOrEqual(1);
    expect(
      value('openq_notifications_declared_to_notified_seconds_count{channel="webhook"}'),
    ).toBeGreaterThanOrEqual(4);
  });
});
