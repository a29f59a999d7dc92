import { waitFor } from '@openq/testing';
import { ask, EXEC_AUTHOR, gatesOf, publishVerdict, startGate } from '../support/gates';
import { SmtpSink } from '@openq/testing/smtp-sink';
import { Stack } from '../support/stack';
import { RECEIVERS_ALLOWED, WebhookReceiver } from '@openq/testing/webhook-receiver';

/*
 * Issue #17's "Done when" over the real stack (questions, gates, notifier, gateway; real NATS and
 * PostgreSQL, a real SMTP server, a real HTTP receiver for Slack): a QA verdict parks the gate on
 * a question → its session author, with an e-mail channel (immediate) and a Slack channel set
 * through the gateway, gets the e-mail and the Block Kit message → the one-tap "accept" link of
 * the e-mail: GET shows the confirm page and answers nothing, POST (the page's form) answers → the
 * gate resumes → exactly one notification per event and channel, counted by delivery id.
 */

const P = 'done-when';
const PUBLIC = 'https://openq.example.com';
const ADDRESS = 'ana@example.com';
let stack: Stack;
let smtp: SmtpSink;
let slack: WebhookReceiver;

beforeAll(async () => {
  smtp = await SmtpSink.start();
  slack = await WebhookReceiver.start();
  stack = await Stack.start({
    services: ['questions', 'gates', 'notifier'],
    env: { ...smtp.env(), ...RECEIVERS_ALLOWED, NOTIFIER_POLL_MS: '50', OPENQ_PUBLIC_URL: PUBLIC },
  });
});
afterAll(async () => {
  await stack?.stop();
  await slack?.stop();
  await smtp?.stop();
});

const token = () => stack.token(EXEC_AUTHOR, P, 'viewer');
const deliveryIdOf = (mail: { headers: Map<string, unknown> }) =>
  mail.headers.get('x-openq-delivery-id') as string;

it('declared → e-mail and Slack → one-tap accept (GET confirms, POST answers) → resumed, once per channel', async () => {
  const put = await stack.http('PUT', `/projects/${P}/notification-channels`, {
    token: token(),
    body: { email: { address: ADDRESS, mode: 'immediate' }, slack: { webhookUrl: slack.url('/slack/ana') } },
  });
  expect(put.status).toBe(200);

  await startGate(stack, P, 'T-301');
  await publishVerdict(stack, P, 'T-301', 'round-T-301', [
    ask('functional', 'Round prices half up or half even?', 'Half up'),
  ]);
  const questionId = await waitFor(
    async () => {
      const r = await gatesOf(stack, P, 'T-301');
      const qa = (r.body as { gate: string; state: string; questionIds: string[] }[]).find(
        (g) => g.gate === 'qa',
      );
      return qa?.state === 'parked' ? qa.questionIds[0]! : null;
    },
    { what: 'the QA gate to park' },
  );

  // The e-mail of the declared question, with its one-tap links.
  const declared = await waitFor(
    () =>
      smtp
        .to(ADDRESS)
        .find(
          (m) => (m.text ?? '').includes('Round prices half up or half even?') && /\/l\//.test(m.text ?? ''),
        ),
    { what: 'the e-mail of the declared question' },
  );
  const links = [
    ...(declared.text ?? '').matchAll(/https:\/\/openq\.example\.com\/l\/([A-Za-z0-9_.-]+)/g),
  ].map((m) => m[1]!);
  expect(links.length).toBeGreaterThanOrEqual(2); // accept and open
  expect(declared.messageId).toContain(deliveryIdOf(declared));

  // The Slack message: Block Kit with the same links as buttons.
  const slackPost = await waitFor(() => slack.at('/slack/ana')[0], { what: 'the Slack message' });
  const blockKit = JSON.parse(slackPost.body) as { text: string; blocks: { type: string }[] };
  expect(blockKit.blocks.length).toBeGreaterThan(0);
  expect(slackPost.body).toContain(`${PUBLIC}/l/`);
  expect(slackPost.headers['x-openq-delivery-id']).toMatch(/^[0-9a-f-]{36}$/);

  // Which link is "accept": the gateway says so on GET (a confirm page), and answers nothing.
  let accept: string | undefined;
  let confirm = '';
  for (const link of links) {
    const r = await stack.http('GET', `/l/${link}`);
    if (r.status === 200 && typeof r.body?.confirm === 'string') {
      accept = link;
      confirm = r.body.confirm as string;
      expect(r.body).toMatchObject({ questionId, canAnswer: true });
    }
  }
  expect(accept).toBeDefined();
  expect(stack.events.ofType('question.answered')).toEqual([]);

  // The page's button: a form POST from the same origin.
  const answered = await fetch(`${stack.baseUrl}/l/${accept}`, {
    method: 'POST',
    headers: {
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'same-origin',
    },
    body: `confirm=${encodeURIComponent(confirm)}`,
  });
  expect(answered.status).toBe(200);
  await waitFor(
    async () => {
      const r = await gatesOf(stack, P, 'T-301');
      return (r.body as { gate: string; state: string }[]).find((g) => g.gate === 'qa')?.state === 'running';
    },
    { what: 'the QA gate to resume' },
  );
  const resumed = await stack.events.waitForType<{ taskId: string; trigger: string }>('gate.resumed');
  expect(resumed.filter((e) => e.data.taskId === 'T-301').map((e) => e.data.trigger)).toEqual(['answer']);

  // declared, parked, resumed: three events, one e-mail and one Slack message each.
  const sent = await waitFor(
    async () => {
      const r = await stack.http('GET', `/projects/${P}/notifications/deliveries?status=all&limit=100`, {
        token: token(),
      });
      const items = r.body.items as { deliveryId: string; kind: string; channel: string; status: string }[];
      return items.length === 6 && items.every((d) => d.status === 'sent') ? items : null;
    },
    { what: 'six deliveries sent' },
  );
  const kinds = (channel: string) =>
    sent
      .filter((d) => d.channel === channel)
      .map((d) => d.kind)
      .sort();
  expect(kinds('email')).toEqual(['gate_parked', 'gate_resumed', 'question_declared']);
  expect(kinds('slack')).toEqual(['gate_parked', 'gate_resumed', 'question_declared']);
  await waitFor(() => smtp.to(ADDRESS).length >= 3 && slack.at('/slack/ana').length >= 3, {
    what: 'three e-mails and three Slack messages',
  });
  const mailIds = smtp.to(ADDRESS).map(deliveryIdOf);
  const slackIds = slack.at('/slack/ana').map((r) => r.headers['x-openq-delivery-id'] as string);
  expect(mailIds.sort()).toEqual(
    sent
      .filter((d) => d.channel === 'email')
      .map((d) => d.deliveryId)
      .sort(),
  );
  expect(slackIds.sort()).toEqual(
    sent
      .filter((d) => d.channel === 'slack')
      .map((d) => d.deliveryId)
      .sort(),
  );
  expect(new Set(smtp.to(ADDRESS).map((m) => m.messageId)).size).toBe(3);

  // The metrics stay per channel: e-mail and Slack counted, the webhook's series there at 0.
  const address = stack.service('notifier').app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const value = (series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.split(' ')[1]) : NaN;
  };
  expect(value('openq_notifications_sent_total{channel="email"}')).toBe(3);
  expect(value('openq_notifications_sent_total{channel="slack"}')).toBe(3);
  expect(value('openq_notifications_sent_total{channel="webhook"}')).toBe(0);
  expect(value('openq_notifications_declared_to_notified_seconds_count{channel="email"}')).toBe(1);
});
