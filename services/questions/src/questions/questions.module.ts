import { Module } from '@nestjs/common';
import { QuestionsEventsController } from './questions.events.controller';
import { QuestionsRequestsController } from './questions.requests.controller';
import { QuestionGroups } from './store/question-groups.store';
import { DelegationRequestsController } from './delegation/delegation.requests.controller';
import { PolicyRequestsController } from './policy/policy.requests.controller';

@Module({
  controllers: [
    QuestionsEventsController,
    QuestionsRequestsController,
    DelegationRequestsController,
    PolicyRequestsController,
  ],
  providers: [QuestionGroups],
})
export class QuestionsModule {}
