import { Module } from '@nestjs/common';
import { QuestionsMessagesController } from './questions.messages.controller';
import { QuestionGroups } from './question-groups';

const messageControllers = [QuestionsMessagesController];

@Module({ controllers: [...messageControllers], providers: [QuestionGroups] })
export class QuestionsModule {}
