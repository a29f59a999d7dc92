import { isRefusal } from '@openq/contracts';
import { durationMinutes, parseClockPolicy } from './clock-policy';

function refusedWith(input: unknown) {
  const result = parseClockPolicy(input);
  if (!isRefusal(result)) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return { reason: result.reason, field: result.details?.['field'], statusCode: result.statusCode };
}

describe('parseClockPolicy', () => {
  it('reads a full policy and defaults escalateTo to the maintainers and reminders to none', () => {
    expect(
      parseClockPolicy({
        dueAfter: { hours: 8 },
        reminders: [{ hours: 4 }, { hours: 7, minutes: 30 }, { hours: 12 }],
        escalateAfter: { hours: 16 },
        escalateTo: { users: ['lead-1', 'po_2'] },
      }),
    ).toEqual({
      dueAfter: { hours: 8 },
      reminders: [{ hours: 4 }, { hours: 7, minutes: 30 }, { hours: 12 }],
      escalateAfter: { hours: 16 },
      escalateTo: { users: ['lead-1', 'po_2'] },
    });
    expect(parseClockPolicy({ dueAfter: { minutes: 90 } })).toEqual({
      dueAfter: { minutes: 90 },
      reminders: [],
      escalateTo: 'maintainers',
    });
    expect(
      parseClockPolicy({ dueAfter: { hours: 1 }, escalateAfter: { hours: 1 }, escalateTo: 'maintainers' }),
    ).toEqual({
      dueAfter: { hours: 1 },
      reminders: [],
      escalateAfter: { hours: 1 },
      escalateTo: 'maintainers',
    });
  });

  it('counts a duration in minutes', () => {
    expect(durationMinutes({ hours: 2, minutes: 15 })).toBe(135);
    expect(durationMinutes({ minutes: 5 })).toBe(5);
  });

  it.each([
    [null, ''],
    [{}, 'dueAfter'],
    [{ dueAfter: 8 }, 'dueAfter'],
    [{ dueAfter: {} }, 'dueAfter'],
    [{ dueAfter: { hours: 0, minutes: 0 } }, 'dueAfter'],
    [{ dueAfter: { hours: -1 } }, 'dueAfter.hours'],
    [{ dueAfter: { hours: 1.5 } }, 'dueAfter.hours'],
    [{ dueAfter: { minutes: '30' } }, 'dueAfter.minutes'],
    [{ dueAfter: { days: 1 } }, 'dueAfter.days'],
    [{ dueAfter: { hours: 1001 } }, 'dueAfter'],
    [{ dueAfter: { hours: 8 }, reminders: { hours: 1 } }, 'reminders'],
    [
      { dueAfter: { hours: 8 }, reminders: Array.from({ length: 11 }, (_, i) => ({ minutes: i + 1 })) },
      'reminders',
    ],
    [{ dueAfter: { hours: 8 }, reminders: [{ hours: 1 }, { hours: 0 }] }, 'reminders[1]'],
    [{ dueAfter: { hours: 8 }, escalateAfter: [] }, 'escalateAfter'],
    [{ dueAfter: { hours: 8 }, escalateTo: 'everyone' }, 'escalateTo'],
    [{ dueAfter: { hours: 8 }, escalateTo: { users: [] } }, 'escalateTo.users'],
    [{ dueAfter: { hours: 8 }, escalateTo: { users: ['a', 'a'] } }, 'escalateTo.users'],
    [{ dueAfter: { hours: 8 }, escalateTo: { users: ['ok', 'not ok'] } }, 'escalateTo.users[1]'],
    [{ dueAfter: { hours: 8 }, escalateTo: { users: ['a'], roles: ['owner'] } }, 'escalateTo.roles'],
    [{ dueAfter: { hours: 8 }, answerWith: 'the suggestion' }, 'answerWith'],
  ])('refuses %j with politica_invalida on %s', (input, field) => {
    expect(refusedWith(input)).toEqual({ reason: 'politica_invalida', field, statusCode: 400 });
  });

  it('refuses reminders that do not increase', () => {
    expect(refusedWith({ dueAfter: { hours: 8 }, reminders: [{ hours: 4 }, { hours: 2 }] })).toEqual({
      reason: 'lembretes_fora_de_ordem',
      field: 'reminders[1]',
      statusCode: 400,
    });
    expect(
      refusedWith({ dueAfter: { hours: 8 }, reminders: [{ hours: 2 }, { minutes: 120 }] }),
    ).toMatchObject({
      reason: 'lembretes_fora_de_ordem',
      field: 'reminders[1]',
    });
  });

  it('refuses a reminder at the due time, which the due notice already says', () => {
    expect(
      refusedWith({ dueAfter: { hours: 8 }, reminders: [{ hours: 4 }, { minutes: 480 }] }),
    ).toMatchObject({
      reason: 'lembrete_no_prazo',
      field: 'reminders[1]',
    });
  });

  it('accepts reminders after the due time', () => {
    expect(
      parseClockPolicy({ dueAfter: { hours: 2 }, reminders: [{ hours: 1 }, { hours: 4 }] }),
    ).toMatchObject({
      reminders: [{ hours: 1 }, { hours: 4 }],
    });
  });

  it('refuses an escalation before the due time or before a reminder', () => {
    expect(refusedWith({ dueAfter: { hours: 8 }, escalateAfter: { hours: 7 } })).toEqual({
      reason: 'escalonamento_antes_do_prazo',
      field: 'escalateAfter',
      statusCode: 400,
    });
    expect(
      refusedWith({
        dueAfter: { hours: 8 },
        reminders: [{ hours: 4 }, { hours: 12 }],
        escalateAfter: { hours: 10 },
      }),
    ).toEqual({ reason: 'escalonamento_antes_de_lembrete', field: 'escalateAfter', statusCode: 400 });
    expect(
      refusedWith({ dueAfter: { hours: 8 }, reminders: [{ hours: 10 }], escalateAfter: { hours: 10 } }),
    ).toMatchObject({ reason: 'escalonamento_antes_de_lembrete' });
  });
});
