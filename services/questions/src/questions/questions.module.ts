import { Module } from '@nestjs/common';
import { QuestionsMessagesController } from './questions.messages.controller';
import { QuestionGroups } from './question-groups';
import { DelegationsMessagesController } from './delegation/delegations.messages.controller';

const messageControllers = [QuestionsMessagesController, DelegationsMessagesController];

@Module({ controllers: [...messageControllers], providers: [QuestionGroups] })
export class QuestionsModule {}
