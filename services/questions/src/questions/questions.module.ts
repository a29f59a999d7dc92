import { Module } from '@nestjs/common';
import { QuestionsMessagesController } from './questions.messages.controller';
import { QuestionGroups } from './question-groups';
import { DelegationsMessagesController } from './delegation/delegations.messages.controller';
import { PoliciesMessagesController } from './policy/policies.messages.controller';

const messageControllers = [
  QuestionsMessagesController,
  DelegationsMessagesController,
  PoliciesMessagesController,
];

@Module({ controllers: [...messageControllers], providers: [QuestionGroups] })
export class QuestionsModule {}
