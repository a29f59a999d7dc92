import crypto from 'node:crypto';
import { ServiceTokenMatcher } from './service-token';

describe('ServiceTokenMatcher', () => {
  const current = 'c'.repeat(40);
  const previous = 'p'.repeat(40);
  const matcher = new ServiceTokenMatcher([current, previous]);

  it('accepts the current and the previous token (rotation)', () => {
    expect(matcher.matches(current)).toBe(true);
    expect(matcher.matches(previous)).toBe(true);
  });

  it.each([
    ['a wrong token', 'x'.repeat(40)],
    ['a prefix of the token', current.slice(0, 39)],
    ['the token plus one character', `${current}c`],
    ['an empty value', ''],
    ['no value', null],
  ])('refuses %s', (_what, presented) => {
    expect(matcher.matches(presented)).toBe(false);
  });

  it('compares equal-length digests with timingSafeEqual, against every accepted token', () => {
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    try {
      matcher.matches('short');
      matcher.matches(current);
      expect(spy).toHaveBeenCalledTimes(4);
      for (const [a, b] of spy.mock.calls) expect((a as Buffer).length).toBe((b as Buffer).length);
    } finally {
      spy.mockRestore();
    }
  });

  it('needs at least one token', () => {
    expect(() => new ServiceTokenMatcher([''])).toThrow();
  });
});
