import { IsBoolean, IsEmail, IsOptional, IsString, IsUrl, Length, MaxLength } from 'class-validator';
import { FieldReasons } from '../validation';
import { IntFromString, IntRange, IsOneOf, Nested, Nullable } from '../validators';

import {
  DELIVERY_LIST_FILTERS,
  EMAIL_MODES,
  type DeliveryListFilter,
  type EmailMode,
} from '../notifications';

// The channels' words (e-mail modes, delivery states) are plain data in ../notifications.ts.
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
