// Issue #17 settings: the project's clock for its open questions (GET/PUT/DELETE
// /projects/:p/clock-policy) — when a question is due, when its author is reminded, when and whom
// the notifier tells that the author is late. Everyone on the project reads it in words; a
// maintainer or an owner changes it (the gateway refuses anyone else with 403, the page shows
// them no controls). Spans are whole hours and minutes of the author's working time.
import { h } from 'preact';
import { useEffect } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath, type ApiOptions, type PageError } from './api';
import { CLOCK_REASONS } from '@openq/contracts/browser';
import { policySentences, refusedFieldOf, type ClockPolicy, type Duration } from './clock';
import { useDraft, useNow, useResource, type Me } from './hooks';
import { t } from './i18n';
import { ago, fullDate, sentenceFor } from './messages';
import { ErrorLine, useSave } from './ui';
import { hasRole, isOneOf } from './vocabulary';
import type { EventOn, SubmitEvent } from './dom';
import type { ClockPolicyView } from '@openq/contracts/browser';

const html = htm.bind(h);

/** The roles that set the clock (the gateway's @MinRole('maintainer') on PUT and DELETE). */
export const canSetClock = (role: string | null | undefined): boolean => hasRole(role, 'maintainer');

/** `{ hours: 1, minutes: 30 }` → "1.5" (the form's hours field). */
function hoursOf(d: Duration | null | undefined): string {
  if (!d) return '';
  const minutes = (d.hours ?? 0) * 60 + (d.minutes ?? 0);
  return String(Math.round((minutes / 60) * 100) / 100);
}

/** "1.5" → `{ hours: 1, minutes: 30 }`; "0.25" → `{ minutes: 15 }`; null when not a positive number. */
export function durationOf(text: string): Duration | null {
  const n = Number(String(text).trim().replace(',', '.'));
  if (!String(text).trim() || !Number.isFinite(n) || n <= 0) return null;
  const minutes = Math.round(n * 60);
  if (minutes <= 0) return null;
  const d: Duration = {};
  if (Math.floor(minutes / 60)) d.hours = Math.floor(minutes / 60);
  if (minutes % 60) d.minutes = minutes % 60;
  return d;
}

/** A refused field → the input that shows it: `reminders[1].hours` → `clock-reminder-1`. */
function inputOf(field: string | null | undefined): string | null {
  if (!field) return null;
  if (field.startsWith('dueAfter')) return 'clock-due';
  const reminder = /^reminders\[(\d+)\]/.exec(field);
  if (reminder) return `clock-reminder-${reminder[1]}`;
  if (field.startsWith('reminders')) return 'clock-add-reminder';
  if (field.startsWith('escalateAfter')) return 'clock-escalate-after';
  if (field.startsWith('escalateTo')) return 'clock-escalate-users';
  return null;
}

export function clockRefusal(error: PageError): { sentence: string; input: string | null } {
  if (error?.local) return { sentence: error.message ?? '', input: inputOf(error.field) };
  if (!isOneOf(CLOCK_REASONS, error?.reason)) return { sentence: sentenceFor(error), input: null };
  return { sentence: t(`clock.reasons.${error.reason}`), input: inputOf(refusedFieldOf(error)) };
}

const fromPolicy = (p: ClockPolicy | null) => ({
  due: p ? hoursOf(p.dueAfter) : '8',
  reminders: p ? (p.reminders ?? []).map(hoursOf) : [],
  escalate: Boolean(p?.escalateAfter),
  escalateAfter: p?.escalateAfter ? hoursOf(p.escalateAfter) : '',
  to: !p || p.escalateTo === 'maintainers' ? 'maintainers' : 'users',
  users: p && p.escalateTo && p.escalateTo !== 'maintainers' ? p.escalateTo.users.join(', ') : '',
});

