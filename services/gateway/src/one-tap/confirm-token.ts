import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long the confirm page's form stays good after it was shown. */
export const CONFIRM_TTL_MS = 60 * 60 * 1000;

const mac = (secret: string, linkId: string, issuedAt: number): Buffer =>
  createHmac('sha256', secret).update(`openq-link-confirm|${linkId}|${issuedAt}`).digest();

/**
 * [openq] issue #17 the confirm page's form token: `<issuedAt ms>.<HMAC(link secret, linkId, issuedAt)>`,
 * made at each render and bound to the link. A POST must bring one from a render of the same link
 * less than an hour old, so an answer always follows a page a person was shown.
 */
export function makeConfirmToken(secret: string, linkId: string, nowMs: number): string {
  return `${nowMs}.${mac(secret, linkId, nowMs).toString('base64url')}`;
}

export function checkConfirmToken(
  secrets: readonly string[],
  linkId: string,
  token: unknown,
  nowMs: number,
): boolean {
  if (typeof token !== 'string') return false;
  const match = /^(\d{13})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const issuedAt = Number(match[1]);
  if (issuedAt > nowMs + 60_000 || nowMs - issuedAt > CONFIRM_TTL_MS) return false;
  const given = Buffer.from(match[2]!, 'base64url');
  let ok = false;
  for (const secret of secrets) {
    if (secret !== '' && timingSafeEqual(given, mac(secret, linkId, issuedAt))) ok = true;
  }
  return ok;
}
