import type { DataSource } from 'typeorm';
import type { LanguageView, UserScopedCommand } from '@openq/contracts';
import { projectLanguage } from '../store/languages.store';

export function projectLanguageQuery(ds: DataSource, cmd: UserScopedCommand): Promise<LanguageView> {
  return projectLanguage(ds.manager, cmd.projectId, cmd.userId);
}
