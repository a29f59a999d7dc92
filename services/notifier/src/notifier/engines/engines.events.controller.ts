import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { EVERY_OPENQ_EVENT } from '@openq/contracts';
import type { JetStreamEventContext } from '@openq/messaging';
import { NOTIFIER_RUNTIME, type NotifierRuntime } from '../notifier-runtime';
import { planEngineDeliveriesHandler } from './commands/plan-engine-deliveries/plan-engine-deliveries.handler';
import { EngineSubscriptionHint } from './store/engine-subscription-hint';

/**
 * Issue #34 (SPEC §12.5) engines on HTTP alone: one durable consumer over the whole OPENQ_EVENTS
 * stream (`notifier__openq_events`) that plans, in each event's inbox transaction, one delivery
 * per engine subscribed to it.
 */
@Controller()
export class EnginesEventsController {
  constructor(
    @Inject(NOTIFIER_RUNTIME) private readonly runtime: NotifierRuntime,
    private readonly hint: EngineSubscriptionHint,
  ) {}

  @EventPattern(EVERY_OPENQ_EVENT)
  onEvent(@Payload() _data: unknown, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    return planEngineDeliveriesHandler(this.runtime, this.hint, ctx.event);
  }
}
