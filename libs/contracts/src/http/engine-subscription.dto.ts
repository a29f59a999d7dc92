import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  MaxLength,
} from 'class-validator';
import { Transform } from 'class-transformer';
import { OPENQ_EVENT_TYPES } from '../events/openq-events';
import { STREAMS } from '../subjects';
import { IntFromString, IntRange, IsEntityIdList } from '../validators';

/** [openq] issue #34 the OPENQ_EVENTS families (`question`, `gate`, …), from the stream's subjects. */
export const OPENQ_EVENT_FAMILIES: readonly string[] = STREAMS.openqEvents.subjects.map((s) =>
  s.replace('.>', ''),
);

/**
 * [openq] issue #34 what an engine subscription or a catch-up may name: an event type
 * (`gate.resumed`) or a whole family (`gate.*`).
 */
export const ENGINE_EVENT_SELECTORS: readonly string[] = [
  ...OPENQ_EVENT_TYPES,
  ...OPENQ_EVENT_FAMILIES.map((f) => `${f}.*`),
];
export const ENGINE_SUBSCRIPTION_PROJECTS_MAX = 100;
export const ENGINE_EVENTS_LIMIT_MAX = 500;
export const ENGINE_EVENTS_LIMIT_DEFAULT = 100;

/** Whether `type` is named by `selectors` (a type, or its family's `<family>.*`). */
export function selectsEvent(selectors: readonly string[], type: string): boolean {
  const family = type.slice(0, type.indexOf('.'));
  return selectors.includes(type) || selectors.includes(`${family}.*`);
}

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };
const EVENTS_MESSAGE = `$property must hold event types or families (${OPENQ_EVENT_FAMILIES.map((f) => `${f}.*`).join(', ')})`;

/**
 * [openq] issue #34 (SPEC §12.5) `PUT /internal/engines/:engineId/subscription`: where openq POSTs
 * the engine's events — each matching event's §8 envelope, signed with `secret` like a person's
 * webhook — of which projects, of which types.
 */
export class EngineSubscriptionBody {
  @IsUrl(URL_OPTIONS, { message: '$property must be an http(s) URL' })
  @MaxLength(2000)
  url!: string;

  /** The HMAC-SHA256 key of `X-Openq-Signature`; never echoed back nor logged. */
  @IsString()
  @Length(16, 256, { message: '$property must be 16 to 256 characters' })
  secret!: string;

  @ArrayMinSize(1)
  @IsEntityIdList(ENGINE_SUBSCRIPTION_PROJECTS_MAX)
  projects!: string[];

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ENGINE_EVENT_SELECTORS.length)
  @IsIn(ENGINE_EVENT_SELECTORS, { each: true, message: EVENTS_MESSAGE })
  events!: string[];
}

/**
 * [openq] issue #34 `GET /internal/projects/:projectId/events?after=&limit=&types=`: openq's events of
 * the project after stream sequence `after`, oldest first; `types` a comma-separated list of
 * selectors (default: all).
 */
export class EngineEventsQuery {
  @IntFromString()
  @IntRange(0)
  after: number = 0;

  @IntFromString()
  @IntRange(1, ENGINE_EVENTS_LIMIT_MAX)
  limit: number = ENGINE_EVENTS_LIMIT_DEFAULT;

  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((t) => t.trim())
          .filter((t) => t !== '')
      : value,
  )
  @IsArray()
  @ArrayMaxSize(ENGINE_EVENT_SELECTORS.length)
  @IsIn(ENGINE_EVENT_SELECTORS, { each: true, message: EVENTS_MESSAGE })
  types?: string[];
}
