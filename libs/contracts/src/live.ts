import { OPENQ_EVENT_NAMES, type OpenqEventName } from './events/openq-event-types';

/**
 * [openq] SPEC §4 the project's live stream (`GET /projects/:p/stream`, server-sent events): the
 * event families it follows and its own two events. The gateway sends them; the inbox listens for
 * them by name (EventSource hears a named event only with a listener), so both read this module.
 */

/** The OPENQ_EVENTS families the inbox follows live; `story.*` is not the inbox's. */
export const LIVE_FAMILIES = ['question', 'decision', 'gate', 'pipeline'] as const;
export type LiveFamily = (typeof LIVE_FAMILIES)[number];

/** The synthetic event carrying `{ open }` from `questions.count`. */
export const OPEN_COUNT_EVENT = 'open_count';
/** Sent once per connection, after any catch-up: `{ resumed, reset }`, `id:` = the resume point. */
export const READY_EVENT = 'ready';

/** An openq event type of a live family: `question.declared`, `gate.resumed`, … */
export type StreamedEventType = Extract<OpenqEventName, `${LiveFamily}.${string}`>;

function isStreamed(type: OpenqEventName): type is StreamedEventType {
  return (LIVE_FAMILIES as readonly string[]).includes(type.split('.')[0]!);
}

/** The event types of OPENQ_EVENT_TABLE the stream sends. */
export const STREAMED_EVENT_TYPES: readonly StreamedEventType[] = OPENQ_EVENT_NAMES.filter(isStreamed);

/** Every named event of the stream: the streamed event types and the stream's own. */
export type LiveEventType = StreamedEventType | typeof READY_EVENT | typeof OPEN_COUNT_EVENT;
export const LIVE_EVENT_TYPES: readonly LiveEventType[] = [
  READY_EVENT,
  OPEN_COUNT_EVENT,
  ...STREAMED_EVENT_TYPES,
];
