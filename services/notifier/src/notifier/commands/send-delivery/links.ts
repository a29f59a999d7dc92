import { linkUrl, mintOneTapLink } from '@openq/platform';
import type { Notification } from '../../adapters/channels/channel';

export interface LinkSettings {
  /** `OPENQ_PUBLIC_URL`: where people reach the gateway. */
  publicUrl: string;
  /** `OPENQ_LINK_SECRET` (the current one). */
  secret: string;
  /** `OPENQ_LINK_TTL_S`. */
  ttlS: number;
}

/** Kinds whose questions are still open: the ones an "accept" link can answer. */
// The author's own notices; an escalation goes to people who cannot answer.
const ACCEPTABLE = new Set<Notification['kind']>([
  'question_declared',
  'gate_parked',
  'question_reminder',
  'question_due',
]);

/**
 * The one-tap links of a notification (issue #17, SPEC §11.6), minted at send time: `open` (the
 * inbox card) for its first question, and `accept` when that question has a suggestion and the
 * notification still asks (declared, or a parked gate waiting on it). The recipient is the
 * session author by construction (domain/recipients.ts tells only session authors about their
 * own questions). A retry mints fresh links; the delivery id stays the same.
 */
export async function withOneTapLinks(
  n: Notification,
  settings: LinkSettings,
  now: Date = new Date(),
): Promise<Notification> {
  const q = n.questions[0];
  if (!q) return n;
  const base = {
    projectId: n.projectId,
    questionId: q.questionId,
    userId: n.recipientUserId,
    ...(n.language ? { language: n.language } : {}),
  };
  const options = { secret: settings.secret, ttlS: settings.ttlS, now };
  const open = linkUrl(settings.publicUrl, await mintOneTapLink({ ...base, action: 'open' }, options));
  const accept =
    ACCEPTABLE.has(n.kind) && q.sugestao !== null
      ? linkUrl(settings.publicUrl, await mintOneTapLink({ ...base, action: 'accept' }, options))
      : undefined;
  return { ...n, links: { open, ...(accept ? { accept } : {}) } };
}