function PolicyForm({
  projectId,
  policy,
  updatedAt,
  onSaved,
}: {
  projectId: string;
  policy: ClockPolicy | null;
  updatedAt: string | null;
  onSaved: (view: ClockPolicyView) => void;
}) {
  // What the server holds, once loaded, saved or removed; the person's edits until then.
  const [form, setForm] = useDraft(() => fromPolicy(policy), updatedAt);
  const { busy, error, said, setError, save } = useSave();
  const refusal = error ? clockRefusal(error) : null;
  const errorId = 'clock-policy-error';
  const set = (patch: Partial<ReturnType<typeof fromPolicy>>) => setForm((f) => ({ ...f, ...patch }));

  useEffect(() => {
    if (refusal?.input) document.getElementById(refusal.input)?.focus();
  }, [error]);

  const send = (method: ApiOptions['method'], body: unknown, sentence: () => string) =>
    save(async () => onSaved(await api(projectPath(projectId, '/clock-policy'), { method, body })), sentence);

  const local = (field: string, key: string) => setError({ local: true, field, message: t(key) });
  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    const dueAfter = durationOf(form.due);
    if (!dueAfter) return local('dueAfter', 'settings.clock.errors.hours');
    const reminders: { hours?: number; minutes?: number }[] = [];
    for (const [i, r] of form.reminders.entries()) {
      const d = durationOf(r);
      if (!d) return local(`reminders[${i}]`, 'settings.clock.errors.hours');
      reminders.push(d);
    }
    const body: Record<string, unknown> = { dueAfter, reminders };
    if (form.escalate) {
      const after = durationOf(form.escalateAfter);
      if (!after) return local('escalateAfter', 'settings.clock.errors.hours');
      body.escalateAfter = after;
      if (form.to === 'users') {
        const users = form.users
          .split(/[\s,]+/)
          .map((u) => u.trim())
          .filter(Boolean);
        if (!users.length) return local('escalateTo.users', 'settings.clock.errors.noUsers');
        body.escalateTo = { users };
      } else body.escalateTo = 'maintainers';
    }
    void send('PUT', body, () => t('settings.clock.saved'));
  };

  const invalid = (inputId: string) => (refusal?.input === inputId ? 'true' : undefined);
  const describedBy = (inputId: string) => (refusal?.input === inputId ? errorId : undefined);
  const hoursInput = (inputId: string, value: string, onValue: (v: string) => void, label?: string) =>
    html`<input
      id=${inputId}
      type="text"
      inputmode="decimal"
      autocomplete="off"
      maxlength="7"
      class="clock-hours"
      value=${value}
      aria-label=${label}
      aria-invalid=${invalid(inputId)}
      aria-describedby=${describedBy(inputId)}
      onInput=${(e: EventOn) => onValue(e.currentTarget.value)}
    />`;

  return html`<form class="channel clock-form" noValidate onSubmit=${onSubmit} aria-label=${t('settings.clock.edit')}>
    <h3 class="channel-title">${t('settings.clock.edit')}</h3>
    <p class="hint">${t('settings.clock.hoursHint')}</p>
    <div class="channel-field">
      <label for="clock-due">${t('settings.clock.dueAfter')}</label>
      <span class="clock-hours-row">
        ${hoursInput('clock-due', form.due, (v) => set({ due: v }))}
        <span aria-hidden="true">${t('settings.clock.hoursUnit')}</span>
      </span>
    </div>
    <fieldset class="clock-reminders">
      <legend>${t('settings.clock.reminders')}</legend>
      ${form.reminders.length === 0 && html`<p class="muted">${t('settings.clock.noReminders')}</p>`}
      <ol class="clock-reminder-list">
        ${form.reminders.map(
          (r, i) => html`<li key=${i} class="clock-hours-row">
            ${hoursInput(
              `clock-reminder-${i}`,
              r,
              (v) => set({ reminders: form.reminders.map((x, j) => (j === i ? v : x)) }),
              t('settings.clock.reminderN', { n: i + 1 }),
            )}
            <span aria-hidden="true">${t('settings.clock.hoursUnit')}</span>
            <button
              type="button"
              class="link"
              aria-label=${t('settings.clock.removeReminderN', { n: i + 1 })}
              onClick=${() => set({ reminders: form.reminders.filter((_, j) => j !== i) })}
            >
              ${t('settings.clock.removeReminder')}
            </button>
          </li>`,
        )}
      </ol>
      <button
        type="button"
        class="link"
        id="clock-add-reminder"
        disabled=${form.reminders.length >= 10}
        onClick=${() => set({ reminders: [...form.reminders, ''] })}
      >
        ${t('settings.clock.addReminder')}
      </button>
    </fieldset>
    <fieldset class="clock-escalation">
      <legend>${t('settings.clock.escalation')}</legend>
      <label class="clock-check" for="clock-escalate">
        <input
          type="checkbox"
          id="clock-escalate"
          checked=${form.escalate}
          onChange=${(e: EventOn) => set({ escalate: e.currentTarget.checked })}
        />
        ${t('settings.clock.escalate')}
      </label>
      ${
        form.escalate &&
        html`<div class="channel-field">
            <label for="clock-escalate-after">${t('settings.clock.escalateAfter')}</label>
            <span class="clock-hours-row">
              ${hoursInput('clock-escalate-after', form.escalateAfter, (v) => set({ escalateAfter: v }))}
              <span aria-hidden="true">${t('settings.clock.hoursUnit')}</span>
            </span>
          </div>
          <div class="clock-to" role="radiogroup" aria-label=${t('settings.clock.escalateTo')}>
            <label class="clock-check" for="clock-to-maintainers">
              <input
                type="radio"
                name="clock-to"
                id="clock-to-maintainers"
                checked=${form.to === 'maintainers'}
                onChange=${() => set({ to: 'maintainers' })}
              />
              ${t('settings.clock.toMaintainers')}
            </label>
            <label class="clock-check" for="clock-to-users">
              <input
                type="radio"
                name="clock-to"
                id="clock-to-users"
                checked=${form.to === 'users'}
                onChange=${() => set({ to: 'users' })}
              />
              ${t('settings.clock.toUsers')}
            </label>
          </div>
          ${
            form.to === 'users' &&
            html`<div class="channel-field">
              <label for="clock-escalate-users">${t('settings.clock.users')}</label>
              <input
                id="clock-escalate-users"
                type="text"
                autocomplete="off"
                spellcheck="false"
                maxlength="2000"
                value=${form.users}
                aria-invalid=${invalid('clock-escalate-users')}
                aria-describedby=${['clock-users-hint', describedBy('clock-escalate-users')].filter(Boolean).join(' ')}
                onInput=${(e: EventOn) => set({ users: e.currentTarget.value })}
              />
              <p class="hint" id="clock-users-hint">${t('settings.clock.usersHint')}</p>
            </div>`
          }`
      }
    </fieldset>
    <div class="channel-actions">
      <button type="submit" class="secondary" aria-busy=${busy} disabled=${busy}>
        ${busy ? t('settings.channels.saving') : t('settings.clock.save')}
      </button>
      ${
        policy &&
        html`<button
          type="button"
          class="link"
          disabled=${busy}
          onClick=${() => send('DELETE', undefined, () => t('settings.clock.removed'))}
        >
          ${t('settings.clock.remove')}
        </button>`
      }
    </div>
    ${refusal && html`<p class="error" role="alert" id=${errorId}>${refusal.sentence}</p>`}
    <p class="saved" role="status" data-testid="clock-policy-said">${said?.()}</p>
  </form>`;
}

