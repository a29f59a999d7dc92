// Issue #17 settings: the person's working hours, on every project (GET/PUT/DELETE
// /me/working-time). The clock of a question counts its due time in its author's working time,
// and nobody is told anything in their quiet hours. Refusals come back with the field they are
// about (`timeZone`, `days`, `start`, `end`, `quietHours.start`…), marked as in the channels.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import htm from 'htm';
import type { WorkingTimeView } from '@openq/contracts/browser';
import { api, type ApiOptions, type PageError } from './api';
import { CLOCK_REASONS } from '@openq/contracts/browser';
import { browserZone, refusedFieldOf, useTimeZones } from './clock';
import { useResource } from './hooks';
import { language, t } from './i18n';
import { sentenceFor } from './messages';
import { ErrorLine, useSave } from './ui';
import { isOneOf } from './vocabulary';
import type { EventOn, SubmitEvent } from './dom';

const html = htm.bind(h);

/** ISO weekdays, 1 = Monday … 7 = Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];

/** A weekday's name in the person's language (2026-01-05 was a Monday). */
function dayName(day: number, width: 'long' | 'short' | 'narrow' = 'long'): string {
  return new Intl.DateTimeFormat(language(), { weekday: width, timeZone: 'UTC' }).format(
    Date.UTC(2026, 0, 4 + day),
  );
}

/** A refused field → the id of the input that shows it (`quietHours.start` → `wt-quiet-start`). */
function inputOf(field: string | null | undefined): string | null {
  if (!field) return null;
  if (field.startsWith('timeZone')) return 'wt-zone';
  if (field.startsWith('days')) return 'wt-day-1';
  if (field.startsWith('start')) return 'wt-start';
  if (field.startsWith('end')) return 'wt-end';
  if (field.startsWith('quietHours.end')) return 'wt-quiet-end';
  if (field.startsWith('quietHours')) return 'wt-quiet-start';
  return null;
}

/** A refusal in words, and the input it marks. */
export function workingTimeRefusal(error: PageError): { sentence: string; input: string | null } {
  if (error?.local) return { sentence: error.message ?? '', input: inputOf(error.field) };
  if (!isOneOf(CLOCK_REASONS, error?.reason)) return { sentence: sentenceFor(error), input: null };
  const field = refusedFieldOf(error);
  return { sentence: t(`clock.reasons.${error.reason}`), input: inputOf(field) ?? 'wt-start' };
}

/** A person's working time as the page reads it (`GET /me/working-time`'s `workingTime`). */
interface WorkingTime {
  timeZone: string;
  days: number[];
  start: string;
  end: string;
  quietHours?: { start: string; end: string } | null;
}

const fromServer = (wt: WorkingTime | null | undefined) => ({
  timeZone: wt?.timeZone ?? browserZone(),
  days: wt?.days ?? [1, 2, 3, 4, 5],
  start: wt?.start ?? '09:00',
  end: wt?.end ?? '18:00',
  quiet: Boolean(wt?.quietHours),
  quietStart: wt?.quietHours?.start ?? '',
  quietEnd: wt?.quietHours?.end ?? '',
});

