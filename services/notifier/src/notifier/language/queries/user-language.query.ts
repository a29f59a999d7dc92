import type { DataSource } from 'typeorm';
import type { LanguageView, UserCommand } from '@openq/contracts';
import { userLanguage } from '../store/languages.store';

export function userLanguageQuery(ds: DataSource, cmd: UserCommand): Promise<LanguageView> {
  return userLanguage(ds.manager, cmd.userId);
}
