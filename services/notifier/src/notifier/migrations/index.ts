import { NotifierTables1764500000000 } from './1764500000000-notifier-tables';
import { NotificationDigests1764600000000 } from './1764600000000-notification-digests';
import { NotifierClock1764700000000 } from './1764700000000-notifier-clock';
import { EngineSubscriptions1764800000000 } from './1764800000000-engine-subscriptions';
import { SlackLinks1764900000000 } from './1764900000000-slack-links';
import { Languages1765000000000 } from './1765000000000-languages';

export const NOTIFIER_MIGRATIONS: (new () => unknown)[] = [
  NotifierTables1764500000000,
  NotificationDigests1764600000000,
  NotifierClock1764700000000,
  EngineSubscriptions1764800000000,
  SlackLinks1764900000000,
  Languages1765000000000,
];
