import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack's callbacks older (or newer) than this are refused: a replay keeps its old timestamp. */
export const SLACK_TOLERANCE_S = 300;

/**
 * [openq] issue #34 (SPEC §12.5) Slack's request signature, version 0: `X-Slack-Signature` is
 * `v0=<hex HMAC-SHA256(signing secret, "v0:" + X-Slack-Request-Timestamp + ":" + raw body)>`, and
 * the timestamp must be within five minutes of now. Pure: the time comes in.
 */
export function verifySlackSignature(
  secret: string,
  timestamp: string | undefined,
  signature: string | undefined,
  rawBody: Buffer,
  nowS: number,
  toleranceS = SLACK_TOLERANCE_S,
): boolean {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature?.startsWith('v0=')) return false;
  if (Math.abs(nowS - Number(timestamp)) > toleranceS) return false;
  const expected = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`v0:${timestamp}:`, 'utf8'), rawBody]))
    .digest();
  const given = Buffer.from(signature.slice(3), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What a signed request carries (for a test, or a relay that re-signs). */
export function slackSignature(secret: string, timestamp: number, rawBody: string): string {
  const hex = createHmac('sha256', secret).update(`v0:${timestamp}:${rawBody}`, 'utf8').digest('hex');
  return `v0=${hex}`;
}
