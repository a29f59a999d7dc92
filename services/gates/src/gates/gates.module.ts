import { Module } from '@nestjs/common';
import { QuestionOwner } from '@openq/platform';
import { QuestionDeclarer } from './adapters/question-declarer';
import { GatesEventsController } from './gates.events.controller';
import { GatesRequestsController } from './gates.requests.controller';
import { IdleSweep } from './commands/sweep-idle/idle-sweep';

const messageControllers = [GatesEventsController, GatesRequestsController];
const providers = [QuestionDeclarer, IdleSweep, QuestionOwner];

/** Gate cycles (SPEC §5): verdicts, the correction counter, parking and resume, the idle sweep. */
@Module({ controllers: [...messageControllers], providers: [...providers] })
export class GatesModule {}
