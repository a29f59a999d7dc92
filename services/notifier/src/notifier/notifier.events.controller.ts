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
import { enqueueNotifications } from './delivery/enqueue';
import type { KnownQuestion, NotifierFact } from './domain/recipients';
import { closeQuestion } from './store/clock.store';
import { saveQuestion } from './store/questions.store';
import { NOTIFIER_RUNTIME, type NotifierRuntime } from './notifier-runtime';

/**
 * The facts the notifier hears (issue #17), each on its durable consumer
 * `notifier__<type>`: applied once through the inbox, in the message's transaction — the
 * deliveries it plans are rows of that transaction, so a redelivered event plans nothing twice.
 */
@Controller()
export class NotifierEventsController {
  constructor(@Inject(NOTIFIER_RUNTIME) private readonly runtime: NotifierRuntime) {}

  @EventPattern(OpenqEvent.QuestionDeclared)
  async onQuestionDeclared(
    @Payload() data: QuestionDeclared,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    await saveQuestion(ctx.event.manager, ctx.event.envelope.projectId, data);
    await this.apply({ type: 'question.declared', data }, ctx);
  }

  @EventPattern(OpenqEvent.QuestionAnswered)
  async onQuestionAnswered(
    @Payload() data: QuestionAnswered,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const question = await closeQuestion(ctx.event.manager, data.questionId, 'answered', data.answeredAt);
    await this.apply({ type: 'question.answered', data }, ctx, new Map([[question.questionId, question]]));
  }

  /** Closes the question's clock; nobody is told (the withdrawer knows, the gate's resume tells). */
  @EventPattern(OpenqEvent.QuestionWithdrawn)
  async onQuestionWithdrawn(
    @Payload() data: QuestionWithdrawn,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    await closeQuestion(ctx.event.manager, data.questionId, 'withdrawn', data.withdrawnAt);
  }

  @EventPattern(OpenqEvent.GateRescueParked)
  async onGateParked(@Payload() data: GateRescueParked, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    await this.apply({ type: 'gate.rescue_parked', data }, ctx);
  }

  @EventPattern(OpenqEvent.GateResumed)
  async onGateResumed(@Payload() data: GateResumed, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    await this.apply({ type: 'gate.resumed', data }, ctx);
  }

  private async apply(
    fact: NotifierFact,
    ctx: JetStreamEventContext,
    known?: ReadonlyMap<string, KnownQuestion>,
  ): Promise<void> {
    const planned = await enqueueNotifications(
      ctx.event.manager,
      ctx.event.envelope,
      fact,
      {
        publicUrl: this.runtime.settings.publicUrl,
        maxEventAgeS: this.runtime.settings.maxEventAgeS,
        kinds: this.runtime.kinds,
        now: new Date(),
      },
      known,
    );
    // The rows commit with the message; the sender looks again shortly after.
    if (planned > 0) setTimeout(() => this.runtime.sender?.kick(), 20).unref();
  }
}
