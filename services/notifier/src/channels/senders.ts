import type { ChannelKind, ChannelSender, ChannelTargets } from './channel';
import { WebhookSender } from './webhook';

/** The senders one process holds, by channel kind; a kind without one gets no deliveries. */
export type ChannelSenders = { [K in ChannelKind]?: ChannelSender<ChannelTargets[K]> };

export interface ChannelSendersOptions {
  sendTimeoutMs: number;
}

/**
 * The channels this build can send. Issue #17: the generic webhook here; e-mail (`email.ts`,
 * `digest.ts`) and Slack (`slack.ts`) register themselves here the same way when they land.
 */
export function defaultChannelSenders(options: ChannelSendersOptions): ChannelSenders {
  return { webhook: new WebhookSender({ timeoutMs: options.sendTimeoutMs }) };
}

export function senderKinds(senders: ChannelSenders): ChannelKind[] {
  return (Object.keys(senders) as ChannelKind[]).filter((k) => senders[k] !== undefined);
}
