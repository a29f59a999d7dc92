import { waitFor } from '@openq/testing';
import { declare } from '../support/context-helpers';
import { Stack } from '../support/stack';
import { RECEIVERS_ALLOWED, WebhookReceiver } from '@openq/testing/webhook-receiver';

/*
 * Issue #17 "reminders and escalation driven by a clock the tests control", over the real stack
 * (questions, notifier, gateway; real NATS, PostgreSQL and an HTTP receiver): a maintainer sets
 * the project's clock, the author sets her working time; as the test's clock moves, the author
 * is reminded, told the question is due, and the maintainer is told she is late — each once; the
 * maintainer still cannot answer for her; her answer stops the clock.
 */

const P = 'clock-e2e';
const SECRET = 'whsec-clock-0123456789abcdef';
const HOUR = 3_600_000;
let clock = new Date();
let stack: Stack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  stack = await Stack.start({
    services: ['questions', 'notifier'],
    env: {
      ...RECEIVERS_ALLOWED,
      NOTIFIER_POLL_MS: '50',
      NOTIFIER_CLOCK_TICK_MS: '50',
      OPENQ_PUBLIC_URL: 'https://openq.example.com',
    },
    notifierNow: () => clock,
  });
});
afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

const ana = () => stack.token('ana', P, 'developer');
const mara = () => stack.token('mara', P, 'maintainer');

interface Received {
  kind: string;
  clock?: { dueAt: string; dueText: string; step: number; late?: string[] };
  questions: { questionId: string }[];
  links: { accept?: string };
}
/** The clock's notices a receiver got (the declaration's own notification left aside). */
const received = (path: string): Received[] =>
  receiver
    .at(path)
    .map((r) => JSON.parse(r.body) as Received)
    .filter((n) => n.clock !== undefined);
const kinds = (path: string) => received(path).map((n) => `${n.kind}:${n.clock?.step ?? '-'}`);

async function clockOf(questionId: string) {
  const res = await stack.http('GET', `/projects/${P}/open-questions/clock`, { token: ana() });
  expect(res.status).toBe(200);
  return (
    res.body.items as {
      questionId: string;
      state: string;
      authorId: string;
      dueAt: string;
      notices: unknown[];
    }[]
  ).find((i) => i.questionId === questionId);
}

it('refuses a policy or a working time that could not work, naming the field and the reason', async () => {
  const byDeveloper = await stack.http('PUT', `/projects/${P}/clock-policy`, {
    token: ana(),
    body: { dueAfter: { hours: 8 } },
  });
  expect(byDeveloper.status).toBe(403);

  const outOfOrder = await stack.http('PUT', `/projects/${P}/clock-policy`, {
    token: mara(),
    body: { dueAfter: { hours: 8 }, reminders: [{ hours: 4 }, { hours: 2 }] },
  });
  expect(outOfOrder.status).toBe(400);
  expect(outOfOrder.body).toMatchObject({ reason: 'lembretes_fora_de_ordem', field: 'reminders[1]' });

  const unknown = await stack.http('PUT', `/projects/${P}/clock-policy`, {
    token: mara(),
    body: { dueAfter: { hours: 8 }, remindEvery: { hours: 1 } },
  });
  expect(unknown.status).toBe(400);
  expect(unknown.body.reason).toBe('corpo_invalido');

  const zone = await stack.http('PUT', '/me/working-time', {
    token: ana(),
    body: { timeZone: 'America/Atlantis' },
  });
  expect(zone.status).toBe(400);
  expect(zone.body).toMatchObject({ reason: 'fuso_horario_desconhecido', field: 'timeZone' });

  // Nothing was stored by the refusals.
  const policy = await stack.http('GET', `/projects/${P}/clock-policy`, { token: ana() });
  expect(policy.body).toMatchObject({ projectId: P, policy: null });
  const mine = await stack.http('GET', '/me/working-time', { token: ana() });
  expect(mine.body).toMatchObject({ userId: 'ana', isDefault: true });
});

