import { NotifierTables1764500000000 } from './1764500000000-notifier-tables';

export const NOTIFIER_MIGRATIONS: (new () => unknown)[] = [NotifierTables1764500000000];
