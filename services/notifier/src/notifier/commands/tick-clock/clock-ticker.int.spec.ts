import { recordStatements } from '@openq/persistence';
import { useServiceDatabase } from '@openq/testing';
import { isRefusal, makeEnvelope, OpenqEvent, type QuestionDeclared } from '@openq/contracts';

import { parseClockPolicy, parseWorkingTime, type ClockPolicy } from '../../domain/clock';
import type { Notification } from '../../adapters/channels/channel';
import { NOTIFIER_MIGRATIONS } from '../../migrations';
import {
  closeAnsweredQuestion,
  closeQuestion,
  recordMember,
  setClockPolicy,
  setWorkingTime,
} from '../../store/clock.store';
import { saveDeclaredQuestion as saveQuestion } from '../enqueue-notifications/from-wire';
import { ClockTicker } from './clock-ticker';

/*
 * Issue #17 the clock of a question on a real PostgreSQL, driven by a clock the test holds:
 * reminders, the due notice and the escalation come when the author's business time says, each
 * once (however many ticks and tickers), a notifier back from an outage tells each person only
 * where things stand now, and an answered question owes nothing.
 */

const store = useServiceDatabase('notifier', NOTIFIER_MIGRATIONS, { prefix: 'openq_notifier_clock_int' });
let now = new Date();
let serial = 0;

function ticker(): ClockTicker {
  return new ClockTicker(store.ds, {
    tickMs: 60_000,
    batch: 2,
    publicUrl: 'https://openq.example.com',
    kinds: ['webhook'],
    now: () => now,
  });
}

function policy(json: unknown): ClockPolicy {
  const parsed = parseClockPolicy(json);
  if (isRefusal(parsed)) throw new Error(parsed.message);
  return parsed;
}

async function project(p: string, clock: unknown, people: Record<string, 'developer' | 'maintainer'>) {
  await store.ds.transaction(async (m) => {
    for (const [user, role] of Object.entries(people)) {
      await recordMember(m, p, user, role);
      await m.query(
        `INSERT INTO notification_channel (project_id, user_id, kind, target) VALUES ($1, $2, 'webhook', $3)`,
        [p, user, JSON.stringify({ url: `https://hooks.example.com/${user}`, secret: 's'.repeat(16) })],
      );
    }
    await setClockPolicy(m, p, policy(clock), 'mara');
  });
}

async function declare(p: string, author: string, declaredAt: string): Promise<string> {
  serial += 1;
  const questionId = `0190a3b8-7c1d-7e2f-8a3b-${String(serial).padStart(12, '0')}`;
  await store.ds.transaction((m) =>
    saveQuestion(m, p, {
      questionId,
      sessionId: 's1',
      sessionAuthorId: author,
      autor: 'arquiteto',
      pergunta: `Which retention applies to archive ${serial}?`,
      sugestao: '90 days',
      afeta: { regras: [], historias: [], tarefas: [`T-${serial}`] },
      origin: 'agent',
      declaredAt,
    } as unknown as QuestionDeclared),
  );
  return questionId;
}

interface DeliveryRow {
  recipient_user_id: string;
  kind: string;
  notification: Notification;
}

async function deliveries(questionId: string): Promise<DeliveryRow[]> {
  return store.ds.query(
    `SELECT recipient_user_id, kind, notification FROM notification_delivery
      WHERE notification->'questions'->0->>'questionId' = $1 ORDER BY created_at, kind, recipient_user_id`,
    [questionId],
  );
}

const told = async (questionId: string) =>
  (await deliveries(questionId)).map((d) => `${d.kind}→${d.recipient_user_id}`);

// 2026-12-07 is a Monday; nobody set a working time: Mon–Fri 09:00–18:00 UTC.
const CLOCK = {
  dueAfter: { hours: 2 },
  reminders: [{ hours: 1 }],
  escalateAfter: { hours: 3 },
  escalateTo: 'maintainers',
};

it('reminds the author, says when it is due, then tells the maintainers who is late: each once', async () => {
  await project('clock-a', CLOCK, { ana: 'developer', mara: 'maintainer' });
  const q = await declare('clock-a', 'ana', '2026-12-07T09:00:00Z');
  const t = ticker();

  now = new Date('2026-12-07T09:59:00Z');
  expect(await t.tick()).toBe(0);
  now = new Date('2026-12-07T10:00:00Z');
  expect(await t.tick()).toBe(1);
  expect(await t.tick()).toBe(0); // the same instant again: nothing twice
  expect(await told(q)).toEqual(['question_reminder→ana']);

  now = new Date('2026-12-07T11:00:00Z');
  await t.tick();
  now = new Date('2026-12-07T12:00:00Z');
  await t.tick();
  await t.tick();
  expect(await told(q)).toEqual(['question_reminder→ana', 'question_due→ana', 'question_escalated→mara']);

  const [, due, escalation] = await deliveries(q);
  expect(due!.notification.clock).toMatchObject({ dueAt: '2026-12-07T11:00:00.000Z', step: 1 });
  expect(due!.notification.clock!.dueText).toBe('Mon 7 Dec, 11:00 (UTC)');
  // The escalation says who is late; it goes to someone who cannot answer, so no accept link.
  expect(escalation!.notification.clock!.late).toEqual(['ana']);
  expect(escalation!.notification.links.accept).toBeUndefined();
  // Nothing more is owed: the question is not looked at again.
  const [{ next_clock_at }] = await store.ds.query(
    `SELECT next_clock_at FROM notifier_question WHERE question_id = $1`,
    [q],
  );
  expect(next_clock_at).toBe(Infinity);
});

