import { isRefusal } from '@openq/contracts';
import { DEFAULT_WORKING_TIME, parseWorkingTime } from './working-time';

function refusedWith(input: unknown) {
  const result = parseWorkingTime(input);
  if (!isRefusal(result)) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return { reason: result.reason, field: result.details?.['field'], statusCode: result.statusCode };
}

describe('parseWorkingTime', () => {
  it('gives the defaults to someone who set nothing: Monday to Friday, 09:00–18:00 UTC, no quiet hours', () => {
    expect(parseWorkingTime(undefined)).toEqual({
      timeZone: 'UTC',
      days: [1, 2, 3, 4, 5],
      start: '09:00',
      end: '18:00',
    });
    expect(parseWorkingTime({})).toEqual(DEFAULT_WORKING_TIME);
  });

  it('fills only the missing fields and keeps what was set, days in order', () => {
    expect(
      parseWorkingTime({
        timeZone: 'Asia/Kolkata',
        days: [6, 1, 2],
        end: '24:00',
        quietHours: { start: '22:00', end: '07:00' },
      }),
    ).toEqual({
      timeZone: 'Asia/Kolkata',
      days: [1, 2, 6],
      start: '09:00',
      end: '24:00',
      quietHours: { start: '22:00', end: '07:00' },
    });
  });

  it('refuses a time zone Intl does not know, naming the field', () => {
    expect(refusedWith({ timeZone: 'Mars/Olympus_Mons' })).toEqual({
      reason: 'fuso_horario_desconhecido',
      field: 'timeZone',
      statusCode: 400,
    });
    expect(refusedWith({ timeZone: 42 })).toMatchObject({ reason: 'horario_invalido', field: 'timeZone' });
  });

  it.each([
    [{ days: [] }, 'days'],
    [{ days: [0, 1] }, 'days'],
    [{ days: [1, 1] }, 'days'],
    [{ days: [1.5] }, 'days'],
    [{ days: 'weekdays' }, 'days'],
    [{ start: '9:00' }, 'start'],
    [{ start: '24:00' }, 'start'],
    [{ end: '18:60' }, 'end'],
    [{ start: '18:00', end: '09:00' }, 'end'],
    [{ start: '09:00', end: '09:10' }, 'end'],
    [{ quietHours: { start: '12:00' } }, 'quietHours.end'],
    [{ quietHours: { start: '12:00', end: '12:00' } }, 'quietHours.end'],
    [{ quietHours: { start: '12:00', end: '13:00', weekends: true } }, 'quietHours.weekends'],
    [{ quietHours: 'nights' }, 'quietHours'],
    [{ timezone: 'UTC' }, 'timezone'],
    ['09-18', ''],
  ])('refuses %j with horario_invalido on %s', (input, field) => {
    expect(refusedWith(input)).toEqual({ reason: 'horario_invalido', field, statusCode: 400 });
  });

  it('refuses quiet hours that leave no minute of the working window to notify in', () => {
    expect(refusedWith({ quietHours: { start: '08:00', end: '19:00' } })).toMatchObject({
      reason: 'silencio_cobre_o_expediente',
      field: 'quietHours',
    });
    expect(
      refusedWith({ quietHours: { start: '17:00', end: '18:30' }, start: '17:30', end: '18:00' }),
    ).toMatchObject({ reason: 'silencio_cobre_o_expediente' });
    // Straddling midnight and leaving 08:00–09:00 of a 06:00–09:00 window: accepted.
    expect(
      parseWorkingTime({ start: '06:00', end: '09:00', quietHours: { start: '21:00', end: '08:00' } }),
    ).toEqual(expect.objectContaining({ quietHours: { start: '21:00', end: '08:00' } }));
  });
});
