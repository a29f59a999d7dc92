import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  OpenqEvent,
  type GateRescueParked,
  type GateResumed,
  type QuestionAnswered,
  type QuestionDeclared,
  type QuestionWithdrawn,
} from '@openq/contracts';
import type { JetStreamEventContext } from '@openq/messaging';
import { closeWithdrawnQuestion } from './commands/close-question/close-question.handler';
import { enqueueNotificationsHandler } from './commands/enqueue-notifications/enqueue-notifications.handler';
import { NOTIFIER_RUNTIME, type NotifierRuntime } from './notifier-runtime';

/**
 * The facts the notifier hears (issue #17), riding the whole-stream durable
 * `notifier__openq_events` with the engine fan-out (docs/decisions.md, "A service's types ride its
 * whole-stream durable"): applied once through the inbox, in the message's transaction — the
 * deliveries it plans are rows of that transaction under their own unique keys, so a redelivered
 * event plans nothing twice.
 */
@Controller()
export class NotifierEventsController {
  constructor(@Inject(NOTIFIER_RUNTIME) private readonly runtime: NotifierRuntime) {}

  @EventPattern(OpenqEvent.QuestionDeclared)
  onQuestionDeclared(@Payload() data: QuestionDeclared, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    return enqueueNotificationsHandler(this.runtime, { type: 'question.declared', data }, ctx.event);
  }

  @EventPattern(OpenqEvent.QuestionAnswered)
  onQuestionAnswered(@Payload() data: QuestionAnswered, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    return enqueueNotificationsHandler(this.runtime, { type: 'question.answered', data }, ctx.event);
  }

  @EventPattern(OpenqEvent.QuestionWithdrawn)
  onQuestionWithdrawn(@Payload() data: QuestionWithdrawn, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    return closeWithdrawnQuestion(ctx.event, data);
  }

  @EventPattern(OpenqEvent.GateRescueParked)
  onGateParked(@Payload() data: GateRescueParked, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    return enqueueNotificationsHandler(this.runtime, { type: 'gate.rescue_parked', data }, ctx.event);
  }

  @EventPattern(OpenqEvent.GateResumed)
  onGateResumed(@Payload() data: GateResumed, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    return enqueueNotificationsHandler(this.runtime, { type: 'gate.resumed', data }, ctx.event);
  }
}
