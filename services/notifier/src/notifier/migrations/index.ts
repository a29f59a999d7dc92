import { NotifierTables1764500000000 } from './1764500000000-notifier-tables';
import { NotificationDigests1764600000000 } from './1764600000000-notification-digests';

export const NOTIFIER_MIGRATIONS: (new () => unknown)[] = [
  NotifierTables1764500000000,
  NotificationDigests1764600000000,
];
