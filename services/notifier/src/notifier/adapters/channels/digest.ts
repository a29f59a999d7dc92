import { createHash } from 'node:crypto';
import { isKnownTimeZone, localWallMs } from '../../domain/clock/business-time';
import type { Language } from '@openq/contracts';
import type { Notification, NotificationKind } from './channel';
import type { RenderedEmail } from './templates/email-template';
import {
  escapeHtml,
  headingHtml,
  htmlDocument,
  leadHtml,
  notificationBodyHtml,
  notificationBodyText,
} from './templates/mail-parts';
import { headline, KIND_ORDER, languageOf, NOTIFICATION_WORDS } from './templates/wording';

/**
 * Digest mode of the e-mail channel, pure: when a user's next digest is due, and the one e-mail
 * that lists everything pending. Time comes in as an argument; time zones through Intl.
 */

export const DIGEST_MODES = ['hourly', 'daily'] as const;
export type DigestMode = (typeof DIGEST_MODES)[number];

export interface DigestSchedule {
  mode: DigestMode;
  /** IANA zone of the user (`Europe/Lisbon`); default `UTC`. */
  timeZone?: string;
  /** Daily: the local hour the digest goes out, 0..23; default 9 (09:00). */
  hour?: number;
}

export const DEFAULT_DIGEST_HOUR = 9;

export type DigestScheduleReason = 'modo_digest_invalido' | 'fuso_horario_invalido' | 'hora_digest_invalida';

/** A schedule that cannot be computed; `reason` is stable (the settings route answers it). */
export class DigestScheduleError extends Error {
  constructor(
    readonly reason: DigestScheduleReason,
    message: string,
  ) {
    super(message);
    this.name = 'DigestScheduleError';
  }
}

interface DigestWords {
  subjectPrefix: string;
  title: (mode: DigestMode) => string;
  summary: (total: number, waiting: number) => string;
  lead: string;
  more: (n: number) => string;
  footer: string;
}

/** The words of the digest that are not the notifications' own, in every language. */
export const DIGEST_WORDS: Readonly<Record<Language, DigestWords>> = {
  en: {
    subjectPrefix: '[openq]',
    title: (mode) => (mode === 'hourly' ? 'Your hourly openq digest' : 'Your daily openq digest'),
    summary: (total, waiting) =>
      `${total} update${total === 1 ? '' : 's'}` +
      (waiting > 0 ? `, ${waiting} waiting for your decision` : ''),
    lead: 'Everything openq had for you since the last digest, by project.',
    more: (n) => `…and ${n} more update${n === 1 ? '' : 's'}. Open openq to see them all.`,
    footer: 'You get this digest because you chose digest e-mails for these projects. Change it in openq.',
  },
  'pt-BR': {
    subjectPrefix: '[openq]',
    title: (mode) =>
      mode === 'hourly' ? 'Seu resumo do openq da última hora' : 'Seu resumo diário do openq',
    summary: (total, waiting) =>
      `${total} novidade${total === 1 ? '' : 's'}` +
      (waiting > 0 ? `, ${waiting} esperando a sua decisão` : ''),
    lead: 'Tudo o que o openq tinha para você desde o último resumo, por projeto.',
    more: (n) => `…e mais ${n} novidade${n === 1 ? '' : 's'}. Abra o openq para ver todas.`,
    footer:
      'Você recebe este resumo porque escolheu e-mails de resumo para estes projetos. Mude isso no openq.',
  },
};

/** The English words (before issue #30). */
export const DIGEST_STRINGS = DIGEST_WORDS.en;

const WAITING_KINDS: ReadonlySet<NotificationKind> = new Set([
  'gate_parked',
  'question_declared',
  'question_reminder',
  'question_due',
]);
const GATE_KINDS: ReadonlySet<NotificationKind> = new Set(['gate_parked', 'gate_resumed']);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// ---------------------------------------------------------------------------------------------
// When

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock in `timeZone` at `instant` (ms), read by the clock's one `Intl` reader. */
function wallTime(timeZone: string, instant: number): WallTime {
  const wall = new Date(localWallMs(timeZone, instant));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
}

