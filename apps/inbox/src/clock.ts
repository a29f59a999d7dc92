// Issue #17 the clock of a question, on the cards: where each open question stands (on time, due
// soon, overdue) from GET /projects/:p/open-questions/clock, one request per project shown,
// looked at again when the list changes and every minute (the notifier publishes no event for
// "it became overdue"). Also the words for a clock policy, shared with the settings section.
import { h } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath, type PageError } from './api';
import type { ClockStateItem as ClockItem, ClockStateReply } from '@openq/contracts/browser';
import { formatNumber, language, t } from './i18n';
import { fullDate } from './messages';

const html = htm.bind(h);

/** How often the markers look again while the page is seen. */
export const CLOCK_POLL_MS = 60_000;

/**
 * `questionId → item` of the clock of every project in `projectIds`, reloaded when `changeKey`
 * changes (the list was reloaded) and every minute. A project without a policy, or a failed look,
 * simply gives no markers: the cards never wait on the clock.
 */
export function useQuestionClock(projectIds: readonly (string | null | undefined)[], changeKey: unknown) {
  const [items, setItems] = useState(new Map<string, ClockItem>());
  const latest = useRef(0);
  const ids = [...new Set(projectIds.filter((p): p is string => Boolean(p)))].sort();
  const idsKey = ids.join('|');
  const load = useRef<() => Promise<void>>(async () => {});
  load.current = async () => {
    const mine = ++latest.current;
    const replies = await Promise.all(
      ids.map((p) => api<ClockStateReply>(projectPath(p, '/open-questions/clock')).catch(() => null)),
    );
    if (mine !== latest.current) return;
    const next = new Map<string, ClockItem>();
    for (const reply of replies)
      for (const item of reply?.clock ? reply.items : []) next.set(item.questionId, item);
    setItems(next);
  };
  useEffect(() => {
    if (!idsKey) {
      setItems(new Map());
      return undefined;
    }
    void load.current();
    return undefined;
  }, [idsKey, changeKey]);
  useEffect(() => {
    if (!idsKey) return undefined;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') void load.current();
    }, CLOCK_POLL_MS);
    return () => clearInterval(timer);
  }, [idsKey]);
  return items;
}

/** A time as "in 3 hours" when it is near and ahead, else as a short date and time. */
function dueWhen(iso: string, now: number): string {
  const at = Date.parse(iso);
  const ahead = at - now;
  if (ahead > 0 && ahead < 24 * 3_600_000) {
    const relative = new Intl.RelativeTimeFormat(language(), { numeric: 'auto' });
    const minutes = Math.round(ahead / 60_000);
    return minutes < 60
      ? relative.format(Math.max(minutes, 1), 'minute')
      : relative.format(Math.round(minutes / 60), 'hour');
  }
  return shortDate(iso);
}

/** "Dec 2, 10:00 AM" / "2 de dez., 10:00". */
export function shortDate(iso: string): string {
  return new Intl.DateTimeFormat(language(), {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(Date.parse(iso));
}

/**
 * The card's marker: "Due in 2 hours" (due soon: amber), "Overdue since Dec 2, 10:00 — ana is
 * late" (red), a quiet "Due Dec 3, 09:00" on time. The words carry the state, not the colour.
 */
export function ClockMarker({ item, now }: { item: ClockItem | undefined; now: number }) {
  if (!item) return null;
  const when = html`<time datetime=${item.dueAt} title=${fullDate(item.dueAt)}
    >${item.state === 'overdue' ? shortDate(item.dueAt) : dueWhen(item.dueAt, now)}</time
  >`;
  return html`<p class="clock-marker clock-${item.state}" data-clock-state=${item.state}>
    <span class="clock-icon" aria-hidden="true">${item.state === 'overdue' ? '!' : '◷'}</span>${' '}
    ${
      item.state === 'overdue'
        ? html`<span
            ><strong>${t('clock.marker.overdue')}</strong>${' '}${when}${' '}<span class="sep" aria-hidden="true"
              >·</span
            >${' '}<span class="clock-late">${t('clock.marker.late', { author: item.authorId })}</span></span
          >`
        : html`<span
            >${item.state === 'due_soon' ? html`<strong>${t('clock.marker.dueSoon')}</strong>` : t('clock.marker.due')}
            ${' '}${when}</span
          >`
    }
  </p>`;
}

/** `{ hours: 1, minutes: 30 }` → "1 h 30 min" (the policy's spans are business time). */
export function durationText(d: Duration | null | undefined): string {
  const minutes = (d?.hours ?? 0) * 60 + (d?.minutes ?? 0);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const parts: string[] = [];
  if (hours) parts.push(t('clock.units.hours', { n: formatNumber(hours) }));
  if (rest || !hours) parts.push(t('clock.units.minutes', { n: formatNumber(rest) }));
  return parts.join(' ');
}

/** "a, b and c" in the person's language. */
export function listText(words: readonly string[]): string {
  return new Intl.ListFormat(language(), { style: 'long', type: 'conjunction' }).format(words);
}

/** A length of time as the clock's policies write it. */
export interface Duration {
  hours?: number;
  minutes?: number;
}

/** A project's clock policy (`PUT /projects/:p/clock-policy`'s body, as the page reads it). */
export interface ClockPolicy {
  dueAfter: Duration;
  reminders?: Duration[];
  escalateAfter?: Duration;
  escalateTo?: 'maintainers' | { users: string[] };
}

/** A policy in words, one sentence per part: due, reminders, escalation. */
export function policySentences(policy: ClockPolicy): string[] {
  const out = [t('clock.policy.due', { after: durationText(policy.dueAfter) })];
  out.push(
    policy.reminders?.length
      ? t('clock.policy.reminders', {
          at: listText(policy.reminders.map(durationText)),
          count: policy.reminders.length,
        })
      : t('clock.policy.noReminders'),
  );
  if (!policy.escalateAfter) out.push(t('clock.policy.noEscalation'));
  else if (policy.escalateTo === 'maintainers')
    out.push(t('clock.policy.escalateMaintainers', { after: durationText(policy.escalateAfter) }));
  else
    out.push(
      t('clock.policy.escalateUsers', {
        after: durationText(policy.escalateAfter),
        users: listText(policy.escalateTo?.users ?? []),
        count: policy.escalateTo?.users.length ?? 0,
      }),
    );
  return out;
}

/** The refused field of an error: the gateway sends `field` in the body. */
export function refusedFieldOf(error: PageError | null | undefined): string | null {
  if (error?.local) return error.field ?? null;
  const details = error?.body?.details as { field?: unknown } | undefined;
  const field = error?.body?.field ?? details?.field;
  return typeof field === 'string' ? field : null;
}

/** Memoised `Intl.supportedValuesOf('timeZone')` (with the browser's own zone and UTC). */
export function useTimeZones(current: string | null | undefined): string[] {
  return useMemo(() => {
    let zones: string[] = [];
    try {
      zones = Intl.supportedValuesOf('timeZone');
    } catch {
      zones = [];
    }
    return [
      ...new Set([...zones, 'UTC', browserZone(), current].filter((z): z is string => Boolean(z))),
    ].sort();
  }, [current]);
}

export function browserZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
