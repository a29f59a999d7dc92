import type { ChannelKind } from './adapters/channels/channel';
import type { ChannelSenders } from './adapters/channels/senders';
import type { NotifierSettings } from '../notifier-config';
import type { ClockTicker } from './commands/tick-clock/clock-ticker';
import type { DeliverySender } from './commands/send-delivery/delivery-sender';
import type { LinkSettings } from './commands/send-delivery/links';

export const NOTIFIER_RUNTIME = Symbol('openq:notifierRuntime');

/** What the notifier's providers share: its settings, its channels, and the sender loop once started. */
export interface NotifierRuntime {
  settings: NotifierSettings;
  senders: ChannelSenders;
  kinds: readonly ChannelKind[];
  sender: DeliverySender | null;
  /** The clock of the questions (reminders, due notices, escalations), once started. */
  clock: ClockTicker | null;
  /** How one-tap links are minted at send time. */
  links: LinkSettings;
  /** Tests: the clock digests and the questions' clock go by. */
  now?: () => Date;
}
