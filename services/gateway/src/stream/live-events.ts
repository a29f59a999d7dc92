import { isId, LIVE_FAMILIES, type LiveFamily } from '@openq/contracts';
import { decodeJson } from '@openq/messaging';
import { sseMessage } from './sse';

// The families, and the stream's own events, are libs/contracts' (live.ts): the inbox listens for them.
export { LIVE_FAMILIES, OPEN_COUNT_EVENT, READY_EVENT, type LiveFamily } from '@openq/contracts';

/** After these, the stream also says how many questions are open (`open_count`). */
export const COUNT_TRIGGERS: ReadonlySet<string> = new Set([
  'question.declared',
  'question.answered',
  'question.withdrawn',
]);

/**
 * One family's events of one project: `question.*.<projectId>`. nats-server 2.9 takes a single
 * `filter_subject` per consumer and refuses `*.*.<projectId>` (not a subset of the stream's
 * `question.>`, `decision.>`, … subjects), so a project's live events need one filter per family.
 */
export function familyFilter(family: LiveFamily, projectId: string): string {
  return `${family}.*.${projectId}`;
}

export interface LiveSubject {
  family: LiveFamily;
  /** The event type: the subject without its last token. */
  type: string;
  projectId: string;
}

/** `question.declared.p1` → its parts, or `null` for a subject the inbox does not follow. */
export function liveSubject(subject: string): LiveSubject | null {
  const tokens = subject.split('.');
  if (tokens.length < 3) return null;
  const family = tokens[0] as LiveFamily;
  const projectId = tokens[tokens.length - 1]!;
  if (!LIVE_FAMILIES.includes(family) || !isId(projectId)) return null;
  if (!tokens.every((t) => /^[a-z0-9_-]+$/i.test(t))) return null;
  return { family, type: tokens.slice(0, -1).join('.'), projectId };
}

/** One event of OPENQ_EVENTS, ready to be written to every stream of its project. */
export interface LiveEvent {
  /** The JetStream stream sequence: the SSE `id:`. */
  seq: number;
  type: string;
  projectId: string;
  /** The whole SSE message (id, event, data = the envelope JSON), built once for every client. */
  frame: string;
}

/**
 * A stored message as a live event, or `null` when it is not one the inbox follows, not JSON, or
 * its envelope names another project than its subject (never shown to that project's viewers).
 */
export function liveEventOf(subject: string, seq: number, payload: Uint8Array): LiveEvent | null {
  const parts = liveSubject(subject);
  if (!parts) return null;
  const decoded = decodeJson(payload);
  if (!decoded.ok) return null;
  const envelope = decoded.value as { projectId?: unknown } | null;
  if (typeof envelope !== 'object' || envelope === null || envelope.projectId !== parts.projectId)
    return null;
  // Re-serialised rather than forwarded: JSON.stringify never emits a raw line break.
  const frame = sseMessage({ id: seq, event: parts.type, data: JSON.stringify(envelope) });
  return { seq, type: parts.type, projectId: parts.projectId, frame };
}