/** A wall time read as if it were UTC, in ms: the arithmetic scale of wall clocks. */
function wallMs(w: Pick<WallTime, 'year' | 'month' | 'day' | 'hour'> & Partial<WallTime>): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute ?? 0, w.second ?? 0);
}

function offsetAt(timeZone: string, instant: number): number {
  return wallMs(wallTime(timeZone, instant)) - (instant - (((instant % 1000) + 1000) % 1000));
}

/**
 * The instant the wall clock of `timeZone` shows `wall`. A time skipped by a DST change
 * (02:30 on a spring-forward night) is the moment the clock jumps; a time shown twice (01:30
 * on a fall-back night) is the first of the two.
 */
function instantOfWall(timeZone: string, wall: number): number {
  const before = offsetAt(timeZone, wall - DAY);
  const after = offsetAt(timeZone, wall + DAY);
  const shown = [wall - before, wall - after]
    .filter((instant) => wallMs(wallTime(timeZone, instant)) === wall)
    .sort((a, b) => a - b);
  return shown[0] ?? wall - before;
}

function checked(schedule: DigestSchedule): Required<DigestSchedule> {
  if (!(DIGEST_MODES as readonly string[]).includes(schedule.mode)) {
    throw new DigestScheduleError(
      'modo_digest_invalido',
      `digest mode must be hourly or daily, not ${schedule.mode}`,
    );
  }
  const hour = schedule.hour ?? DEFAULT_DIGEST_HOUR;
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) {
    throw new DigestScheduleError(
      'hora_digest_invalida',
      `digest hour must be an integer 0..23, not ${hour}`,
    );
  }
  const timeZone = schedule.timeZone ?? 'UTC';
  if (!isKnownTimeZone(timeZone)) {
    throw new DigestScheduleError('fuso_horario_invalido', `unknown time zone: ${JSON.stringify(timeZone)}`);
  }
  return { mode: schedule.mode, timeZone, hour };
}

/** Throws `DigestScheduleError` when the schedule cannot be computed (for the settings route). */
export function validateDigestSchedule(schedule: DigestSchedule): void {
  checked(schedule);
}

/**
 * The first digest moment strictly after `after`. Hourly: the top of the next hour of the
 * user's clock. Daily: the next `hour`:00 of the user's clock (on a night the clock skips that
 * hour, the moment it jumps; on a night it repeats it, the first time).
 */
export function nextDigestSlot(schedule: DigestSchedule, after: Date): Date {
  const { mode, timeZone, hour } = checked(schedule);
  const t = after.getTime();
  if (Number.isNaN(t)) throw new RangeError('nextDigestSlot: invalid date');
  const now = wallTime(timeZone, t);
  if (mode === 'hourly') {
    const startOfHour = t - (((t % 1000) + 1000) % 1000) - (now.minute * 60 + now.second) * 1000;
    return new Date(startOfHour + HOUR);
  }
  for (let days = 0; ; days += 1) {
    const slot = instantOfWall(
      timeZone,
      wallMs({ year: now.year, month: now.month, day: now.day + days, hour }),
    );
    if (slot > t) return new Date(slot);
  }
}

/**
 * When the digest of these pending notifications goes out: the first slot after the oldest
 * of them (so a slot missed while the notifier was down is due at once), and whether `now`
 * has reached it. Nothing pending → null.
 */
export function digestDue(
  pending: readonly Notification[],
  schedule: DigestSchedule,
  now: Date,
): { dueAt: Date; due: boolean } | null {
  if (pending.length === 0) return null;
  const oldest = Math.min(...pending.map((n) => Date.parse(n.occurredAt)));
  if (Number.isNaN(oldest)) throw new RangeError('digestDue: a notification has an invalid occurredAt');
  const dueAt = nextDigestSlot(schedule, new Date(oldest));
  return { dueAt, due: now.getTime() >= dueAt.getTime() };
}

// ---------------------------------------------------------------------------------------------
// What

export interface RenderedDigest extends RenderedEmail {
  /** Stable for the same set of notifications: the digest's Message-ID. */
  id: string;
  /** Notifications listed (the rest is counted in the "more" line). */
  listed: number;
}