it('reminds the author, says it is due, escalates to the maintainer who is late; the answer stops it', async () => {
  for (const [user, token] of [
    ['ana', ana()],
    ['mara', mara()],
  ] as const) {
    const res = await stack.http('PUT', `/projects/${P}/notification-channels`, {
      token,
      body: { webhook: { url: receiver.url(`/${user}`), secret: SECRET } },
    });
    expect(res.status).toBe(200);
  }
  // Every hour of every day for both, so that the test's hours are hours of business time whenever
  // it runs (business time across weekends and zones: clock-ticker.int.spec.ts). The test's clock
  // follows the real declaration time: with the maintainer on the default working time (weekdays,
  // office hours) her escalation waited for her next morning whenever the suite ran in the evening.
  for (const token of [ana(), mara()]) {
    const wt = await stack.http('PUT', '/me/working-time', {
      token,
      body: { timeZone: 'America/Sao_Paulo', days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '24:00' },
    });
    expect(wt.status).toBe(200);
    expect(wt.body).toMatchObject({ isDefault: false, workingTime: { timeZone: 'America/Sao_Paulo' } });
  }
  const set = await stack.http('PUT', `/projects/${P}/clock-policy`, {
    token: mara(),
    body: { dueAfter: { hours: 4 }, reminders: [{ hours: 2 }], escalateAfter: { hours: 6 } },
  });
  expect(set.status).toBe(200);
  expect(set.body).toMatchObject({ policy: { escalateTo: 'maintainers' }, updatedBy: 'mara' });

  const q = await declare(
    stack,
    P,
    'Keep archived orders for 90 days or for a year?',
    { tarefas: ['T-7'] },
    '90 days',
    { author: 'ana', autor: 'arquiteto' },
  );
  // Its clock runs: on time, due four hours after the declaration.
  clock = new Date();
  const first = await waitFor(() => clockOf(q), { what: 'the question on the clock' });
  expect(first).toMatchObject({ state: 'on_time', authorId: 'ana' });
  const declaredAt = new Date(first!.dueAt).getTime() - 4 * HOUR;
  expect(Math.abs(declaredAt - Date.now())).toBeLessThan(60_000);
  const after = (hours: number) => new Date(declaredAt + hours * HOUR);

  clock = after(2);
  await waitFor(() => kinds('/ana').length === 1, { what: 'the reminder' });
  expect(kinds('/ana')).toEqual(['question_reminder:1']);
  expect(received('/ana')[0]!.links.accept).toMatch(/^https:\/\/openq\.example\.com\/l\//);
  expect((await clockOf(q))?.state).toBe('on_time');

  clock = after(3.5); // the last quarter of the four hours
  await waitFor(async () => (await clockOf(q))?.state === 'due_soon', { what: 'due soon' });

  clock = after(6); // past the due time and the escalation
  await waitFor(() => kinds('/mara').length === 1, { what: 'the escalation' });
  expect(received('/mara')[0]).toMatchObject({ kind: 'question_escalated', clock: { late: ['ana'] } });
  expect(received('/mara')[0]!.links.accept).toBeUndefined();
  await waitFor(() => kinds('/ana').length === 2, { what: 'the due notice' });
  expect(kinds('/ana')).toEqual(['question_reminder:1', 'question_due:1']);
  const overdue = await clockOf(q);
  expect(overdue?.state).toBe('overdue');
  expect(overdue?.notices).toHaveLength(3);

  // The maintainer is told; she still cannot answer for the author.
  const byMaintainer = await stack.http('POST', `/projects/${P}/open-questions/${q}/answer`, {
    token: mara(),
    body: { resposta: '90 days' },
  });
  expect(byMaintainer.status).toBe(403);
  expect(byMaintainer.body.reason).toBe('so_o_autor_da_sessao');

  const answered = await stack.http('POST', `/projects/${P}/open-questions/${q}/answer`, {
    token: ana(),
    body: { resposta: '90 days' },
  });
  expect(answered.status).toBe(200);
  await waitFor(async () => (await clockOf(q)) === undefined, { what: 'the clock stopped' });

  // Days later, nothing more about it for anyone: each notice was given once. A second question
  // shows the clock ticked at that time (its own notices came).
  clock = after(72);
  const second = await declare(
    stack,
    P,
    'Does the export include cancelled orders?',
    { tarefas: ['T-8'] },
    null,
    {
      author: 'ana',
    },
  );
  const aboutSecond = () => received('/ana').filter((n) => n.questions[0]!.questionId === second);
  await waitFor(() => aboutSecond().length === 1, { what: 'the second question’s notice' });
  expect(aboutSecond()[0]!.kind).toBe('question_due'); // its reminder is past too: one message
  expect(received('/ana').filter((n) => n.questions[0]!.questionId === q)).toHaveLength(2);
  await waitFor(() => kinds('/mara').length === 2, { what: 'the second escalation' });
  expect(kinds('/mara')).toEqual(['question_escalated:1', 'question_escalated:1']);
  expect(received('/mara')[1]!.questions[0]!.questionId).toBe(second);
});
