import { AgentEvent, eventSubject, makeEnvelope } from '@openq/contracts';
import { encodeJson } from '@openq/messaging';
import { DEV_JWT_SECRET } from '@openq/platform';
import { waitFor } from '@openq/testing';
import { mintDevToken } from '../../tools/token';
import { ProcessStack } from '../support/processes';
import { SmtpSink } from '@openq/testing/smtp-sink';
import { RECEIVERS_ALLOWED, WebhookReceiver } from '@openq/testing/webhook-receiver';
import { printFigures, saveFigures } from './support/report';
import { scaled } from './support/scale';

/*
 * Issue #17 — the notifier SIGKILLed mid-run. A burst of declarations flows (agent events on
 * JetStream) while the notifier process is killed and restarted several times; every author has
 * a signed webhook, an e-mail channel (a real SMTP server) and a Slack channel (a real HTTP
 * receiver). Afterwards, for each channel: one delivery row and one delivery id per event, every
 * one of them received (the e-mail's X-Openq-Delivery-Id and Message-ID, Slack's header); a copy can only come from a kill between a
 * receiver's 200 and the mark, carries the same delivery id (receivers dedupe on it), and is
 * counted and bounded here (docs/delivery-guarantees.md, "Notifications").
 */

const P = 'ncrash';
const USERS = ['ana', 'bia', 'caio', 'davi', 'eva'];
const DECLARATIONS = scaled(400, 40);
const KILLS = 3;
const CONCURRENCY = 8;
let stack: ProcessStack;
let receiver: WebhookReceiver;
let slack: WebhookReceiver;
let smtp: SmtpSink;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  slack = await WebhookReceiver.start();
  smtp = await SmtpSink.start();
  stack = await ProcessStack.start({
    services: ['questions', 'notifier', 'gateway'],
    dbPrefix: 'openq_notif_crash',
    env: {
      ...smtp.env(),
      ...RECEIVERS_ALLOWED,
      NOTIFIER_POLL_MS: '50',
      NOTIFIER_RETRY_BASE_MS: '50',
      NOTIFIER_RETRY_MAX_MS: '500',
      // Long enough that a loaded machine's slow answer is not a timeout (a retry, a copy not caused by a kill).
      NOTIFIER_SEND_TIMEOUT_MS: '8000',
      NOTIFIER_SEND_CONCURRENCY: String(CONCURRENCY),
    },
  });
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
  await slack?.stop();
  await smtp?.stop();
}, 60_000);

interface Body {
  id: string;
  questions: { questionId: string }[];
}

