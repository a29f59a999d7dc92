import { IsObject, IsOptional, Matches } from 'class-validator';
import { IsUuidString, IsEntityId, IntRange, IsOneOf, Nested, Nullable } from '../validators';
import { DELIVERY_LIST_LIMIT_MAX, NotificationChannelsBody } from '../http/notification-channels.dto';
import { DELIVERY_LIST_FILTERS, type DeliveryListFilter } from '../notifications';
import { PROJECT_ROLES, type ProjectRole } from '../vocabulary';
import { EngineSubscriptionBody } from '../http/engine-subscription.dto';
import { SLACK_USER_ID_PATTERN, SlackLinkBody } from '../http/slack-link.dto';
import { defineCommand } from './command';
import type {
  ClockPolicyView,
  ClockStateReply,
  DeliveryListReply,
  EngineSubscriptionDeleted,
  EngineSubscriptionView,
  LanguageView,
  SlackLinkView,
  SlackUserReply,
  NotificationChannelsView,
  RedeliverReply,
  WorkingTimeView,
} from './notifier.views';
import { ProjectScoped } from './project-scoped.dto';
import { Verb } from './verbs';
import { LANGUAGES, type Language } from '../refusals';

/** [openq] issue #17 a person's own notification settings and deliveries on one project. */
export class UserScopedCommand extends ProjectScoped {
  @IsEntityId()
  userId!: string;

  /**
   * The caller's role on the project, from their token: the notifier keeps the project's members it
   * has seen, so an escalation to "the maintainers" reaches those among them who set a channel.
   */
  @IsOptional()
  @IsOneOf(PROJECT_ROLES)
  role?: ProjectRole;
}

/**
 * [openq] issue #17 a project's clock for its open questions (due, reminders, escalation), or
 * `null` to remove it. Its shape is checked by the notifier's pure `parseClockPolicy`, which
 * names the field and gives the reason (`politica_invalida`, `lembretes_fora_de_ordem`, …).
 */
export class SetClockPolicyCommand extends UserScopedCommand {
  @Nullable()
  @IsObject()
  policy!: Record<string, unknown> | null;
}

/** [openq] issue #17 one person's own settings, on every project (working hours, time zone, quiet hours). */
export class UserCommand {
  @IsEntityId()
  userId!: string;
}

/** `workingTime` is checked by the notifier's pure `parseWorkingTime`; `null` goes back to the default. */
export class SetWorkingTimeCommand extends UserCommand {
  @Nullable()
  @IsObject()
  workingTime!: Record<string, unknown> | null;
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

/** [openq] issue #34 an engine's subscription (the gateway's `/internal/engines/:engineId/subscription`). */
export class EngineCommand {
  @IsEntityId()
  engineId!: string;
}

export class SetEngineSubscriptionCommand extends EngineSubscriptionBody {
  @IsEntityId()
  engineId!: string;
}

/** [openq] issue #34 the caller links (or, with `null`, unlinks) their Slack member id. */
export class SetSlackLinkCommand extends SlackLinkBody {
  @IsEntityId()
  userId!: string;
}

/** [openq] issue #30 the caller's own language (`null` forgets it). */
export class SetUserLanguageCommand extends UserCommand {
  @Nullable()
  @IsOneOf(LANGUAGES)
  language!: Language | null;
}

/** [openq] issue #30 a project's language (maintainers; `null` forgets it). */
export class SetProjectLanguageCommand extends UserScopedCommand {
  @Nullable()
  @IsOneOf(LANGUAGES)
  language!: Language | null;
}

/** [openq] issue #34 who clicked a Slack button: the openq user linked to that Slack member id. */
export class SlackUserCommand {
  @Matches(SLACK_USER_ID_PATTERN)
  slackUserId!: string;
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
  clockPolicy: defineCommand<UserScopedCommand, ClockPolicyView>(
    Verb.notifier.clockPolicy,
    UserScopedCommand,
  ),
  setClockPolicy: defineCommand<SetClockPolicyCommand, ClockPolicyView>(
    Verb.notifier.setClockPolicy,
    SetClockPolicyCommand,
  ),
  clockState: defineCommand<UserScopedCommand, ClockStateReply>(Verb.notifier.clockState, UserScopedCommand),
  workingTime: defineCommand<UserCommand, WorkingTimeView>(Verb.notifier.workingTime, UserCommand),
  setWorkingTime: defineCommand<SetWorkingTimeCommand, WorkingTimeView>(
    Verb.notifier.setWorkingTime,
    SetWorkingTimeCommand,
  ),
  engineSubscription: defineCommand<EngineCommand, EngineSubscriptionView>(
    Verb.notifier.engineSubscription,
    EngineCommand,
  ),
  setEngineSubscription: defineCommand<SetEngineSubscriptionCommand, EngineSubscriptionView>(
    Verb.notifier.setEngineSubscription,
    SetEngineSubscriptionCommand,
  ),
  deleteEngineSubscription: defineCommand<EngineCommand, EngineSubscriptionDeleted>(
    Verb.notifier.deleteEngineSubscription,
    EngineCommand,
  ),
  slackLink: defineCommand<UserCommand, SlackLinkView>(Verb.notifier.slackLink, UserCommand),
  setSlackLink: defineCommand<SetSlackLinkCommand, SlackLinkView>(
    Verb.notifier.setSlackLink,
    SetSlackLinkCommand,
  ),
  slackUser: defineCommand<SlackUserCommand, SlackUserReply>(Verb.notifier.slackUser, SlackUserCommand),
  language: defineCommand<UserCommand, LanguageView>(Verb.notifier.language, UserCommand),
  setLanguage: defineCommand<SetUserLanguageCommand, LanguageView>(
    Verb.notifier.setLanguage,
    SetUserLanguageCommand,
  ),
  projectLanguage: defineCommand<UserScopedCommand, LanguageView>(
    Verb.notifier.projectLanguage,
    UserScopedCommand,
  ),
  setProjectLanguage: defineCommand<SetProjectLanguageCommand, LanguageView>(
    Verb.notifier.setProjectLanguage,
    SetProjectLanguageCommand,
  ),
} as const;
