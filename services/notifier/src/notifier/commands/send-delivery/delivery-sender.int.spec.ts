import { parseAllowedTargets, PUBLIC_ONLY, type OutboundPolicy } from '@openq/platform';
import { useServiceDatabase, waitFor } from '@openq/testing';
import { WebhookReceiver } from '@openq/testing/webhook-receiver';
import type { Notification } from '../../adapters/channels/channel';
import { SlackSender } from '../../adapters/channels/slack';
import { WebhookSender } from '../../adapters/channels/webhook';
import { NOTIFIER_MIGRATIONS } from '../../migrations';
import { deliveryId } from '../enqueue-notifications/enqueue';
import { DeliverySender } from './delivery-sender';
import { insertDeliveries } from '../../store/deliveries.store';

/*
 * Issue #17 the sender loop on a real PostgreSQL and a real HTTP receiver: two senders (two
 * replicas) share the due deliveries through FOR UPDATE SKIP LOCKED and a lease, and each
 * delivery reaches the receiver once; a receiver that keeps failing is dead-lettered after the
 * last attempt, with its reason.
 */

const P = 'pint';
let receiver: WebhookReceiver;

const store = useServiceDatabase('notifier', NOTIFIER_MIGRATIONS, { prefix: 'openq_notifier_int' });
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await receiver?.stop();
});

async function channel(user: string, path: string): Promise<void> {
  await store.ds.query(
    `INSERT INTO notification_channel (project_id, user_id, kind, target) VALUES ($1, $2, 'webhook', $3)`,
    [P, user, JSON.stringify({ url: receiver.url(path), secret: 'int-secret-0123456789' })],
  );
}

function notification(eventId: string, user: string): Notification {
  return {
    id: deliveryId(eventId, 'webhook', user),
    kind: 'question_declared',
    projectId: P,
    recipientUserId: user,
    occurredAt: new Date().toISOString(),
    questions: [],
    blocks: [],
    links: { open: 'http://localhost:3000/' },
  };
}

/** The receiver is on 127.0.0.1: allowed here as an operator would (issue #27). */
const LOCAL = parseAllowedTargets('127.0.0.1');

const sender = (maxAttempts = 5, policy: OutboundPolicy = LOCAL) =>
  new DeliverySender(
    store.ds,
    { webhook: new WebhookSender({ timeoutMs: 2000, policy }) },
    {
      retry: { maxAttempts, baseMs: 20, maxMs: 100 },
      sendTimeoutMs: 2000,
      concurrency: 4,
      pollMs: 20,
    },
  );