it(`sends one notification per event and channel while the notifier is SIGKILLed ${KILLS} times`, async () => {
  for (const user of USERS) {
    const res = await fetch(`${stack.gatewayUrl}/projects/${P}/notification-channels`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${mintDevToken({ user, project: P, role: 'viewer', secret: DEV_JWT_SECRET })}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        webhook: { url: receiver.url(`/${user}`), secret: `secret-of-${user}-0123456789` },
        email: { address: `${user}@example.com`, mode: 'immediate' },
        slack: { webhookUrl: slack.url(`/${user}`) },
      }),
    });
    expect(res.status).toBe(200);
  }

  const js = stack.nc.jetstream();
  const publishing = (async () => {
    for (let i = 0; i < DECLARATIONS; i++) {
      const user = USERS[i % USERS.length]!;
      const envelope = makeEnvelope(AgentEvent.QuestionDeclare, P, {
        sessionId: `s-${user}`,
        sessionAuthorId: user,
        autor: 'po',
        pergunta: `Question ${i} of the burst?`,
        sugestao: null,
        afeta: { regras: [], historias: [], tarefas: [`T-${i}`] },
        toolCallId: `toolu_burst_${i}`,
      });
      await js.publish(eventSubject(envelope.type, P), encodeJson(envelope), { msgID: envelope.eventId });
    }
  })();

  const notifier = stack.proc('notifier');
  const distinct = () => new Set(receiver.receipts.map((r) => r.headers['x-openq-delivery-id'])).size;
  for (let k = 1; k <= KILLS; k++) {
    const at = Math.round((DECLARATIONS * k) / (KILLS + 1));
    await waitFor(() => distinct() >= at, {
      timeoutMs: 180_000,
      intervalMs: 5,
      what: `${at} notifications received`,
    });
    await notifier.kill('SIGKILL');
    await notifier.start();
  }
  await publishing;
  const mailIds = () => smtp.received.map((m) => m.mail.headers.get('x-openq-delivery-id') as string);
  const slackIds = () => slack.receipts.map((r) => r.headers['x-openq-delivery-id'] as string);
  await waitFor(
    () =>
      distinct() >= DECLARATIONS &&
      new Set(mailIds()).size >= DECLARATIONS &&
      new Set(slackIds()).size >= DECLARATIONS,
    { timeoutMs: 180_000, what: 'every notification received on every channel' },
  );
  await waitFor(
    async () =>
      (await stack.count(
        `SELECT count(*) AS n FROM notifier.notification_delivery WHERE status <> 'sent'`,
      )) === 0,
    { timeoutMs: 60_000, what: 'every delivery marked sent' },
  );

  const rows = await stack.count(`SELECT count(*) AS n FROM notifier.notification_delivery`);
  const bodies = receiver.receipts.map((r) => ({ r, body: JSON.parse(r.body) as Body }));
  const idsOfQuestion = new Map<string, Set<string>>();
  for (const { r, body } of bodies) {
    expect(r.headers['x-openq-delivery-id']).toBe(body.id);
    const q = body.questions[0]!.questionId;
    idsOfQuestion.set(q, (idsOfQuestion.get(q) ?? new Set()).add(body.id));
    // each one reached its own author's receiver
    expect(r.path).toBe(`/${(JSON.parse(r.body) as { recipientUserId: string }).recipientUserId}`);
  }
  const copies = receiver.receipts.length - distinct();
  const idsOf = async (channel: string) =>
    new Set(
      (
        await stack.sql<{ id: string }>(`SELECT id FROM notifier.notification_delivery WHERE channel = $1`, [
          channel,
        ])
      ).map((r) => r.id),
    );
  const mailCopies = mailIds().length - new Set(mailIds()).size;
  const slackCopies = slackIds().length - new Set(slackIds()).size;
  // A copy of an e-mail is the same message: the same Message-ID as its delivery id says.
  for (const { mail } of smtp.received) {
    expect(mail.messageId).toContain(mail.headers.get('x-openq-delivery-id') as string);
  }
  expect(new Set(mailIds())).toEqual(await idsOf('email'));
  expect(new Set(slackIds())).toEqual(await idsOf('slack'));
  expect(new Set(receiver.receipts.map((r) => r.headers['x-openq-delivery-id']))).toEqual(
    await idsOf('webhook'),
  );
  const figures = {
    declarations: DECLARATIONS,
    kills: notifier.kills,
    deliveryRows: rows,
    receipts: receiver.receipts.length,
    distinctDeliveryIds: distinct(),
    questionsNotified: idsOfQuestion.size,
    'copies (same delivery id)': copies,
    'e-mails received': mailIds().length,
    'e-mail copies (same Message-ID)': mailCopies,
    'Slack messages received': slackIds().length,
    'Slack copies (same delivery id)': slackCopies,
  };
  printFigures('notifier crash: figures', figures);
  saveFigures('notifier-crash', figures);

  expect(notifier.kills).toBe(KILLS);
  expect(rows).toBe(DECLARATIONS * 3); // webhook, e-mail, Slack
  expect(distinct()).toBe(DECLARATIONS);
  expect(idsOfQuestion.size).toBe(DECLARATIONS);
  for (const ids of idsOfQuestion.values()) expect(ids.size).toBe(1);
  // A copy needs a kill between a receiver's 200 and the mark: at most the sends in flight per kill.
  // The sends in flight are shared by the three channels: the bound is on their sum.
  expect(copies + mailCopies + slackCopies).toBeLessThanOrEqual(KILLS * CONCURRENCY);
}, 600_000);
