import type { Notification } from './channel';
import {
  digestDue,
  digestId,
  DigestScheduleError,
  nextDigestSlot,
  renderDigest,
  validateDigestSchedule,
  type DigestSchedule,
} from './digest';
import { sampleNotification } from './templates/sample-notification';

const slot = (schedule: DigestSchedule, after: string) =>
  nextDigestSlot(schedule, new Date(after)).toISOString();

describe('nextDigestSlot, hourly', () => {
  it('is the top of the next hour, strictly after', () => {
    expect(slot({ mode: 'hourly' }, '2026-12-01T10:20:30.500Z')).toBe('2026-12-01T11:00:00.000Z');
    expect(slot({ mode: 'hourly' }, '2026-12-01T11:00:00.000Z')).toBe('2026-12-01T12:00:00.000Z');
    expect(slot({ mode: 'hourly' }, '2026-12-31T23:59:59.999Z')).toBe('2027-01-01T00:00:00.000Z');
  });

  it("follows the user's clock where the offset is not whole hours", () => {
    // 15:30 in Kolkata (+05:30): the next top of the hour is 16:00 there, 10:30Z.
    expect(slot({ mode: 'hourly', timeZone: 'Asia/Kolkata' }, '2026-12-01T10:00:00.000Z')).toBe(
      '2026-12-01T10:30:00.000Z',
    );
  });

  it('steps over a spring-forward gap (New York, 2026-03-08: 02:00 → 03:00)', () => {
    // 01:30 EST → 03:00 EDT, one real hour later.
    expect(slot({ mode: 'hourly', timeZone: 'America/New_York' }, '2026-03-08T06:30:00.000Z')).toBe(
      '2026-03-08T07:00:00.000Z',
    );
  });

  it('counts both 01:00s of a fall-back night (New York, 2026-11-01)', () => {
    const ny = { mode: 'hourly', timeZone: 'America/New_York' } as const;
    expect(slot(ny, '2026-11-01T05:30:00.000Z')).toBe('2026-11-01T06:00:00.000Z'); // 01:30 EDT → 01:00 EST
    expect(slot(ny, '2026-11-01T06:30:00.000Z')).toBe('2026-11-01T07:00:00.000Z'); // 01:30 EST → 02:00 EST
  });
});

describe('nextDigestSlot, daily', () => {
  it('defaults to 09:00 UTC, today if still ahead, else tomorrow', () => {
    expect(slot({ mode: 'daily' }, '2026-12-01T08:59:59.999Z')).toBe('2026-12-01T09:00:00.000Z');
    expect(slot({ mode: 'daily' }, '2026-12-01T09:00:00.000Z')).toBe('2026-12-02T09:00:00.000Z');
    expect(slot({ mode: 'daily' }, '2026-12-31T10:00:00.000Z')).toBe('2027-01-01T09:00:00.000Z');
  });

  it('takes the hour on the user clock (São Paulo, UTC-3 all year since 2019)', () => {
    const sp = { mode: 'daily', timeZone: 'America/Sao_Paulo' } as const;
    expect(slot(sp, '2026-12-01T11:59:00.000Z')).toBe('2026-12-01T12:00:00.000Z');
    expect(slot(sp, '2026-12-01T13:00:00.000Z')).toBe('2026-12-02T12:00:00.000Z');
    expect(slot({ ...sp, hour: 18 }, '2026-01-15T13:00:00.000Z')).toBe('2026-01-15T21:00:00.000Z');
  });

  it('keeps 09:00 local across the spring change (Lisbon, 2026-03-29: WET → WEST)', () => {
    const lisbon = { mode: 'daily', timeZone: 'Europe/Lisbon' } as const;
    expect(slot(lisbon, '2026-03-27T10:00:00.000Z')).toBe('2026-03-28T09:00:00.000Z'); // Saturday, WET
    expect(slot(lisbon, '2026-03-28T10:00:00.000Z')).toBe('2026-03-29T08:00:00.000Z'); // Sunday, WEST
  });

  it('keeps 09:00 local across the autumn change (Lisbon, 2026-10-25: WEST → WET)', () => {
    const lisbon = { mode: 'daily', timeZone: 'Europe/Lisbon' } as const;
    expect(slot(lisbon, '2026-10-23T09:00:00.000Z')).toBe('2026-10-24T08:00:00.000Z');
    expect(slot(lisbon, '2026-10-24T09:00:00.000Z')).toBe('2026-10-25T09:00:00.000Z');
  });

  it('sends at the jump when the hour is skipped (Lisbon 01:00, New York 02:00)', () => {
    expect(slot({ mode: 'daily', timeZone: 'Europe/Lisbon', hour: 1 }, '2026-03-28T23:30:00.000Z')).toBe(
      '2026-03-29T01:00:00.000Z', // 02:00 WEST, the moment 01:00 WET would have been
    );
    expect(slot({ mode: 'daily', timeZone: 'America/New_York', hour: 2 }, '2026-03-08T05:00:00.000Z')).toBe(
      '2026-03-08T07:00:00.000Z', // 03:00 EDT
    );
    expect(slot({ mode: 'daily', timeZone: 'America/New_York', hour: 2 }, '2026-03-08T07:00:00.000Z')).toBe(
      '2026-03-09T06:00:00.000Z', // back to 02:00 EDT the day after
    );
  });

  it('sends once, at the first, when the hour happens twice (New York 01:00 on 2026-11-01)', () => {
    const ny = { mode: 'daily', timeZone: 'America/New_York', hour: 1 } as const;
    expect(slot(ny, '2026-11-01T04:00:00.000Z')).toBe('2026-11-01T05:00:00.000Z'); // 01:00 EDT
    expect(slot(ny, '2026-11-01T05:00:00.000Z')).toBe('2026-11-02T06:00:00.000Z'); // not 01:00 EST again
  });

  it('handles midnight', () => {
    expect(slot({ mode: 'daily', timeZone: 'America/New_York', hour: 0 }, '2026-12-01T12:00:00.000Z')).toBe(
      '2026-12-02T05:00:00.000Z',
    );
    expect(slot({ mode: 'daily', timeZone: 'Europe/Lisbon', hour: 0 }, '2026-07-01T22:59:00.000Z')).toBe(
      '2026-07-01T23:00:00.000Z',
    );
  });
});

