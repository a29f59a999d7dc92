import { IsOptional } from 'class-validator';
import { validateAs } from './validation';
import {
  CharLength,
  ClassRule,
  IntFromString,
  IntRange,
  charCount,
  isPresent,
  isTimestamp,
} from './validators';
import { failingField } from './testing/examples';

describe('charCount', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(charCount('abc')).toBe(3);
    expect(charCount('😀😀')).toBe(2);
    expect('😀😀').toHaveLength(4);
  });
});

describe('isTimestamp', () => {
  it.each(['2026-11-05T12:00:00.000Z', '2026-11-05T12:00:00Z', '2026-11-05T09:00:00-03:00'])(
    'accepts %s',
    (v) => {
      expect(isTimestamp(v)).toBe(true);
    },
  );

  it.each(['2026-11-05', '2026-11-05T12:00:00', '2026-13-45T99:00:00Z', 'now', 1730000000000, null])(
    'refuses %s',
    (v) => {
      expect(isTimestamp(v)).toBe(false);
    },
  );
});

describe('ClassRule', () => {
  @ClassRule<Pair>('a|b', (o) => isPresent(o.a) !== isPresent(o.b), 'exactly one of a or b')
  class Pair {
    @IsOptional()
    @CharLength(1, 3)
    a?: string;

    @IsOptional()
    @IntFromString()
    @IntRange(1, 9)
    b?: number;
  }

  it('reports a field’s own error before the rule', () => {
    expect(failingField(validateAs(Pair, { a: 'toolong' }))).toBe('a');
    expect(failingField(validateAs(Pair, { b: 'x' }))).toBe('b');
  });

  it('reports the rule under its synthetic name, and only the rule', () => {
    expect(validateAs(Pair, {})).toMatchObject({
      ok: false,
      field: 'a|b',
      message: 'a|b: exactly one of a or b',
    });
    expect(failingField(validateAs(Pair, { a: 'x', b: '2' }))).toBe('a|b');
    expect(validateAs(Pair, { b: '2' })).toEqual({ ok: true, value: expect.objectContaining({ b: 2 }) });
  });

  it('is never mistaken for a field sent on the wire', () => {
    expect(validateAs(Pair, { a: 'x', 'a|b': 1 })).toMatchObject({
      ok: false,
      message: 'a|b: property a|b should not exist',
    });
  });
});