it('counts in business time: declared Friday evening, due Monday morning, nothing at the weekend', async () => {
  await project('clock-b', { dueAfter: { hours: 2 } }, { bia: 'developer' });
  const q = await declare('clock-b', 'bia', '2026-12-11T17:00:00Z'); // Friday, one working hour left
  const t = ticker();
  now = new Date('2026-12-12T12:00:00Z'); // Saturday
  await t.tick();
  now = new Date('2026-12-14T09:59:00Z'); // Monday, before 10:00
  await t.tick();
  expect(await told(q)).toEqual([]);
  now = new Date('2026-12-14T10:00:00Z');
  await t.tick();
  expect(await told(q)).toEqual(['question_due→bia']);
});

it('after an outage tells each person once where things stand, and records what it skipped', async () => {
  await project('clock-c', CLOCK, { caio: 'developer', mara: 'maintainer' });
  const q = await declare('clock-c', 'caio', '2026-12-07T09:00:00Z');
  now = new Date('2026-12-07T15:00:00Z'); // the reminder, the due time and the escalation all past
  await ticker().tick();
  expect(await told(q)).toEqual(['question_due→caio', 'question_escalated→mara']);
  const notices = await store.ds.query(
    `SELECT kind, recipient_user_id, coalesced FROM clock_notice WHERE question_id = $1 ORDER BY at, key`,
    [q],
  );
  expect(notices).toEqual([
    { kind: 'reminder', recipient_user_id: 'caio', coalesced: true },
    { kind: 'due', recipient_user_id: 'caio', coalesced: false },
    { kind: 'escalation', recipient_user_id: 'mara', coalesced: false },
  ]);
});

it('owes nothing for an answered or withdrawn question', async () => {
  await project('clock-d', CLOCK, { dani: 'developer', mara: 'maintainer' });
  const answered = await declare('clock-d', 'dani', '2026-12-07T09:00:00Z');
  const withdrawn = await declare('clock-d', 'dani', '2026-12-07T09:00:00Z');
  now = new Date('2026-12-07T10:00:00Z');
  await ticker().tick();
  expect(await told(answered)).toEqual(['question_reminder→dani']);
  const { sent } = await recordStatements(store.ds, () =>
    store.ds.transaction(async (m) => {
      await closeQuestion(m, answered, 'answered', '2026-12-07T10:05:00Z');
      await closeQuestion(m, withdrawn, 'withdrawn', '2026-12-07T10:05:00Z');
    }),
  );
  // The two closes' skips went as one statement, after both closes (the batch's shape).
  const skips = sent.filter((sql) => sql.includes('UPDATE notification_delivery'));
  expect(skips).toHaveLength(1);
  expect(sent.indexOf(skips[0]!)).toBeGreaterThan(
    sent.findLastIndex((sql) => sql.includes('notifier_question')),
  );
  now = new Date('2026-12-07T17:00:00Z');
  await ticker().tick();
  expect(await told(answered)).toEqual(['question_reminder→dani']);
  expect(await told(withdrawn)).toEqual(['question_reminder→dani']);
  // The reminders planned before the answer were never sent (no sender runs here): closing the
  // questions skipped them, with why, instead of telling Dani about questions that wait no more.
  const states = await store.ds.query(
    `SELECT notification->'questions'->0->>'questionId' AS q, status, last_error FROM notification_delivery
      WHERE project_id = 'clock-d'`,
  );
  expect(states).toEqual(
    expect.arrayContaining([
      { q: answered, status: 'skipped', last_error: 'pergunta_respondida' },
      { q: withdrawn, status: 'skipped', last_error: 'pergunta_retirada' },
    ]),
  );
  // A second close (a redelivered answer) changes nothing.
  await store.ds.transaction((m) => closeQuestion(m, answered, 'answered', '2026-12-07T11:00:00Z'));
  expect(
    await store.ds.query(
      `SELECT count(*)::int AS n FROM notification_delivery WHERE project_id = 'clock-d' AND status = 'skipped'`,
    ),
  ).toEqual([{ n: 2 }]);
});

