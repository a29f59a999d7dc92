import type { DataSource } from 'typeorm';
import type { LanguageView, SetUserLanguageCommand } from '@openq/contracts';
import { setUserLanguage, userLanguage } from '../../store/languages.store';

/** A person's own language set (or cleared: the project's, else English). */
export async function setLanguageHandler(ds: DataSource, cmd: SetUserLanguageCommand): Promise<LanguageView> {
  await setUserLanguage(ds.manager, cmd.userId, cmd.language);
  return userLanguage(ds.manager, cmd.userId);
}
