import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * The signature of everything openq POSTs to a receiver it was given — a person's generic webhook
 * (issue #17) and an engine's subscription (issue #34, SPEC §12.5) — the Stripe-style scheme:
 *   X-Openq-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, `${t}.${body}`)>
 * The timestamp is inside the signed text, so a receiver that refuses old timestamps refuses
 * replays. Pure: the time comes in.
 */

export const SIGNATURE_HEADER = 'X-Openq-Signature';
export const DELIVERY_ID_HEADER = 'X-Openq-Delivery-Id';
/** The kind (a notification) or the event type (an engine subscription) of what is sent. */
export const EVENT_HEADER = 'X-Openq-Event';
/** An engine subscription's POST: the event's OPENQ_EVENTS sequence, the `seq` of the catch-up route. */
export const STREAM_SEQ_HEADER = 'X-Openq-Stream-Seq';
/** How old a signature a receiver should still accept (what `verifySignature` defaults to). */
export const DEFAULT_TOLERANCE_S = 300;

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/** The header's value for `body` sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}

export type VerifyResult =
  { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'stale' | 'mismatch' };

/**
 * What a receiver does: parse `t` and every `v1`, refuse a timestamp further than `toleranceS`
 * from its clock (a replay, or a clock gone wrong), and compare in constant time.
 */
export function verifySignature(
  secret: string,
  header: string | undefined | null,
  body: string,
  nowS: number,
  toleranceS = DEFAULT_TOLERANCE_S,
): VerifyResult {
  if (!header) return { ok: false, reason: 'malformed' };
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const v1s = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v!);
  if (!t || !/^\d{1,12}$/.test(t) || v1s.length === 0) return { ok: false, reason: 'malformed' };
  const timestamp = Number(t);
  if (Math.abs(nowS - timestamp) > toleranceS) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(signatureOf(secret, timestamp, body), 'hex');
  const matches = v1s.some((v) => {
    const given = Buffer.from(v, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { ok: true, timestamp } : { ok: false, reason: 'mismatch' };
}
