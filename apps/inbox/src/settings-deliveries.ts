// Issue #17 settings: what was sent to the person on the project — their deliveries newest first,
// by status (all / pending / sent / dead), a dead letter's reason and attempts, and "Redeliver"
// (same delivery id, attempts from zero). The notifier publishes no events: while a row is
// pending the list looks again every few seconds, otherwise now and then while the page is seen.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath } from './api';
import { useNow, useResource } from './hooks';
import { has, t } from './i18n';
import { ago, fullDate, sentenceFor } from './messages';
import { ErrorLine } from './ui';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type DeliveryListFilter,
  type DeliveryListReply,
  type DeliveryView,
} from '@openq/contracts/browser';
import { isOneOf } from './vocabulary';
import type { PageError } from './api';

const html = htm.bind(h);

/** The list's filters (`skipped` rows show under `all`). */
export const DELIVERY_FILTERS: readonly DeliveryListFilter[] = ['all', 'pending', 'sent', 'dead'];
const LIMIT = 50;
/** How often the list looks again: while something is pending, and otherwise. */
const PENDING_POLL_MS = 2000;
const IDLE_POLL_MS = 30000;

const kindName = (kind: string): string =>
  isOneOf(NOTIFICATION_KINDS, kind) ? t(`settings.deliveries.kinds.${kind}`) : kind;
const channelName = (c: string): string =>
  isOneOf(NOTIFICATION_CHANNELS, c) ? t(`settings.deliveries.channels.${c}`) : c;

function reasonText(lastError: string | null): string | null {
  // The codes and their words live once, in libs/contracts (locales.spec holds the dictionaries to
  // them): a code with a sentence is said in words, one the page does not know yet keeps its code.
  const key = `settings.deliveries.reasons.${lastError}`;
  return lastError && has(key) ? t(key) : lastError;
}

/** The refusals of "Redeliver", in words. */
function redeliverSentence(error: PageError): string {
  return error.reason === 'entrega_nao_encontrada'
    ? t('settings.deliveries.errors.notFound')
    : sentenceFor(error);
}

function When({ iso, now, label }: { iso: string; now: number; label: string }) {
  return html`<span
    >${label} <time datetime=${iso} title=${fullDate(iso)}>${ago(iso, now)}</time></span
  >`;
}

function Delivery({
  d,
  now,
  busy,
  error,
  onRedeliver,
}: {
  d: DeliveryView;
  now: number;
  busy: boolean;
  error: PageError | undefined;
  onRedeliver: (d: DeliveryView) => void;
}) {
  return html`<li class=${`delivery status-${d.status}`} data-delivery-id=${d.deliveryId} data-status=${d.status}>
    <p class="delivery-title">
      <span class=${`tag status-${d.status}`}>${t(`settings.deliveries.status.${d.status}`)}</span>
      <span class="delivery-kind">${kindName(d.kind)}</span>
      <span class="muted">${t('settings.deliveries.by', { channel: channelName(d.channel) })}</span>
    </p>
    <p class="meta">
      ${
        d.status === 'sent' && d.sentAt
          ? html`<${When} iso=${d.sentAt} now=${now} label=${t('settings.deliveries.sentAt')} />`
          : d.status === 'dead' && d.deadAt
            ? html`<${When} iso=${d.deadAt} now=${now} label=${t('settings.deliveries.deadAt')} />`
            : html`<${When} iso=${d.createdAt} now=${now} label=${t('settings.deliveries.createdAt')} />`
      }
      <span class="sep" aria-hidden="true">·</span>
      <span class="attempts">${t('settings.deliveries.attempts', { count: d.attempts })}</span>
    </p>
    ${
      d.lastError &&
      html`<p class="delivery-reason">
        <span class="reason-label">${
          d.status === 'dead'
            ? t('settings.deliveries.why')
            : d.status === 'skipped'
              ? t('settings.deliveries.whySkipped')
              : t('settings.deliveries.lastError')
        }</span>
        ${' '}<code>${reasonText(d.lastError)}</code>
      </p>`
    }
    ${
      d.status !== 'pending' && d.status !== 'skipped'
        ? html`<p class="delivery-actions">
            <button
              type="button"
              class="secondary"
              aria-busy=${busy}
              disabled=${busy}
              aria-describedby=${`delivery-${d.deliveryId}-kind`}
              onClick=${() => onRedeliver(d)}
            >
              ${busy ? t('settings.deliveries.redelivering') : t('settings.deliveries.redeliver')}
            </button>
            <span class="visually-hidden" id=${`delivery-${d.deliveryId}-kind`}
              >${kindName(d.kind)}, ${channelName(d.channel)}</span
            >
          </p>`
        : html`<p class="muted delivery-pending">${t('settings.deliveries.pendingNote')}</p>`
    }
    ${error && html`<p class="error" role="alert">${redeliverSentence(error)}</p>`}
  </li>`;
}