describe('schedule validation', () => {
  const reasonOf = (schedule: DigestSchedule) => {
    try {
      validateDigestSchedule(schedule);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(DigestScheduleError);
      return (error as DigestScheduleError).reason;
    }
  };

  it('refuses an unknown zone, an hour outside 0..23 and an unknown mode with stable reasons', () => {
    expect(reasonOf({ mode: 'daily', timeZone: 'Mars/Olympus_Mons' })).toBe('fuso_horario_invalido');
    expect(reasonOf({ mode: 'daily', hour: 24 })).toBe('hora_digest_invalida');
    expect(reasonOf({ mode: 'daily', hour: 8.5 })).toBe('hora_digest_invalida');
    expect(reasonOf({ mode: 'weekly' as 'daily' })).toBe('modo_digest_invalido');
    expect(reasonOf({ mode: 'hourly', timeZone: 'Europe/Lisbon', hour: 23 })).toBeNull();
    expect(() => nextDigestSlot({ mode: 'daily', timeZone: 'Nowhere' }, new Date())).toThrow(
      DigestScheduleError,
    );
  });
});

describe('digestDue', () => {
  const at = (id: string, occurredAt: string) => sampleNotification({ id, occurredAt });

  it('is null with nothing pending', () => {
    expect(digestDue([], { mode: 'hourly' }, new Date('2026-12-01T10:00:00Z'))).toBeNull();
  });

  it('is the slot after the oldest pending notification, due once now reaches it', () => {
    const pending = [at('b', '2026-12-01T10:40:00.000Z'), at('a', '2026-12-01T10:20:00.000Z')];
    expect(digestDue(pending, { mode: 'hourly' }, new Date('2026-12-01T10:59:59.999Z'))).toEqual({
      dueAt: new Date('2026-12-01T11:00:00.000Z'),
      due: false,
    });
    expect(digestDue(pending, { mode: 'hourly' }, new Date('2026-12-01T11:00:00.000Z'))?.due).toBe(true);
  });

  it('is due at once when the slot was missed (the notifier was down)', () => {
    const pending = [at('a', '2026-12-01T08:10:00.000Z')];
    expect(digestDue(pending, { mode: 'hourly' }, new Date('2026-12-01T11:05:00.000Z'))).toEqual({
      dueAt: new Date('2026-12-01T09:00:00.000Z'),
      due: true,
    });
  });

  it("waits for the daily hour on the user's clock", () => {
    const pending = [at('a', '2026-12-01T14:00:00.000Z')];
    const schedule = { mode: 'daily', timeZone: 'America/Sao_Paulo', hour: 9 } as const;
    expect(digestDue(pending, schedule, new Date('2026-12-02T11:59:00.000Z'))).toEqual({
      dueAt: new Date('2026-12-02T12:00:00.000Z'),
      due: false,
    });
  });

  it('refuses an invalid occurredAt', () => {
    expect(() => digestDue([at('a', 'yesterday')], { mode: 'hourly' }, new Date())).toThrow(RangeError);
  });
});

