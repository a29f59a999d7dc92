import 'reflect-metadata';
import { validateAs } from '../validation';
import { AnalyticsQuery, analyticsCsv, analyticsPeriod, isDay, type AnalyticsRow } from './analytics';

const NOW = new Date('2026-12-03T07:30:00Z');

describe('question quality: the window and the CSV (SPEC §12.4)', () => {
  it('takes days that exist, written YYYY-MM-DD', () => {
    expect(['2026-12-03', '2024-02-29'].map(isDay)).toEqual([true, true]);
    expect(
      ['2026-02-29', '2026-13-01', '2026-1-01', '2026-12-03T00:00:00Z', 20261203, null].map(isDay),
    ).toEqual([false, false, false, false, false, false]);
  });

  it('names the malformed parameter; by defaults to week', () => {
    const bad = validateAs(AnalyticsQuery, { from: '03/12/2026' }, 'parametro_invalido');
    expect(bad).toMatchObject({ ok: false, reason: 'parametro_invalido', field: 'from' });
    expect(validateAs(AnalyticsQuery, { by: 'month' }, 'parametro_invalido')).toMatchObject({ field: 'by' });
    expect(validateAs(AnalyticsQuery, { extra: '1' }, 'parametro_invalido')).toMatchObject({ ok: false });
    expect(validateAs(AnalyticsQuery, {}, 'parametro_invalido')).toMatchObject({
      ok: true,
      value: { by: 'week' },
    });
  });

  it('fills the defaults (84 days up to today, UTC) and refuses a window that is not one', () => {
    expect(analyticsPeriod({}, NOW)).toEqual({ ok: true, from: '2026-09-11', to: '2026-12-03' });
    expect(analyticsPeriod({ to: '2026-03-01' }, NOW)).toEqual({
      ok: true,
      from: '2025-12-08',
      to: '2026-03-01',
    });
    expect(analyticsPeriod({ from: '2026-12-03', to: '2026-12-03' }, NOW)).toMatchObject({ ok: true });
    expect(analyticsPeriod({ from: '2025-12-03', to: '2026-12-03' }, NOW)).toMatchObject({ ok: true }); // 366 days
    expect(analyticsPeriod({ from: '2025-12-02', to: '2026-12-03' }, NOW)).toMatchObject({
      ok: false,
      reason: 'periodo_invalido',
    });
    expect(analyticsPeriod({ from: '2026-12-04' }, NOW)).toMatchObject({
      ok: false,
      reason: 'periodo_invalido',
    });
  });

  it('writes the rows as CSV: the field names, then one line per row, empty for null', () => {
    const row: AnalyticsRow = {
      key: 'qa-agent',
      asked: 3,
      joined: 0,
      precedents: 1,
      withdrawn: 0,
      answeredByClick: 2,
      answeredByAgent: 1,
      suggestionAccepted: 2,
      amended: 0,
      answerMinutesP50: 12.5,
      answerMinutesP90: 40.25,
      parkedMinutesP50: null,
    };
    expect(analyticsCsv([row]).split('\r\n')).toEqual([
      'key,asked,joined,precedents,withdrawn,answeredByClick,answeredByAgent,suggestionAccepted,amended,answerMinutesP50,answerMinutesP90,parkedMinutesP50',
      'qa-agent,3,0,1,0,2,1,2,0,12.5,40.25,',
      '',
    ]);
    expect(analyticsCsv([])).toBe(
      'key,asked,joined,precedents,withdrawn,answeredByClick,answeredByAgent,suggestionAccepted,amended,answerMinutesP50,answerMinutesP90,parkedMinutesP50\r\n',
    );
  });
});
