import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  type LanguageView,
  type SetProjectLanguageCommand,
  type SetUserLanguageCommand,
  type UserCommand,
  type UserScopedCommand,
} from '@openq/contracts';
import { recordMember } from '../store/clock.store';
import { projectLanguage, setProjectLanguage, setUserLanguage, userLanguage } from '../store/languages.store';

/**
 * Issue #30 the language openq writes to a person in: theirs (`openq.notifier.language`,
 * `set-language`; the gateway's `/me/language`) and a project's (`project-language`,
 * `set-project-language`; `/projects/:projectId/language`, maintainers — the gateway checks the
 * role). The sender reads them at send time (store/languages.store.ts `recipientLanguage`).
 */
@Controller()
export class LanguagesController {
  constructor(private readonly dataSource: DataSource) {}

  @MessagePattern(Commands.notifier.language.type)
  language(@Payload() cmd: UserCommand): Promise<LanguageView> {
    return userLanguage(this.dataSource.manager, cmd.userId);
  }

  @MessagePattern(Commands.notifier.setLanguage.type)
  async setLanguage(@Payload() cmd: SetUserLanguageCommand): Promise<LanguageView> {
    await setUserLanguage(this.dataSource.manager, cmd.userId, cmd.language);
    return userLanguage(this.dataSource.manager, cmd.userId);
  }

  @MessagePattern(Commands.notifier.projectLanguage.type)
  projectLanguage(@Payload() cmd: UserScopedCommand): Promise<LanguageView> {
    return projectLanguage(this.dataSource.manager, cmd.projectId, cmd.userId);
  }

  @MessagePattern(Commands.notifier.setProjectLanguage.type)
  setProjectLanguage(@Payload() cmd: SetProjectLanguageCommand): Promise<LanguageView> {
    return this.dataSource.transaction(async (m) => {
      await recordMember(m, cmd.projectId, cmd.userId, cmd.role);
      await setProjectLanguage(m, cmd.projectId, cmd.language);
      return projectLanguage(m, cmd.projectId, cmd.userId);
    });
  }
}