/** `digest-<32 hex>` from the notification ids, whatever their order. */
export function digestId(notifications: readonly Notification[]): string {
  const ids = notifications.map((n) => n.id).sort();
  return `digest-${createHash('sha256').update(ids.join('\n')).digest('hex').slice(0, 32)}`;
}

/** Projects in name order; in each, kinds in `KIND_ORDER`; in each kind, oldest first. */
function grouped(
  notifications: readonly Notification[],
): Array<[string, Array<[NotificationKind, Notification[]]>]> {
  const projects = [...new Set(notifications.map((n) => n.projectId))].sort();
  return projects.map((projectId) => {
    const own = notifications.filter((n) => n.projectId === projectId);
    const kinds = KIND_ORDER.map(
      (kind) =>
        [
          kind,
          own
            .filter((n) => n.kind === kind)
            .sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.id.localeCompare(b.id)),
        ] as [NotificationKind, Notification[]],
    ).filter(([, list]) => list.length > 0);
    return [projectId, kinds];
  });
}

/**
 * One e-mail listing `notifications` grouped by project and kind, each with its own links
 * (accept, open), at most `maxItems` of them (default 50) and a line counting the rest.
 */
export function renderDigest(
  notifications: readonly Notification[],
  options: { mode: DigestMode; maxItems?: number },
): RenderedDigest {
  if (notifications.length === 0) throw new RangeError('renderDigest: nothing to digest');
  const maxItems = options.maxItems ?? 50;
  // One person's digest: their language (the first notification's, when projects differ).
  const language = languageOf(notifications[0]!);
  const DIGEST_STRINGS = DIGEST_WORDS[language];
  const NOTIFICATION_STRINGS = NOTIFICATION_WORDS[language];
  const waiting = notifications.filter((n) => WAITING_KINDS.has(n.kind)).length;
  const title = DIGEST_STRINGS.title(options.mode);
  const summary = DIGEST_STRINGS.summary(notifications.length, waiting);
  const html: string[] = [headingHtml(1, title), leadHtml(`${summary}. ${DIGEST_STRINGS.lead}`)];
  const text: string[] = [title, '', `${summary}. ${DIGEST_STRINGS.lead}`];
  let listed = 0;
  for (const [projectId, kinds] of grouped(notifications)) {
    if (listed >= maxItems) break;
    const project = NOTIFICATION_STRINGS.project(projectId);
    html.push(headingHtml(2, project));
    text.push('', '', `== ${project} ==`);
    for (const [kind, list] of kinds) {
      if (listed >= maxItems) break;
      html.push(headingHtml(3, NOTIFICATION_STRINGS.groupTitle[kind]));
      text.push('', `-- ${NOTIFICATION_STRINGS.groupTitle[kind]} --`);
      for (const n of list.slice(0, maxItems - listed)) {
        // A gate's entry says which gate; a question's entry is its question (the group says the rest).
        const title = GATE_KINDS.has(n.kind) ? headline(n) : null;
        html.push(
          `<div style="margin:8px 0 16px;padding:0 0 12px;border-bottom:1px solid #d0d7de">`,
          ...(title ? [`<p style="margin:8px 0 0;font-weight:600">${escapeHtml(title)}</p>`] : []),
          notificationBodyHtml(n),
          '</div>',
        );
        text.push('', ...(title ? [`* ${title}`, ''] : []), notificationBodyText(n));
        listed += 1;
      }
    }
  }
  const rest = notifications.length - listed;
  if (rest > 0) {
    html.push(leadHtml(DIGEST_STRINGS.more(rest)));
    text.push('', DIGEST_STRINGS.more(rest));
  }
  text.push('', '--', DIGEST_STRINGS.footer);
  return {
    id: digestId(notifications),
    subject: `${DIGEST_STRINGS.subjectPrefix} ${title}: ${summary}`,
    html: htmlDocument(title, html.join('\n'), DIGEST_STRINGS.footer, language),
    text: `${text.join('\n')}\n`,
    listed,
  };
}
