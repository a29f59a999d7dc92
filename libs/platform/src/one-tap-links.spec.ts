import { LinkReason, linkUrl, mintOneTapLink, verifyOneTapLink, type OneTapLinkInput } from './one-tap-links';

const SECRET = 'k'.repeat(40);
const OTHER = 'o'.repeat(40);
const NOW = new Date('2026-12-01T12:00:00Z');
const input: OneTapLinkInput = {
  projectId: 'demo',
  questionId: '0190f5b2-7c1e-7a3b-9d4e-1f2a3b4c5d6e',
  userId: 'ana',
  action: 'accept',
};
const at = (ms: number) => new Date(NOW.getTime() + ms);

describe('one-tap links', () => {
  it('round-trips what the link is bound to, with a UUID v7 link id and a 72 h default lifetime', async () => {
    const token = await mintOneTapLink(input, { secret: SECRET, now: NOW });
    const verified = await verifyOneTapLink(token, { secrets: [SECRET], now: NOW });
    expect(verified.ok).toBe(true);
    if (!verified.ok) return;
    expect(verified.link).toMatchObject(input);
    expect(verified.link.linkId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(verified.link.expiresAt.toISOString()).toBe('2026-12-04T12:00:00.000Z');
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(token.length).toBeLessThan(400);
  });

  it('says the language it was minted in (issue #30), also once expired; none when minted without', async () => {
    const token = await mintOneTapLink({ ...input, language: 'pt-BR' }, { secret: SECRET, now: NOW });
    const verified = await verifyOneTapLink(token, { secrets: [SECRET], now: NOW });
    expect(verified.ok && verified.link.language).toBe('pt-BR');
    const expired = await verifyOneTapLink(token, { secrets: [SECRET], now: at(73 * 3600 * 1000) });
    expect(expired).toMatchObject({ ok: false, reason: LinkReason.expired, language: 'pt-BR' });
    const plain = await verifyOneTapLink(await mintOneTapLink(input, { secret: SECRET, now: NOW }), {
      secrets: [SECRET],
      now: NOW,
    });
    expect(plain.ok && 'language' in plain.link).toBe(false);
  });

  it('refuses a tampered token: another user, another action, a flipped signature', async () => {
    const token = await mintOneTapLink(input, { secret: SECRET, now: NOW });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = (change: Record<string, unknown>) =>
      `${header}.${Buffer.from(JSON.stringify({ ...claims, ...change })).toString('base64url')}.${signature}`;
    const flipped = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    for (const bad of [forged({ u: 'mallory' }), forged({ a: 'open' }), flipped, 'not-a-token', '']) {
      const verified = await verifyOneTapLink(bad, { secrets: [SECRET], now: NOW });
      expect(verified).toMatchObject({ ok: false, reason: LinkReason.invalid });
    }
  });

  it('says link_expirado once the link is past its expiry (and not a second before)', async () => {
    const token = await mintOneTapLink(input, { secret: SECRET, now: NOW, ttlS: 3600 });
    expect((await verifyOneTapLink(token, { secrets: [SECRET], now: at(3599_000) })).ok).toBe(true);
    expect(await verifyOneTapLink(token, { secrets: [SECRET], now: at(3600_000) })).toMatchObject({
      ok: false,
      reason: 'link_expirado',
    });
    const past = await mintOneTapLink({ ...input, expiresAt: at(-1000) }, { secret: SECRET, now: NOW });
    expect(await verifyOneTapLink(past, { secrets: [SECRET], now: NOW })).toMatchObject({
      reason: 'link_expirado',
    });
  });

  it('refuses a link signed with another secret, even an expired one (expiry says nothing without the key)', async () => {
    const token = await mintOneTapLink(input, { secret: OTHER, now: NOW });
    expect(await verifyOneTapLink(token, { secrets: [SECRET], now: NOW })).toMatchObject({
      reason: 'link_invalido',
    });
    const expired = await mintOneTapLink({ ...input, expiresAt: at(-1000) }, { secret: OTHER, now: NOW });
    expect(await verifyOneTapLink(expired, { secrets: [SECRET], now: NOW })).toMatchObject({
      reason: 'link_invalido',
    });
  });

  it('during a rotation accepts links of the previous secret; after it, only the new one', async () => {
    const old = await mintOneTapLink(input, { secret: OTHER, now: NOW });
    const fresh = await mintOneTapLink(input, { secret: SECRET, now: NOW });
    const rotating = { secrets: [SECRET, OTHER], now: NOW };
    expect((await verifyOneTapLink(old, rotating)).ok).toBe(true);
    expect((await verifyOneTapLink(fresh, rotating)).ok).toBe(true);
    expect((await verifyOneTapLink(old, { secrets: [SECRET], now: NOW })).ok).toBe(false);
  });

  it('is never taken for another kind of token signed with the same key (a user JWT)', async () => {
    const { SignJWT } = await import('jose');
    const jwt = await new SignJWT({ p: 'demo', q: input.questionId, u: 'ana', a: 'accept' })
      .setProtectedHeader({ alg: 'HS256' })
      .setJti('0190f5b2-7c1e-7a3b-9d4e-1f2a3b4c5d6f')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await verifyOneTapLink(jwt, { secrets: [SECRET] })).toMatchObject({ reason: 'link_invalido' });
  });

  it('refuses to mint for ids out of shape', async () => {
    await expect(mintOneTapLink({ ...input, userId: 'a b' }, { secret: SECRET })).rejects.toThrow(/userId/);
    await expect(mintOneTapLink({ ...input, questionId: 'x' }, { secret: SECRET })).rejects.toThrow(
      /questionId/,
    );
    await expect(
      mintOneTapLink({ ...input, action: 'answer' as 'accept' }, { secret: SECRET }),
    ).rejects.toThrow(/action/);
  });

  it('builds the absolute URL under OPENQ_PUBLIC_URL', () => {
    expect(linkUrl('https://openq.example.com/', 'a.b.c')).toBe('https://openq.example.com/l/a.b.c');
    expect(linkUrl('https://example.com/openq', 'a.b.c')).toBe('https://example.com/openq/l/a.b.c');
  });
});
