import { waitFor } from '@openq/testing';
import { SmtpSink } from '@openq/testing/smtp-sink';
import { Stack } from '../support/stack';

/*
 * Issue #17 digest mode over the real stack (questions, notifier, gateway; real NATS, PostgreSQL
 * and SMTP server): a person sets an hourly e-mail digest through the gateway, three questions
 * are declared for them, nothing is mailed one by one; the notifier's injected clock moves past
 * the hour → one digest e-mail lists all three.
 */

const P = 'digest-e2e';
const ADDRESS = 'rui@example.com';
let clock = new Date();
let stack: Stack;
let smtp: SmtpSink;

beforeAll(async () => {
  smtp = await SmtpSink.start();
  stack = await Stack.start({
    services: ['questions', 'notifier'],
    env: { ...smtp.env(), NOTIFIER_POLL_MS: '50', OPENQ_PUBLIC_URL: 'https://openq.example.com' },
    notifierNow: () => clock,
  });
});
afterAll(async () => {
  await stack?.stop();
  await smtp?.stop();
});

const token = () => stack.token('rui', P, 'viewer');

it('holds an hourly channel’s notifications and mails one digest of them all when the clock passes the hour', async () => {
  const put = await stack.http('PUT', `/projects/${P}/notification-channels`, {
    token: token(),
    body: { email: { address: ADDRESS, mode: 'hourly' } },
  });
  expect(put.status).toBe(200);
  for (const i of [1, 2, 3]) {
    const res = await stack.http('POST', `/internal/projects/${P}/open-questions`, {
      service: true,
      body: {
        sessionId: 's-rui',
        sessionAuthorId: 'rui',
        autor: 'arquiteto',
        pergunta: `Digest over the stack, question ${i}?`,
        sugestao: 'Yes',
        afeta: { regras: [], historias: [], tarefas: [`T-${i}`] },
        toolCallId: `toolu_digest_${i}`,
      },
    });
    expect(res.status).toBe(201);
  }
  // Planned and held: three pending e-mail deliveries.
  await waitFor(
    async () => {
      const r = await stack.http('GET', `/projects/${P}/notifications/deliveries?status=pending`, {
        token: token(),
      });
      return r.body.total === 3;
    },
    { what: 'three held deliveries' },
  );

  clock = new Date(Date.now() + 2 * 3600_000); // past the next top of the hour
  const sent = await waitFor(
    async () => {
      const r = await stack.http('GET', `/projects/${P}/notifications/deliveries?status=sent`, {
        token: token(),
      });
      return r.body.total === 3 ? r.body.items : null;
    },
    { what: 'the three deliveries sent in a digest' },
  );
  expect(sent.every((d: { channel: string }) => d.channel === 'email')).toBe(true);
  const mails = await waitFor(() => (smtp.to(ADDRESS).length > 0 ? smtp.to(ADDRESS) : null), {
    what: 'the digest e-mail',
  });
  // One e-mail, not four: nothing went out one by one before the digest.
  expect(mails).toHaveLength(1);
  for (const i of [1, 2, 3]) expect(mails[0]!.text).toContain(`Digest over the stack, question ${i}?`);
  expect(mails[0]!.text).toMatch(/https:\/\/openq\.example\.com\/l\//);
  expect(mails[0]!.headers.get('x-openq-delivery-id')).toMatch(/^digest-[0-9a-f]{32}$/);
});