/** The section: the filter, the list, and the rows redelivered from here kept in view. */
export function DeliveriesSection({ id, projectId }: { id: string; projectId: string }) {
  const [filter, setFilter] = useState('all');
  const now = useNow();
  const list = useResource(
    () =>
      api<DeliveryListReply>(
        projectPath(projectId, `/notifications/deliveries?status=${filter}&limit=${LIMIT}`),
      ),
    `${projectId}|${filter}`,
  );
  // Rows redelivered from here stay on screen under any filter (a dead letter sent again is no
  // longer "dead"), their state followed in the full list until the filter changes.
  const [kept, setKept] = useState(new Map<string, DeliveryView>());
  const [busy, setBusy] = useState(new Set<string>());
  const [errors, setErrors] = useState(new Map<string, PageError>());
  const [said, setSaid] = useState<(() => string) | null>(null);

  useEffect(() => {
    setKept(new Map());
    setErrors(new Map());
  }, [projectId, filter]);

  const items = list.data?.items ?? [];
  const shownIds = new Set(items.map((d) => d.deliveryId));
  const rows = [...items, ...[...kept.values()].filter((d) => !shownIds.has(d.deliveryId))].sort((a, b) =>
    b.createdAt.localeCompare(a.createdAt),
  );
  const overlay = (d: DeliveryView): DeliveryView =>
    kept.has(d.deliveryId) && !shownIds.has(d.deliveryId) ? kept.get(d.deliveryId)! : d;
  const pending = rows.some((d) => overlay(d).status === 'pending');

  // Look again: soon while something is pending, now and then otherwise, never while hidden.
  const reloadAll = async () => {
    await list.reload();
    const outside = [...kept.values()].filter((d) => filter !== 'all' && d.status !== filter);
    if (outside.length === 0) return;
    try {
      const all = await api<DeliveryListReply>(
        projectPath(projectId, `/notifications/deliveries?status=all&limit=100`),
      );
      const byId = new Map(all.items.map((d) => [d.deliveryId, d]));
      setKept((m) => new Map([...m].map(([k, v]) => [k, byId.get(k) ?? v])));
    } catch {
      // The next look tries again.
    }
  };
  const reloadRef = useRef(reloadAll);
  reloadRef.current = reloadAll;
  useEffect(() => {
    if (list.loading) return undefined;
    const timer = setTimeout(
      () => {
        if (document.visibilityState !== 'hidden') void reloadRef.current();
      },
      pending ? PENDING_POLL_MS : IDLE_POLL_MS,
    );
    return () => clearTimeout(timer);
  }, [list.loading, list.data, kept, pending]);

  const redeliver = async (d: DeliveryView) => {
    setBusy((s) => new Set(s).add(d.deliveryId));
    setErrors((m) => {
      const next = new Map(m);
      next.delete(d.deliveryId);
      return next;
    });
    try {
      const reply = await api(
        projectPath(projectId, `/notifications/deliveries/${encodeURIComponent(d.deliveryId)}/redeliver`),
        { method: 'POST' },
      );
      const again = { ...d, status: reply.status, attempts: 0, deadAt: null, sentAt: null };
      setKept((m) => new Map(m).set(d.deliveryId, again));
      if (list.data)
        list.set({
          ...list.data,
          items: list.data.items.map((x) => (x.deliveryId === d.deliveryId ? again : x)),
        });
      setSaid(() => () => t('settings.deliveries.redelivered', { kind: kindName(d.kind) }));
    } catch (e) {
      setErrors((m) => new Map(m).set(d.deliveryId, e as PageError));
    } finally {
      setBusy((s) => {
        const next = new Set(s);
        next.delete(d.deliveryId);
        return next;
      });
    }
  };

  const total = list.data?.total ?? 0;
  return html`<section class="panel settings-section deliveries" id=${id} aria-labelledby=${`${id}-title`}>
    <div class="panel-head">
      <h2 id=${`${id}-title`} tabindex="-1">
        ${t('settings.deliveries.title')}
        ${list.data && html`<span class="count"><span class="visually-hidden">: </span>${total}</span>`}
      </h2>
      <p class="panel-sub">${t('settings.deliveries.sub')}</p>
    </div>
    <div class="deliveries-bar">
      <div class="sort delivery-filter" role="group" aria-label=${t('settings.deliveries.filter')}>
        ${DELIVERY_FILTERS.map(
          (f) =>
            html`<button
              type="button"
              class="sort-option"
              aria-pressed=${filter === f}
              onClick=${() => (filter === f ? reloadAll() : setFilter(f))}
            >
              ${t(`settings.deliveries.filters.${f}`)}
            </button>`,
        )}
      </div>
      <button type="button" class="link" onClick=${reloadAll} disabled=${list.loading}>
        ${t('settings.deliveries.refresh')}
      </button>
    </div>
    ${list.error && html`<${ErrorLine} error=${list.error} retry=${list.reload} />`}
    ${
      !list.data
        ? !list.error && html`<p class="empty" role="status">${t('ui.loading')}</p>`
        : rows.length === 0
          ? html`<p class="empty">${t(`settings.deliveries.empty.${filter}`)}</p>`
          : html`<ol class="delivery-list">
              ${rows.map((d) => {
                const row = overlay(d);
                return html`<${Delivery}
                  key=${row.deliveryId}
                  d=${row}
                  now=${now}
                  busy=${busy.has(row.deliveryId)}
                  error=${errors.get(row.deliveryId)}
                  onRedeliver=${redeliver}
                />`;
              })}
            </ol>`
    }
    ${
      list.data &&
      items.length < total &&
      html`<p class="cut">${t('settings.deliveries.showing', { shown: items.length, count: total })}</p>`
    }
    <p class="visually-hidden" role="status" aria-live="polite">${said?.()}</p>
  </section>`;
}
