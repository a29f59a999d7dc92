import fc from 'fast-check';
import { compareInstantsDesc, epochMillis, isoOfEpochMillis, parseTimestamp } from './timestamps';

describe('parseTimestamp', () => {
  it.each([
    '1970-01-01T00:00:00Z',
    '2026-06-17T10:00:00Z',
    '2026-06-17T10:00:00.5Z',
    '2024-02-29T23:59:59.999Z',
    '1999-12-31T23:30:00-03:30',
    '2100-03-01T00:00:00+14:00',
    '1960-07-04t12:00:00z',
  ])('%s agrees with Date.parse', (text) => {
    expect(parseTimestamp(text)).toBe(BigInt(Date.parse(text.toUpperCase())) * 1_000_000n);
  });

  it.each([
    '',
    '2026-6-17T10:00:00Z',
    '2026-13-01T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2026-06-17T24:00:00Z',
    '2026-06-17T10:00:00+25:00',
    '2026-06-17T10:00:00.1234567891Z',
  ])('rejects %j', (text) => {
    expect(parseTimestamp(text)).toBeNull();
  });
});

describe('epochMillis', () => {
  it('agrees with Date on every toISOString() instant', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1900-01-01T00:00:00Z'),
          max: new Date('2200-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        (d) => {
          expect(epochMillis(d.toISOString())).toBe(d.getTime());
        },
      ),
    );
  });

  it('honours offsets and fraction digits up to the nanosecond', () => {
    expect(epochMillis('1970-01-01T00:00:00Z')).toBe(0);
    expect(epochMillis('2026-11-05T10:00:00.5-03:00')).toBe(Date.parse('2026-11-05T13:00:00.500Z'));
    expect(epochMillis('2026-11-05T13:00:00+00:00')).toBe(epochMillis('2026-11-05T13:00:00.000000Z'));
  });

  it('refuses what is not an ISO-8601 instant, which then sorts last', () => {
    expect(epochMillis('yesterday')).toBeNull();
    expect(epochMillis('2026-11-05')).toBeNull();
    expect(['garbage', '2026-01-01T00:00:00Z'].sort(compareInstantsDesc)).toEqual([
      '2026-01-01T00:00:00Z',
      'garbage',
    ]);
  });
});

describe('compareInstantsDesc', () => {
  it('puts the newest first, to the nanosecond, and ties one instant written in two offsets', () => {
    expect(
      ['2026-06-17T10:00:00.123456Z', '2026-06-17T10:00:00.123457Z', '2026-06-17T09:00:00Z'].sort(
        compareInstantsDesc,
      ),
    ).toEqual(['2026-06-17T10:00:00.123457Z', '2026-06-17T10:00:00.123456Z', '2026-06-17T09:00:00Z']);
    expect(compareInstantsDesc('2026-06-17T10:00:00Z', '2026-06-17T12:00:00+02:00')).toBe(0);
  });
});

describe('isoOfEpochMillis', () => {
  it('writes what toISOString writes, and epochMillis reads it back, over years 0–9999', () => {
    let seed = 20261203;
    const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    for (let i = 0; i < 20_000; i++) {
      const epoch = Math.floor(-62_167_219_200_000 + next() * 315_537_897_599_999);
      const iso = new Date(epoch).toISOString();
      expect(isoOfEpochMillis(epoch)).toBe(iso);
      expect(epochMillis(iso)).toBe(epoch);
    }
  });
});
