import type { OutboundPolicy } from '@openq/platform';
import type { ChannelKind, ChannelSender, ChannelTargets } from './channel';
import { EmailSender, type SmtpConfig } from './email';
import { SlackSender } from './slack';
import { WebhookSender } from './webhook';

/** The senders one process holds, by channel kind; a kind without one gets no deliveries. */
export type ChannelSenders = { [K in ChannelKind]?: ChannelSender<ChannelTargets[K]> };

export interface ChannelSendersOptions {
  sendTimeoutMs: number;
  /** The SMTP settings (`smtpConfigFromEnv`); null: e-mail is off in this process. */
  smtp?: SmtpConfig | null;
  /** Which webhook and Slack targets may be reached (issue #27); default public addresses only. */
  policy?: OutboundPolicy;
  /** Issue #34: Slack's "Accept suggestion" answers in Slack (a callback) instead of linking out. */
  slackInteractive?: boolean;
}

/**
 * The channels this build can send (issue #17): the generic webhook and Slack always; e-mail when
 * SMTP is configured. E-mail in digest mode goes through the same EmailSender (`sendRendered`),
 * held and batched by the sender loop (../notifier/delivery/digests.ts).
 */
export function defaultChannelSenders(options: ChannelSendersOptions): ChannelSenders {
  return {
    webhook: new WebhookSender({
      timeoutMs: options.sendTimeoutMs,
      ...(options.policy ? { policy: options.policy } : {}),
    }),
    slack: new SlackSender({
      timeoutMs: options.sendTimeoutMs,
      ...(options.policy ? { policy: options.policy } : {}),
      interactive: options.slackInteractive === true,
    }),
    ...(options.smtp ? { email: new EmailSender(options.smtp) } : {}),
  };
}

export function senderKinds(senders: ChannelSenders): ChannelKind[] {
  return (Object.keys(senders) as ChannelKind[]).filter((k) => senders[k] !== undefined);
}

/** Closes what holds connections (the SMTP pool) at shutdown. */
export function closeChannelSenders(senders: ChannelSenders): void {
  const email = senders.email as { close?: () => void } | undefined;
  email?.close?.();
}