it("closes a batch's answers in one statement, and a question the batch also declares at its own message", async () => {
  await project('clock-g', CLOCK, { gil: 'developer', mara: 'maintainer' });
  const [a, b, c] = (await Promise.all(
    Array.from({ length: 3 }, () => declare('clock-g', 'gil', '2026-12-07T09:00:00Z')),
  )) as [string, string, string];
  now = new Date('2026-12-07T10:00:00Z');
  await ticker().tick();
  const answered = (q: string, at: string) =>
    makeEnvelope(OpenqEvent.QuestionAnswered, 'clock-g', { questionId: q, answeredAt: at });
  // The batch as the notifier's durable brings it: c is declared again (a redelivery) before its answer.
  const batch = [
    answered(a, '2026-12-07T10:05:00Z'),
    makeEnvelope(OpenqEvent.QuestionDeclared, 'clock-g', { questionId: c }),
    answered(b, '2026-12-07T10:06:00Z'),
    answered(c, '2026-12-07T10:07:00Z'),
  ];
  const { value: known, sent } = await recordStatements(store.ds, () =>
    store.ds.transaction(async (m) => {
      const out = [];
      for (const e of batch)
        if (e.type === OpenqEvent.QuestionAnswered) {
          const { questionId, answeredAt } = e.data as { questionId: string; answeredAt: string };
          out.push(await closeAnsweredQuestion(m, batch, questionId, answeredAt));
        }
      return out;
    }),
  );
  expect(known.map((q) => q.questionId)).toEqual([a, b, c]);
  expect(known.every((q) => q.sessionAuthorId === 'gil' && q.askedBy === 'arquiteto')).toBe(true);
  const closes = sent.filter((sql) => sql.includes('UPDATE notifier_question'));
  // a and b in one statement at a's message; c, which the batch also names, at its own.
  expect(closes).toHaveLength(2);
  expect(closes[0]).toContain('unnest');
  const rows = await store.ds.query(
    `SELECT question_id, status, closed_at FROM notifier_question WHERE question_id = ANY($1::uuid[])
      ORDER BY closed_at`,
    [[a, b, c]],
  );
  expect(rows.map((r: { question_id: string; status: string; closed_at: Date }) => r.status)).toEqual([
    'answered',
    'answered',
    'answered',
  ]);
  expect(rows.map((r: { closed_at: Date }) => r.closed_at.toISOString())).toEqual([
    '2026-12-07T10:05:00.000Z',
    '2026-12-07T10:06:00.000Z',
    '2026-12-07T10:07:00.000Z',
  ]);
  // Each reminder planned before the answers was skipped, after the closes.
  for (const q of [a, b, c])
    expect(
      await store.ds.query(
        `SELECT status, last_error FROM notification_delivery WHERE notification->'questions'->0->>'questionId' = $1`,
        [q],
      ),
    ).toEqual([{ status: 'skipped', last_error: 'pergunta_respondida' }]);
  now = new Date('2026-12-07T17:00:00Z');
  await ticker().tick();
  for (const q of [a, b, c]) expect(await told(q)).toEqual(['question_reminder→gil']);
});

it('gives each notice once when several notifiers tick at the same instant', async () => {
  await project('clock-e', CLOCK, { edu: 'developer', mara: 'maintainer', rui: 'maintainer' });
  const questions = await Promise.all(
    Array.from({ length: 12 }, () => declare('clock-e', 'edu', '2026-12-07T09:00:00Z')),
  );
  now = new Date('2026-12-07T12:30:00Z');
  await Promise.all([ticker().tick(), ticker().tick(), ticker().tick()]);
  for (const q of questions) {
    expect(await told(q)).toEqual(['question_due→edu', 'question_escalated→mara', 'question_escalated→rui']);
  }
});

it('plans again when the author changes their working time', async () => {
  await project('clock-f', { dueAfter: { hours: 2 } }, { fil: 'developer' });
  const q = await declare('clock-f', 'fil', '2026-12-07T09:00:00Z');
  now = new Date('2026-12-07T09:30:00Z');
  await ticker().tick(); // planned: due at 11:00 UTC
  // Fil works 12:00–20:00 in São Paulo (UTC-3): 15:00–23:00 UTC; the two hours end at 17:00 UTC.
  const wt = parseWorkingTime({ timeZone: 'America/Sao_Paulo', start: '12:00', end: '20:00' });
  if (isRefusal(wt)) throw new Error(wt.message);
  await store.ds.transaction((m) => setWorkingTime(m, 'fil', wt));
  now = new Date('2026-12-07T11:00:00Z');
  await ticker().tick();
  expect(await told(q)).toEqual([]);
  now = new Date('2026-12-07T17:00:00Z');
  await ticker().tick();
  const [due] = await deliveries(q);
  expect(due!.kind).toBe('question_due');
  expect(due!.notification.clock!.dueText).toBe('Mon 7 Dec, 14:00 (America/Sao_Paulo)');
});
