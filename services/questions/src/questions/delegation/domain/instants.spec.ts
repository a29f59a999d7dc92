import { epochMillis, isoOf } from './instants';

describe('grant instants without the Date global', () => {
  it.each([
    '2026-12-03T10:00:00Z',
    '2026-01-01T00:00:00.1239Z',
    '2026-01-01T10:00:00.000000001Z',
    '1999-12-31T23:59:59.999-03:00',
    '2026-01-01T10:00:00+05:30',
    '2026-01-01T10:00:00-00:45',
    '2026-01-01T10:00:00+23:59',
    '2026-02-30T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2028-02-29T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '0000-01-01T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-01T00:00:00Z',
    '2026-01-00T00:00:00Z',
    '2026-01-32T00:00:00Z',
    '2026-01-01T23:60:00Z',
    '2026-01-01T23:59:60Z',
    '2026-01-01T24:00:01Z',
    '2026-01-01T24:00:00.001Z',
    '2026-01-01T10:00:00+25:00',
    '2026-01-01T10:00:00+12:60',
    'soon',
    '2026-12-03',
  ])('reads %s as Date.parse does', (text) => {
    const parsed = Date.parse(text);
    const expected = Number.isNaN(parsed) || !/T.*(Z|[+-]\d{2}:\d{2})$/.test(text) ? null : parsed;
    expect(epochMillis(text)).toBe(expected);
  });

  it('writes what toISOString writes, and reads it back, over years 0–9999', () => {
    let seed = 20261203;
    const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    for (let i = 0; i < 20_000; i++) {
      const epoch = Math.floor(-62_167_219_200_000 + next() * 315_537_897_599_999);
      const iso = new Date(epoch).toISOString();
      expect(isoOf(epoch)).toBe(iso);
      expect(epochMillis(iso)).toBe(epoch);
    }
  });
});
