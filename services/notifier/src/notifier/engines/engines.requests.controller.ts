import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  type EngineCommand,
  type EngineSubscriptionDeleted,
  type EngineSubscriptionView,
  type Refusal,
  type SetEngineSubscriptionCommand,
} from '@openq/contracts';
import { NOTIFIER_RUNTIME, type NotifierRuntime } from '../notifier-runtime';
import { deleteEngineSubscriptionHandler } from './commands/delete-engine-subscription/delete-engine-subscription.handler';
import { setEngineSubscriptionHandler } from './commands/set-engine-subscription/set-engine-subscription.handler';
import { EngineSubscriptionHint } from './store/engine-subscription-hint';
import { engineSubscriptionQuery } from './queries/engine-subscription.query';

/**
 * Issue #34 (SPEC §12.5) each engine's subscription (`openq.notifier.*-engine-subscription`, the
 * gateway's `/internal/engines/:engineId/subscription`).
 */
@Controller()
export class EnginesRequestsController {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(NOTIFIER_RUNTIME) private readonly runtime: NotifierRuntime,
    private readonly hint: EngineSubscriptionHint,
  ) {}

  @MessagePattern(Commands.notifier.engineSubscription.type)
  subscription(@Payload() cmd: EngineCommand): Promise<EngineSubscriptionView | Refusal> {
    return engineSubscriptionQuery(this.dataSource, cmd);
  }

  @MessagePattern(Commands.notifier.setEngineSubscription.type)
  setSubscription(@Payload() cmd: SetEngineSubscriptionCommand): Promise<EngineSubscriptionView | Refusal> {
    return setEngineSubscriptionHandler(this.dataSource, this.runtime.settings.outbound, this.hint, cmd);
  }

  @MessagePattern(Commands.notifier.deleteEngineSubscription.type)
  deleteSubscription(@Payload() cmd: EngineCommand): Promise<EngineSubscriptionDeleted | Refusal> {
    return deleteEngineSubscriptionHandler(this.dataSource, cmd);
  }
}
