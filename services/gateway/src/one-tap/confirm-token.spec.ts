import { checkConfirmToken, CONFIRM_TTL_MS, makeConfirmToken } from './confirm-token';

const SECRET = 'l'.repeat(40);
const LINK = '0190f5b2-7c1e-7a3b-9d4e-1f2a3b4c5d6e';
const NOW = Date.parse('2026-12-01T12:00:00Z');

describe('the confirm page form token', () => {
  it('is good for the link it was made for, for an hour', () => {
    const token = makeConfirmToken(SECRET, LINK, NOW);
    expect(checkConfirmToken([SECRET], LINK, token, NOW + 1000)).toBe(true);
    expect(checkConfirmToken([SECRET], LINK, token, NOW + CONFIRM_TTL_MS)).toBe(true);
    expect(checkConfirmToken([SECRET], LINK, token, NOW + CONFIRM_TTL_MS + 1)).toBe(false);
  });

  it('is refused for another link, another secret, a changed time or a changed MAC, or none', () => {
    const token = makeConfirmToken(SECRET, LINK, NOW);
    const [at, mac] = token.split('.') as [string, string];
    expect(checkConfirmToken([SECRET], '0190f5b2-7c1e-7a3b-9d4e-1f2a3b4c5d6f', token, NOW)).toBe(false);
    expect(checkConfirmToken(['o'.repeat(40)], LINK, token, NOW)).toBe(false);
    expect(checkConfirmToken([SECRET], LINK, `${Number(at) + 1}.${mac}`, NOW)).toBe(false);
    expect(
      checkConfirmToken([SECRET], LINK, `${at}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`, NOW),
    ).toBe(false);
    expect(checkConfirmToken([SECRET], LINK, undefined, NOW)).toBe(false);
    expect(checkConfirmToken([SECRET], LINK, ['x'], NOW)).toBe(false);
  });

  it('made with the previous secret still passes during a rotation', () => {
    const token = makeConfirmToken('o'.repeat(40), LINK, NOW);
    expect(checkConfirmToken([SECRET, 'o'.repeat(40)], LINK, token, NOW)).toBe(true);
  });
});
