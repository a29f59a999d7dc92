import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  type ClockPolicyView,
  type ClockStateReply,
  type DeliveryListReply,
  type ListDeliveriesCommand,
  type NotificationChannelsView,
  type RedeliverCommand,
  type RedeliverReply,
  type Refusal,
  type SetClockPolicyCommand,
  type SetNotificationChannelsCommand,
  type SetWorkingTimeCommand,
  type UserCommand,
  type UserScopedCommand,
  type WorkingTimeView,
} from '@openq/contracts';
import { redeliverHandler } from './commands/redeliver/redeliver.handler';
import { setChannelsHandler } from './commands/set-channels/set-channels.handler';
import { setClockPolicyHandler } from './commands/set-clock-policy/set-clock-policy.handler';
import { setWorkingTimeHandler } from './commands/set-working-time/set-working-time.handler';
import { NOTIFIER_RUNTIME, type NotifierRuntime } from './notifier-runtime';
import { channelsQuery } from './queries/channels.query';
import { clockPolicyQuery } from './queries/clock-policy.query';
import { clockStateQuery } from './queries/clock-state.query';
import { deliveriesQuery } from './queries/deliveries.query';
import { workingTimeQuery } from './queries/working-time.query';

/**
 * `openq.notifier.*`: a person's channels and deliveries on a project, a project's clock policy,
 * a person's working time (the gateway's user routes). Each entry one use case's handler or query.
 */
@Controller()
export class NotifierRequestsController {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(NOTIFIER_RUNTIME) private readonly runtime: NotifierRuntime,
  ) {}

  @MessagePattern(Commands.notifier.channels.type)
  channels(@Payload() cmd: UserScopedCommand): Promise<NotificationChannelsView> {
    return channelsQuery(this.dataSource, cmd);
  }

  @MessagePattern(Commands.notifier.setChannels.type)
  setChannels(@Payload() cmd: SetNotificationChannelsCommand): Promise<NotificationChannelsView | Refusal> {
    return setChannelsHandler(this.dataSource, this.runtime.settings.outbound, cmd);
  }

  @MessagePattern(Commands.notifier.deliveries.type)
  deliveries(@Payload() cmd: ListDeliveriesCommand): Promise<DeliveryListReply> {
    return deliveriesQuery(this.dataSource, cmd);
  }

  @MessagePattern(Commands.notifier.redeliver.type)
  redeliver(@Payload() cmd: RedeliverCommand): Promise<RedeliverReply | Refusal> {
    return redeliverHandler(this.dataSource, this.runtime, cmd);
  }

  @MessagePattern(Commands.notifier.clockPolicy.type)
  clockPolicy(@Payload() cmd: UserScopedCommand): Promise<ClockPolicyView> {
    return clockPolicyQuery(this.dataSource, cmd);
  }

  @MessagePattern(Commands.notifier.setClockPolicy.type)
  setClockPolicy(@Payload() cmd: SetClockPolicyCommand): Promise<ClockPolicyView | Refusal> {
    return setClockPolicyHandler(this.dataSource, this.runtime, cmd);
  }

  @MessagePattern(Commands.notifier.clockState.type)
  clockState(@Payload() cmd: UserScopedCommand): Promise<ClockStateReply> {
    return clockStateQuery(this.dataSource, this.runtime.now ?? (() => new Date()), cmd);
  }

  @MessagePattern(Commands.notifier.workingTime.type)
  workingTime(@Payload() cmd: UserCommand): Promise<WorkingTimeView> {
    return workingTimeQuery(this.dataSource, cmd);
  }

  @MessagePattern(Commands.notifier.setWorkingTime.type)
  setWorkingTime(@Payload() cmd: SetWorkingTimeCommand): Promise<WorkingTimeView | Refusal> {
    return setWorkingTimeHandler(this.dataSource, this.runtime, cmd);
  }
}