/** The section: the policy in words for everyone, the form for maintainers and owners. */
export function ClockPolicySection({ id, projectId, me }: { id: string; projectId: string; me: Me }) {
  const current = useResource(() => api(projectPath(projectId, '/clock-policy')), projectId);
  const now = useNow();
  const role = me?.roles?.[projectId];
  const data = current.data;
  const policy = data?.policy ?? null;
  return html`<section class="panel settings-section clock-policy" id=${id} aria-labelledby=${`${id}-title`}>
    <div class="panel-head">
      <h2 id=${`${id}-title`} tabindex="-1">${t('settings.clock.title')}</h2>
      <p class="panel-sub">${t('settings.clock.sub')}</p>
    </div>
    ${current.error && html`<${ErrorLine} error=${current.error} retry=${current.reload} />`}
    ${
      !data
        ? !current.error && html`<p class="empty" role="status">${t('ui.loading')}</p>`
        : html`<div class="clock-now" data-testid="clock-policy-words">
              ${
                policy
                  ? html`<p data-testid="clock-policy-sentence">${policySentences(policy).join(' ')}</p>
                      ${
                        data.updatedBy &&
                        data.updatedAt &&
                        html`<p class="muted">
                          ${t('settings.clock.setBy', { who: data.updatedBy })}
                          ${' '}<time datetime=${data.updatedAt} title=${fullDate(data.updatedAt)}>${ago(data.updatedAt, now)}</time>
                        </p>`
                      }`
                  : html`<p>${t('settings.clock.none')}</p>`
              }
            </div>
            ${
              canSetClock(role)
                ? html`<${PolicyForm}
                    updatedAt=${data.updatedAt ?? null}
                    projectId=${projectId}
                    policy=${policy}
                    onSaved=${current.set}
                  />`
                : html`<p class="hint" data-testid="clock-policy-readonly">${t('settings.clock.onlyMaintainers')}</p>`
            }`
    }
  </section>`;
}
