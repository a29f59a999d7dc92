import { useServiceDatabase, waitFor } from '@openq/testing';

import { SmtpSink } from '@openq/testing/smtp-sink';
import type { Notification } from '../../adapters/channels/channel';
import { EmailSender, smtpConfigFromEnv } from '../../adapters/channels/email';
import { NOTIFIER_MIGRATIONS } from '../../migrations';
import { claimDue, insertDeliveries } from '../../store/deliveries.store';
import { collectDueDigests } from '../../store/digests.store';
import { DeliverySender } from './delivery-sender';
import { deliveryId } from '../enqueue-notifications/enqueue';

/*
 * Issue #17 digest mode on a real PostgreSQL and a real SMTP server: e-mail deliveries of an
 * hourly channel are held (the immediate pass never claims them); when the injected clock passes
 * the digest's slot, one digest e-mail lists them all, its set fixed in a digest row first.
 */

const P = 'digest';
const ADDRESS = 'dora@example.com';
let smtp: SmtpSink;

const store = useServiceDatabase('notifier', NOTIFIER_MIGRATIONS, { prefix: 'openq_notifier_digest_int' });
beforeAll(async () => {
  smtp = await SmtpSink.start();
});
afterAll(async () => {
  await smtp?.stop();
});

function declared(
  i: number,
  occurredAt: string,
  user = 'dora',
): { notification: Notification; eventId: string; channel: 'email' } {
  const eventId = `0190a3b8-7c1d-7e2f-8a3b-${String(i).padStart(12, '0')}`;
  return {
    eventId,
    channel: 'email',
    notification: {
      id: deliveryId(eventId, 'email', user),
      kind: 'question_declared',
      projectId: P,
      recipientUserId: user,
      occurredAt,
      questions: [
        {
          questionId: `0190a3b8-7c1d-7e2f-9a3b-${String(i).padStart(12, '0')}`,
          pergunta: `Digest question number ${i}?`,
          sugestao: 'Yes',
          autor: 'arquiteto',
          afeta: { regras: [], historias: [], tarefas: [`T-${i}`] },
        },
      ],
      blocks: [],
      links: { open: 'http://localhost:3000/' },
    },
  };
}

it('holds an hourly channel’s e-mails and sends one digest listing them all when the clock says so', async () => {
  await store.ds.query(
    `INSERT INTO notification_channel (project_id, user_id, kind, target) VALUES ($1, 'dora', 'email', $2)`,
    [P, JSON.stringify({ address: ADDRESS, mode: 'hourly' })],
  );
  const occurredAt = '2026-12-01T10:10:00.000Z';
  const rows = [1, 2, 3].map((i) => declared(i, occurredAt));
  await store.ds.transaction((m) => insertDeliveries(m, rows));

  // Held: the immediate pass does not see them, and no digest is due before 11:00.
  expect(await claimDue(store.ds, 10, 1000)).toEqual([]);
  expect(await collectDueDigests(store.ds, new Date('2026-12-01T10:59:59Z'))).toBe(0);

  let clock = new Date('2026-12-01T10:30:00Z');
  const sender = new DeliverySender(
    store.ds,
    { email: new EmailSender(smtpConfigFromEnv(smtp.env())!) },
    {
      retry: { maxAttempts: 3, baseMs: 20, maxMs: 100 },
      sendTimeoutMs: 5000,
      concurrency: 4,
      pollMs: 20,
      now: () => clock,
      links: {
        publicUrl: 'https://openq.example.com',
        secret: 'digest-link-secret-0123456789abcdef',
        ttlS: 3600,
      },
    },
  );
  sender.start();
  try {
    clock = new Date('2026-12-01T11:00:00Z'); // the top of the next hour: the digest is due
    sender.kick();
    const [mail] = await waitFor(() => (smtp.to(ADDRESS).length > 0 ? smtp.to(ADDRESS) : null), {
      what: 'the digest e-mail',
    });
    for (const i of [1, 2, 3]) expect(mail!.text).toContain(`Digest question number ${i}?`);
    expect(mail!.text).toMatch(/https:\/\/openq\.example\.com\/l\//);
    // The sink has the mail a moment before the sender marks the digest sent.
    const digest: { id: string; status: string } = await waitFor(
      async () => {
        const [row] = await store.ds.query(`SELECT id, status FROM notification_digest`);
        return row?.status === 'sent' ? row : null;
      },
      { what: 'the digest marked sent' },
    );
    expect(mail!.headers.get('x-openq-delivery-id')).toBe(digest.id);
    const deliveries: { status: string; digest_id: string }[] = await waitFor(async () => {
      const r: { status: string; digest_id: string }[] = await store.ds.query(
        `SELECT status, digest_id FROM notification_delivery`,
      );
      return r.every((d) => d.status === 'sent') ? r : null;
    });
    expect(deliveries).toHaveLength(3);
    expect(new Set(deliveries.map((d) => d.digest_id))).toEqual(new Set([digest.id]));
  } finally {
    await sender.stop();
  }
  expect(smtp.to(ADDRESS)).toHaveLength(1);
});

it('a digest fixed before a crash is sent as it was: a later notification waits for the next one', async () => {
  const address = 'eli@example.com';
  await store.ds.query(
    `INSERT INTO notification_channel (project_id, user_id, kind, target) VALUES ($1, 'eli', 'email', $2)`,
    [P, JSON.stringify({ address, mode: 'hourly' })],
  );
  await store.ds.transaction((m) =>
    insertDeliveries(
      m,
      [11, 12].map((i) => declared(i, '2026-12-01T10:10:00.000Z', 'eli')),
    ),
  );
  // A pass fixes the digest, then the process dies before sending it.
  expect(await collectDueDigests(store.ds, new Date('2026-12-01T11:00:00Z'))).toBe(1);
  const [fixed] = await store.ds.query(`SELECT id FROM notification_digest WHERE recipient_user_id = 'eli'`);
  await store.ds.transaction((m) => insertDeliveries(m, [declared(13, '2026-12-01T10:50:00.000Z', 'eli')]));

  const sender = new DeliverySender(
    store.ds,
    { email: new EmailSender(smtpConfigFromEnv(smtp.env())!) },
    {
      retry: { maxAttempts: 3, baseMs: 20, maxMs: 100 },
      sendTimeoutMs: 5000,
      concurrency: 4,
      pollMs: 20,
      now: () => new Date('2026-12-01T11:00:00Z'),
    },
  );
  sender.start();
  try {
    await waitFor(() => smtp.to(address).length === 2, { what: 'two digests to eli' });
  } finally {
    await sender.stop();
  }
  const first = smtp.to(address).find((m) => m.headers.get('x-openq-delivery-id') === fixed.id)!;
  expect(first.text).toContain('Digest question number 11?');
  expect(first.text).toContain('Digest question number 12?');
  expect(first.text).not.toContain('Digest question number 13?');
  const second = smtp.to(address).find((m) => m !== first)!;
  expect(second.text).toContain('Digest question number 13?');
  expect(second.text).not.toContain('Digest question number 11?');
});
