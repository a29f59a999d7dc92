import { createHmac } from 'node:crypto';
import { signatureHeader, verifySignature } from './signature';

const SECRET = 'whsec-0123456789abcdef';
const BODY = '{"id":"d1","kind":"question_declared"}';
const T = 1_764_590_000;

describe('webhook signature', () => {
  it('is t=<unix>,v1=<hex hmac-sha256(secret, t.body)>', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(signatureHeader(SECRET, T, BODY)).toBe(`t=${T},v1=${expected}`);
  });

  it('verifies within the tolerance', () => {
    expect(verifySignature(SECRET, signatureHeader(SECRET, T, BODY), BODY, T + 299)).toEqual({
      ok: true,
      timestamp: T,
    });
  });

  it('refuses an old timestamp (a replay), a changed body, another secret, and garbage', () => {
    const header = signatureHeader(SECRET, T, BODY);
    expect(verifySignature(SECRET, header, BODY, T + 301)).toEqual({ ok: false, reason: 'stale' });
    expect(verifySignature(SECRET, header, `${BODY} `, T)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySignature('another-secret-xyz', header, BODY, T)).toEqual({ ok: false, reason: 'mismatch' });
    // a replay with a fresh timestamp but the old signature does not match
    const forged = header.replace(`t=${T}`, `t=${T + 1000}`);
    expect(verifySignature(SECRET, forged, BODY, T + 1000)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySignature(SECRET, 'v1=abc', BODY, T)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature(SECRET, undefined, BODY, T)).toEqual({ ok: false, reason: 'malformed' });
  });
});