describe('renderDigest', () => {
  const q = (questionId: string, pergunta: string) => ({
    questionId,
    pergunta,
    sugestao: null,
    autor: 'po',
    afeta: { regras: [], historias: [], tarefas: [] },
  });
  const list: Notification[] = [
    sampleNotification({
      id: 'n3',
      projectId: 'zeta',
      kind: 'question_declared',
      gate: undefined,
      questions: [q('q-z', 'Zeta question?')],
      links: { open: 'https://o.example/zeta/q-z' },
    }),
    sampleNotification({
      id: 'n2',
      kind: 'gate_resumed',
      gate: { taskId: 'T-101', gate: 'qa', trigger: 'answer' },
      occurredAt: '2026-12-01T15:00:00.000Z',
      links: { open: 'https://o.example/acme/t-101' },
    }),
    sampleNotification({ id: 'n1' }),
    sampleNotification({
      id: 'n0',
      kind: 'question_declared',
      gate: undefined,
      questions: [q('q-a', 'Is <b>this</b> & that fine?')],
      links: { open: 'https://o.example/acme/q-a', accept: 'https://o.example/l/accept/a' },
    }),
  ];

  it('lists everything in one e-mail, by project, then waiting kinds first, with each one its links', () => {
    const digest = renderDigest(list, { mode: 'daily' });
    expect(digest.subject).toBe('[openq] Your daily openq digest: 4 updates, 3 waiting for your decision');
    const order = [
      '== Project acme ==',
      '-- Gates waiting for your decision --',
      '* QA gate on T-101 is waiting for your decision',
      'Accept the suggestion: https://openq.example.com/l/accept/tok-123',
      '-- Questions waiting for your decision --',
      '• Is <b>this</b> & that fine?',
      'Accept the suggestion: https://o.example/l/accept/a',
      '-- Resumed --',
      '* QA gate on T-101 resumed with your decision',
      'Open in openq: https://o.example/acme/t-101',
      '== Project zeta ==',
      '• Zeta question?',
      'Open in openq: https://o.example/zeta/q-z',
    ].map((line) => digest.text.indexOf(line));
    expect(order).not.toContain(-1);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(digest.listed).toBe(4);
    expect(digest.text).not.toContain('Decision needed:'); // a question's entry does not say its question twice
    expect(digest.html).toContain('<h2 style="');
    expect(digest.html).toContain('>Project zeta</h2>');
    expect(digest.html).toContain('Is &lt;b&gt;this&lt;/b&gt; &amp; that fine?');
    expect(digest.html).not.toContain('<b>this</b>');
    expect(digest.html).toContain('<a href="https://o.example/l/accept/a"');
    expect(digest.html).toContain('<a href="https://o.example/zeta/q-z"');
  });

  it('has an id that depends on the set of notifications, not their order', () => {
    expect(renderDigest(list, { mode: 'hourly' }).id).toBe(
      renderDigest([...list].reverse(), { mode: 'hourly' }).id,
    );
    expect(digestId(list)).toMatch(/^digest-[0-9a-f]{32}$/);
    expect(digestId(list.slice(1))).not.toBe(digestId(list));
  });

  it('caps the list and counts the rest', () => {
    const digest = renderDigest(list, { mode: 'hourly', maxItems: 2 });
    expect(digest.listed).toBe(2);
    expect(digest.text).toContain('…and 2 more updates. Open openq to see them all.');
    expect(digest.text).not.toContain('Project zeta');
    expect(digest.subject).toBe('[openq] Your hourly openq digest: 4 updates, 3 waiting for your decision');
  });

  it('says a single update without "waiting" when nothing waits', () => {
    const digest = renderDigest([list[1]!], { mode: 'hourly' });
    expect(digest.subject).toBe('[openq] Your hourly openq digest: 1 update');
  });

  it('refuses an empty digest', () => {
    expect(() => renderDigest([], { mode: 'daily' })).toThrow(RangeError);
  });
});
