import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  refusal,
  type DeliveryListReply,
  type ListDeliveriesCommand,
  type NotificationChannelsView,
  type RedeliverCommand,
  type RedeliverReply,
  type Refusal,
  type SetNotificationChannelsCommand,
  type UserScopedCommand,
} from '@openq/contracts';
import { channelsView, setChannels } from './store/channels.store';
import { listDeliveries, redeliver } from './store/deliveries.store';
import { NOTIFIER_RUNTIME, type NotifierRuntime } from './notifier-runtime';

/** `openq.notifier.*`: a person's channels and deliveries on a project (the gateway's user routes). */
@Controller()
export class NotifierRequestsController {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(NOTIFIER_RUNTIME) private readonly runtime: NotifierRuntime,
  ) {}

  @MessagePattern(Commands.notifier.channels.type)
  channels(@Payload() cmd: UserScopedCommand): Promise<NotificationChannelsView> {
    return channelsView(this.dataSource.manager, cmd.projectId, cmd.userId);
  }

  @MessagePattern(Commands.notifier.setChannels.type)
  setChannels(@Payload() cmd: SetNotificationChannelsCommand): Promise<NotificationChannelsView> {
    return this.dataSource.transaction(async (m) => {
      await setChannels(m, cmd.projectId, cmd.userId, cmd.channels);
      return channelsView(m, cmd.projectId, cmd.userId);
    });
  }

  @MessagePattern(Commands.notifier.deliveries.type)
  deliveries(@Payload() cmd: ListDeliveriesCommand): Promise<DeliveryListReply> {
    return listDeliveries(this.dataSource, cmd.projectId, cmd.userId, cmd.status, cmd.limit);
  }

  @MessagePattern(Commands.notifier.redeliver.type)
  async redeliver(@Payload() cmd: RedeliverCommand): Promise<RedeliverReply | Refusal> {
    const status = await redeliver(this.dataSource, cmd.projectId, cmd.userId, cmd.deliveryId);
    // The same body for another person's delivery as for none: nothing leaks.
    if (status === null)
      return refusal(404, 'entrega_nao_encontrada', 'no such delivery of yours in this project');
    this.runtime.sender?.kick();
    return { deliveryId: cmd.deliveryId, status };
  }
}
