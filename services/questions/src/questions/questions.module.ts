import { Module } from '@nestjs/common';
import { QuestionsMessagesController } from './questions.messages.controller';

const messageControllers = [QuestionsMessagesController];

@Module({ controllers: [...messageControllers] })
export class QuestionsModule {}
