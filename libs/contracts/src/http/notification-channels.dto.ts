import { IsBoolean, IsEmail, IsOptional, IsString, IsUrl, Length, MaxLength } from 'class-validator';
import { FieldReasons } from '../validation';
import { IntFromString, IntRange, IsOneOf, Nested, Nullable } from '../validators';

/** [openq] issue #17 how e-mails go out: one per notification, or a digest per hour / day. */
export const EMAIL_MODES = ['immediate', 'hourly', 'daily'] as const;
export type EmailMode = (typeof EMAIL_MODES)[number];

/**
 * [openq] issue #17 the states of a delivery (one row per event, channel and recipient).
 * `skipped`: a reminder, due notice or escalation whose question was answered or withdrawn before
 * it went out (its `lastError` says which: `pergunta_respondida`, `pergunta_retirada`).
 */
export const DELIVERY_STATUSES = ['pending', 'sent', 'dead', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const DELIVERY_LIST_FILTERS = [...DELIVERY_STATUSES, 'all'] as const;
export type DeliveryListFilter = (typeof DELIVERY_LIST_FILTERS)[number];
export const DELIVERY_LIST_LIMIT_MAX = 100;

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

export class EmailChannelDto {
  @IsEmail({}, { message: '$property must be an e-mail address' })
  @MaxLength(254)
  address!: string;

  @IsOneOf(EMAIL_MODES)
  mode: EmailMode = 'immediate';

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class SlackChannelDto {
  /** A secret (its path is the token): stored, never echoed back in full nor logged. */
  @IsUrl(URL_OPTIONS, { message: '$property must be an http(s) URL' })
  @MaxLength(2000)
  webhookUrl!: string;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookChannelDto {
  @IsUrl(URL_OPTIONS, { message: '$property must be an http(s) URL' })
  @MaxLength(2000)
  url!: string;

  /** The HMAC-SHA256 key of `X-Openq-Signature`; never echoed back nor logged. */
  @IsString()
  @Length(16, 256, { message: '$property must be 16 to 256 characters' })
  secret!: string;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

/**
 * [openq] issue #17 `PUT /projects/:projectId/notification-channels`: the caller's channels on the
 * project. A kind left out stays as it is; `null` removes it; an object replaces it whole (so a
 * webhook's secret is sent again with its URL). Bad fields have their own reasons.
 */
@FieldReasons({
  email: 'canal_email_invalido',
  slack: 'canal_slack_invalido',
  webhook: 'canal_webhook_invalido',
})
export class NotificationChannelsBody {
  @IsOptional()
  @Nullable()
  @Nested(() => EmailChannelDto)
  email?: EmailChannelDto | null;

  @IsOptional()
  @Nullable()
  @Nested(() => SlackChannelDto)
  slack?: SlackChannelDto | null;

  @IsOptional()
  @Nullable()
  @Nested(() => WebhookChannelDto)
  webhook?: WebhookChannelDto | null;
}

/** [openq] issue #17 `GET /projects/:projectId/notifications/deliveries?status=&limit=`. */
export class DeliveryListQuery {
  @IsOneOf(DELIVERY_LIST_FILTERS)
  status: DeliveryListFilter = 'all';

  @IntFromString()
  @IntRange(1, DELIVERY_LIST_LIMIT_MAX)
  limit: number = 50;
}
