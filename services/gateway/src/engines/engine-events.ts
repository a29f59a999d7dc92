import type { NatsConnection } from 'nats';
import { OPENQ_EVENT_FAMILIES, type EventEnvelope } from '@openq/contracts';
import { decodeJson } from '@openq/messaging';
import { readStored } from '../stream/catch-up';

export interface CaughtUpEvent {
  /** Its OPENQ_EVENTS sequence: what `after` takes, and `X-Openq-Stream-Seq` of a subscription's POST. */
  seq: number;
  envelope: EventEnvelope;
}

export interface CaughtUp {
  events: CaughtUpEvent[];
  /** The `after` of the next call: the last event's `seq` (or the `after` given, when none). */
  next: number;
}

/**
 * The filter subjects that cover `selectors` in one project: a family (`gate.*`) as
 * `gate.*.<projectId>`, a type as `<type>.<projectId>` unless its family is already named.
 * nats-server 2.9 takes one filter per consumer, so each is read apart and merged by sequence.
 */
export function projectFilters(projectId: string, selectors: readonly string[] | undefined): string[] {
  const chosen = selectors?.length ? selectors : OPENQ_EVENT_FAMILIES.map((f) => `${f}.*`);
  const families = new Set(chosen.filter((s) => s.endsWith('.*')).map((s) => s.slice(0, -2)));
  const filters = [...families].map((f) => `${f}.*.${projectId}`);
  for (const type of new Set(chosen.filter((s) => !s.endsWith('.*'))))
    if (!families.has(type.slice(0, type.indexOf('.')))) filters.push(`${type}.${projectId}`);
  return filters;
}

/**
 * [openq] issue #34 (SPEC §12.5) the catch-up of an engine: openq's events of the project with a
 * sequence after `after`, oldest first, at most `limit`. Each filter is read for at most `limit`
 * messages; the merge's first `limit` are exactly the stream's, since any of them is among the
 * first `limit` of its own filter. A message whose envelope names another project than its
 * subject, or is not JSON, is skipped (the consumers dead-letter it).
 */
export async function readProjectEvents(
  nc: NatsConnection,
  projectId: string,
  query: { after: number; limit: number; types?: string[] },
): Promise<CaughtUp> {
  const reads = await Promise.all(
    projectFilters(projectId, query.types).map((filter) =>
      readStored(nc, filter, query.after + 1, { upTo: Number.MAX_SAFE_INTEGER, take: query.limit }),
    ),
  );
  if (reads.some((r) => !r.complete)) throw new Error('JetStream stopped answering during the catch-up');
  const read = reads
    .flatMap((r) => r.messages)
    .sort((a, b) => a.seq - b.seq)
    .slice(0, query.limit);
  const events = read.flatMap((m): CaughtUpEvent[] => {
    const decoded = decodeJson(m.data);
    const envelope = decoded.ok ? (decoded.value as EventEnvelope) : null;
    return envelope?.projectId === projectId ? [{ seq: m.seq, envelope }] : [];
  });
  return { events, next: read.at(-1)?.seq ?? query.after };
}
