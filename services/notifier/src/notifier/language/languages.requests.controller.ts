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
import { setLanguageHandler } from './commands/set-language/set-language.handler';
import { setProjectLanguageHandler } from './commands/set-project-language/set-project-language.handler';
import { projectLanguageQuery } from './queries/project-language.query';
import { userLanguageQuery } from './queries/user-language.query';

/**
 * Issue #30 the language openq writes to a person in: theirs (`openq.notifier.language`,
 * `set-language`; the gateway's `/me/language`) and a project's (`project-language`,
 * `set-project-language`; `/projects/:projectId/language`, maintainers — the gateway checks the
 * role). The sender reads them at send time (`recipientLanguage` of the languages store).
 */
@Controller()
export class LanguagesRequestsController {
  constructor(private readonly dataSource: DataSource) {}

  @MessagePattern(Commands.notifier.language.type)
  language(@Payload() cmd: UserCommand): Promise<LanguageView> {
    return userLanguageQuery(this.dataSource, cmd);
  }

  @MessagePattern(Commands.notifier.setLanguage.type)
  setLanguage(@Payload() cmd: SetUserLanguageCommand): Promise<LanguageView> {
    return setLanguageHandler(this.dataSource, cmd);
  }

  @MessagePattern(Commands.notifier.projectLanguage.type)
  projectLanguage(@Payload() cmd: UserScopedCommand): Promise<LanguageView> {
    return projectLanguageQuery(this.dataSource, cmd);
  }

  @MessagePattern(Commands.notifier.setProjectLanguage.type)
  setProjectLanguage(@Payload() cmd: SetProjectLanguageCommand): Promise<LanguageView> {
    return setProjectLanguageHandler(this.dataSource, cmd);
  }
}
