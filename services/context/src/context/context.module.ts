import { Module } from '@nestjs/common';
import { QuestionOwner } from '@openq/platform';
import { ContextEventsController } from './context.events.controller';
import { ContextRequestsController } from './context.requests.controller';

/** Read models fed by events (stories, tasks, decisions, questions) and the `openq.context.*` verbs. */
const messageControllers = [ContextEventsController, ContextRequestsController];

@Module({ controllers: [...messageControllers], providers: [QuestionOwner] })
export class ContextModule {}