export function WorkingHoursSection({ id }: { id: string }) {
  const current = useResource(
    () => api<WorkingTimeView & { workingTime: WorkingTime }>('/me/working-time'),
    'me',
  );
  const data = current.data;
  const [form, setForm] = useState(() => fromServer(null));
  const { busy, error, said, setError, save } = useSave();
  const zones = useTimeZones(form.timeZone);
  const refusal = error ? workingTimeRefusal(error) : null;
  const errorId = `${id}-error`;

  // What the server holds once loaded or saved; a person with none starts from the browser's zone.
  useEffect(() => {
    if (!data) return;
    const next = fromServer(data.workingTime);
    if (data.isDefault) next.timeZone = browserZone();
    setForm(next);
  }, [data?.updatedAt, data?.isDefault]);

  useEffect(() => {
    if (refusal?.input) document.getElementById(refusal.input)?.focus();
  }, [error]);

  const set = (patch: Partial<ReturnType<typeof fromServer>>) => setForm((f) => ({ ...f, ...patch }));
  const toggleDay = (day: number, on: boolean) =>
    set({ days: on ? [...new Set([...form.days, day])].sort() : form.days.filter((d) => d !== day) });

  const send = (method: ApiOptions['method'], body: unknown, sentence: () => string) =>
    save(async () => current.set(await api('/me/working-time', { method, body })), sentence);

  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    if (form.days.length === 0)
      return setError({ local: true, field: 'days', message: t('settings.workingHours.errors.noDays') });
    if (form.quiet && (!form.quietStart || !form.quietEnd))
      return setError({
        local: true,
        field: form.quietStart ? 'quietHours.end' : 'quietHours.start',
        message: t('settings.workingHours.errors.quietMissing'),
      });
    const body: Record<string, unknown> = {
      timeZone: form.timeZone,
      days: form.days,
      start: form.start,
      end: form.end,
    };
    if (form.quiet) body.quietHours = { start: form.quietStart, end: form.quietEnd };
    void send('PUT', body, () => t('settings.workingHours.saved'));
  };

  const invalid = (inputId: string) => (refusal?.input === inputId ? 'true' : undefined);
  const describedBy = (inputId: string, hint?: string) =>
    [hint, refusal?.input === inputId ? errorId : null].filter(Boolean).join(' ') || undefined;

  return html`<section class="panel settings-section working-hours" id=${id} aria-labelledby=${`${id}-title`}>
    <div class="panel-head">
      <h2 id=${`${id}-title`} tabindex="-1">${t('settings.workingHours.title')}</h2>
      <p class="panel-sub">${t('settings.workingHours.sub')}</p>
    </div>
    ${current.error && html`<${ErrorLine} error=${current.error} retry=${current.reload} />`}
    ${
      !data
        ? !current.error && html`<p class="empty" role="status">${t('ui.loading')}</p>`
        : html`<form class="channel clock-form" noValidate onSubmit=${onSubmit} aria-labelledby=${`${id}-title`}>
            <p class="channel-state" data-testid="working-hours-state">
              ${
                data.isDefault
                  ? t('settings.workingHours.isDefault')
                  : t('settings.workingHours.state', {
                      days: data.workingTime.days.map((d) => dayName(d, 'short')).join(', '),
                      start: data.workingTime.start,
                      end: data.workingTime.end,
                      zone: data.workingTime.timeZone,
                    })
              }
            </p>
            <div class="channel-field">
              <label for="wt-zone">${t('settings.workingHours.zone')}</label>
              <input
                id="wt-zone"
                type="text"
                list="wt-zones"
                autocomplete="off"
                spellcheck="false"
                maxlength="64"
                value=${form.timeZone}
                aria-invalid=${invalid('wt-zone')}
                aria-describedby=${describedBy('wt-zone', 'wt-zone-hint')}
                onInput=${(e: EventOn) => set({ timeZone: e.currentTarget.value.trim() })}
              />
              <datalist id="wt-zones">${zones.map((z) => html`<option value=${z} />`)}</datalist>
              <p class="hint" id="wt-zone-hint">${t('settings.workingHours.zoneHint', { zone: browserZone() })}</p>
            </div>
            <fieldset class="clock-days" aria-invalid=${invalid('wt-day-1')} aria-describedby=${describedBy('wt-day-1')}>
              <legend>${t('settings.workingHours.days')}</legend>
              ${WEEKDAYS.map(
                (d) => html`<label class="clock-day" for=${`wt-day-${d}`}>
                  <input
                    type="checkbox"
                    id=${`wt-day-${d}`}
                    checked=${form.days.includes(d)}
                    onChange=${(e: EventOn) => toggleDay(d, e.currentTarget.checked)}
                  />
                  ${dayName(d)}
                </label>`,
              )}
            </fieldset>
            <div class="clock-row">
              <div class="channel-field">
                <label for="wt-start">${t('settings.workingHours.start')}</label>
                <input
                  id="wt-start"
                  type="text"
                  inputmode="numeric"
                  autocomplete="off"
                  maxlength="5"
                  placeholder="HH:MM"
                  value=${form.start}
                  aria-invalid=${invalid('wt-start')}
                  aria-describedby=${describedBy('wt-start')}
                  onInput=${(e: EventOn) => set({ start: e.currentTarget.value })}
                />
              </div>
              <div class="channel-field">
                <label for="wt-end">${t('settings.workingHours.end')}</label>
                <input
                  id="wt-end"
                  type="text"
                  inputmode="numeric"
                  autocomplete="off"
                  maxlength="5"
                  placeholder="HH:MM"
                  value=${form.end}
                  aria-invalid=${invalid('wt-end')}
                  aria-describedby=${describedBy('wt-end')}
                  onInput=${(e: EventOn) => set({ end: e.currentTarget.value })}
                />
              </div>
            </div>
            <label class="clock-check" for="wt-quiet">
              <input
                type="checkbox"
                id="wt-quiet"
                checked=${form.quiet}
                onChange=${(e: EventOn) => set({ quiet: e.currentTarget.checked })}
              />
              ${t('settings.workingHours.quiet')}
            </label>
            ${
              form.quiet &&
              html`<div class="clock-row">
                <div class="channel-field">
                  <label for="wt-quiet-start">${t('settings.workingHours.quietStart')}</label>
                  <input
                    id="wt-quiet-start"
                    type="text"
                    inputmode="numeric"
                    autocomplete="off"
                    maxlength="5"
                    placeholder="HH:MM"
                    value=${form.quietStart}
                    aria-invalid=${invalid('wt-quiet-start')}
                    aria-describedby=${describedBy('wt-quiet-start')}
                    onInput=${(e: EventOn) => set({ quietStart: e.currentTarget.value })}
                  />
                </div>
                <div class="channel-field">
                  <label for="wt-quiet-end">${t('settings.workingHours.quietEnd')}</label>
                  <input
                    id="wt-quiet-end"
                    type="text"
                    inputmode="numeric"
                    autocomplete="off"
                    maxlength="5"
                    placeholder="HH:MM"
                    value=${form.quietEnd}
                    aria-invalid=${invalid('wt-quiet-end')}
                    aria-describedby=${describedBy('wt-quiet-end')}
                    onInput=${(e: EventOn) => set({ quietEnd: e.currentTarget.value })}
                  />
                </div>
              </div>`
            }
            <p class="hint">${t('settings.workingHours.hint')}</p>
            <div class="channel-actions">
              <button type="submit" class="secondary" aria-busy=${busy} disabled=${busy}>
                ${busy ? t('settings.channels.saving') : t('settings.workingHours.save')}
              </button>
              ${
                !data.isDefault &&
                html`<button
                  type="button"
                  class="link"
                  disabled=${busy}
                  onClick=${() => send('DELETE', undefined, () => t('settings.workingHours.reset'))}
                >
                  ${t('settings.workingHours.resetButton')}
                </button>`
              }
            </div>
            ${refusal && html`<p class="error" role="alert" id=${errorId}>${refusal.sentence}</p>`}
            <p class="saved" role="status" data-testid="working-hours-said">${said?.()}</p>
          </form>`
    }
  </section>`;
}
