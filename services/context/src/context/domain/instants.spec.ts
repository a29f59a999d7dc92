import fc from 'fast-check';
import { compareInstantsDesc, epochMillis } from './instants';

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

  it('honours offsets and any number of fraction digits', () => {
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