it('two senders deliver each of 200 deliveries once', async () => {
  await channel('ana', '/ana');
  const rows = Array.from({ length: 200 }, (_, i) => {
    const eventId = `0190a3b8-7c1d-7e2f-8a3b-${String(i).padStart(12, '0')}`;
    return { notification: notification(eventId, 'ana'), eventId, channel: 'webhook' as const };
  });
  await store.ds.transaction((m) => insertDeliveries(m, rows));
  // the same rows again: the unique key keeps one each
  expect(await store.ds.transaction((m) => insertDeliveries(m, rows))).toBe(0);
  const a = sender();
  const b = sender();
  a.start();
  b.start();
  try {
    await waitFor(
      async () =>
        Number(
          (await store.ds.query(`SELECT count(*) AS n FROM notification_delivery WHERE status = 'sent'`))[0]
            .n,
        ) === 200,
      { what: '200 deliveries sent' },
    );
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
  const ids = receiver.at('/ana').map((r) => r.headers['x-openq-delivery-id']);
  expect(ids).toHaveLength(200);
  expect(new Set(ids).size).toBe(200);
});

it('dead-letters a delivery whose receiver keeps failing, after the last attempt, with the reason', async () => {
  receiver.answer('/down', () => 503);
  await channel('bia', '/down');
  const eventId = '0190a3b8-7c1d-7e2f-8a3b-ffffffffffff';
  await store.ds.transaction((m) =>
    insertDeliveries(m, [{ notification: notification(eventId, 'bia'), eventId, channel: 'webhook' }]),
  );
  const s = sender(3);
  s.start();
  try {
    await waitFor(
      async () =>
        (await store.ds.query(`SELECT status FROM notification_delivery WHERE recipient_user_id = 'bia'`))[0]
          .status === 'dead',
      { what: 'the dead letter' },
    );
  } finally {
    await s.stop();
  }
  const [row] = await store.ds.query(
    `SELECT attempts, last_error FROM notification_delivery WHERE recipient_user_id = 'bia'`,
  );
  // The class only (issue #27): which address answered what is for the operator's log.
  expect(row).toEqual({ attempts: 3, last_error: 'http_5xx' });
  expect(receiver.at('/down')).toHaveLength(3);
});

it('waits for Slack’s Retry-After (30 s without the header) rather than the short backoff', async () => {
  receiver.answer('/slack-busy', (n) => (n === 1 ? 429 : 200));
  await store.ds.query(
    `INSERT INTO notification_channel (project_id, user_id, kind, target) VALUES ($1, 'caio', 'slack', $2)`,
    [P, JSON.stringify({ webhookUrl: receiver.url('/slack-busy') })],
  );
  const eventId = '0190a3b8-7c1d-7e2f-8a3b-eeeeeeeeeeee';
  const n = { ...notification(eventId, 'caio'), id: deliveryId(eventId, 'slack', 'caio') };
  await store.ds.transaction((m) => insertDeliveries(m, [{ notification: n, eventId, channel: 'slack' }]));
  const s = new DeliverySender(
    store.ds,
    { slack: new SlackSender({ timeoutMs: 2000, policy: LOCAL }) },
    { retry: { maxAttempts: 5, baseMs: 20, maxMs: 100 }, sendTimeoutMs: 2000, concurrency: 4, pollMs: 20 },
  );
  s.start();
  let row: { attempts: number; wait_s: number; last_error: string };
  try {
    row = await waitFor(
      async () => {
        const [r] = await store.ds.query(
          `SELECT attempts, extract(epoch FROM next_attempt_at - now())::float AS wait_s, last_error
             FROM notification_delivery WHERE recipient_user_id = 'caio'`,
        );
        return r.last_error ? r : null;
      },
      { what: 'the rate-limited attempt recorded' },
    );
  } finally {
    await s.stop();
  }
  expect(row.attempts).toBe(1);
  expect(row.last_error).toBe('http_4xx');
  expect(row.wait_s).toBeGreaterThan(25); // the backoff alone would be ≤ 100 ms
  expect(receiver.at('/slack-busy')).toHaveLength(1);
});

it('refuses at send a target saved before the rules, on an address the operator does not allow', async () => {
  // A row as an older release saved it (no check at save then): the receiver must hear nothing.
  await channel('davi', '/davi');
  const eventId = '0190a3b8-7c1d-7e2f-8a3b-dddddddddddd';
  await store.ds.transaction((m) =>
    insertDeliveries(m, [{ notification: notification(eventId, 'davi'), eventId, channel: 'webhook' }]),
  );
  const s = sender(5, PUBLIC_ONLY);
  s.start();
  let row: { status: string; attempts: number; last_error: string };
  try {
    row = await waitFor(
      async () => {
        const [r] = await store.ds.query(
          `SELECT status, attempts, last_error FROM notification_delivery WHERE recipient_user_id = 'davi'`,
        );
        return r.status === 'dead' ? r : null;
      },
      { what: 'the refused delivery dead-lettered' },
    );
  } finally {
    await s.stop();
  }
  // Permanent at once: no retry would make the address public.
  expect(row).toEqual({ status: 'dead', attempts: 1, last_error: 'destino_nao_permitido' });
  expect(receiver.at('/davi')).toEqual([]);
});
