import type { DataSource } from 'typeorm';
import type { LanguageView, SetProjectLanguageCommand } from '@openq/contracts';
import { recordMember } from '../../../store/clock.store';
import { projectLanguage, setProjectLanguage } from '../../store/languages.store';

/** A project's language set by a maintainer (the gateway checks the role). */
export function setProjectLanguageHandler(
  ds: DataSource,
  cmd: SetProjectLanguageCommand,
): Promise<LanguageView> {
  return ds.transaction(async (m) => {
    await recordMember(m, cmd.projectId, cmd.userId, cmd.role);
    await setProjectLanguage(m, cmd.projectId, cmd.language);
    return projectLanguage(m, cmd.projectId, cmd.userId);
  });
}
