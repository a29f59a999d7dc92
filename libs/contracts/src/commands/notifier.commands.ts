import { IsUuidString, IsEntityId, IntRange, IsOneOf, Nested } from '../validators';
import {
  DELIVERY_LIST_FILTERS,
  DELIVERY_LIST_LIMIT_MAX,
  NotificationChannelsBody,
  type DeliveryListFilter,
} from '../http/notification-channels.dto';
import { defineCommand } from './command';
import type { DeliveryListReply, NotificationChannelsView, RedeliverReply } from './notifier.views';
import { ProjectScoped } from './project-scoped.dto';
import { Verb } from './verbs';

/** [openq] issue #17 a person's own notification settings and deliveries on one project. */
export class UserScopedCommand extends ProjectScoped {
  @IsEntityId()
  userId!: string;
}

export class SetNotificationChannelsCommand extends UserScopedCommand {
  @Nested(() => NotificationChannelsBody)
  channels!: NotificationChannelsBody;
}

export class ListDeliveriesCommand extends UserScopedCommand {
  @IsOneOf(DELIVERY_LIST_FILTERS)
  status: DeliveryListFilter = 'all';

  @IntRange(1, DELIVERY_LIST_LIMIT_MAX)
  limit: number = 50;
}

export class RedeliverCommand extends UserScopedCommand {
  @IsUuidString()
  deliveryId!: string;
}

export const NotifierCommand = {
  channels: defineCommand<UserScopedCommand, NotificationChannelsView>(
    Verb.notifier.channels,
    UserScopedCommand,
  ),
  setChannels: defineCommand<SetNotificationChannelsCommand, NotificationChannelsView>(
    Verb.notifier.setChannels,
    SetNotificationChannelsCommand,
  ),
  deliveries: defineCommand<ListDeliveriesCommand, DeliveryListReply>(
    Verb.notifier.deliveries,
    ListDeliveriesCommand,
  ),
  redeliver: defineCommand<RedeliverCommand, RedeliverReply>(Verb.notifier.redeliver, RedeliverCommand),
} as const;
