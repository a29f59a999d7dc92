// SPEC §12.1 (issue #28) settings: the project's policies — the two conveniences that relax the
// seeds' rules (a delegate's click, a maintainer's override), both off until a maintainer turns
// them on, saying why (GET/PUT /projects/:p/policies; the log keeps who and why). Everyone on the
// project reads them in words; a maintainer or an owner changes them.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath } from './api';
import { canSetClock } from './settings-clock';
import { useResource } from './hooks';
import { t } from './i18n';
import { sentenceFor } from './messages';
import { ErrorLine, MAX_REASON, useSave } from './ui';
import { PROJECT_POLICIES, type ProjectPoliciesReply } from '@openq/contracts/browser';
import type { EventOn, SubmitEvent } from './dom';
import type { Me } from './hooks';

const html = htm.bind(h);

const POLICIES = PROJECT_POLICIES;

function PoliciesForm({
  policies,
  projectId,
  onSaved,
}: {
  policies: ProjectPoliciesReply;
  projectId: string;
  onSaved: (policies: ProjectPoliciesReply) => void;
}) {
  const [form, setForm] = useState(policies);
  const [motivo, setMotivo] = useState('');
  useEffect(() => setForm(policies), [policies.delegacao, policies.overrideDeMantenedor]);
  const { busy, error, said, setError, save } = useSave();

  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    const why = motivo.trim();
    if (!why || why.length > MAX_REASON) {
      setError({ local: true, message: t('settings.policies.whyMissing') });
      document.getElementById('policies-why')?.focus();
      return;
    }
    const changed = POLICIES.filter((p) => form[p] !== policies[p]);
    if (changed.length === 0) {
      setError({ local: true, message: t('settings.policies.nothingChanged') });
      return;
    }
    const body = { motivo: why, ...Object.fromEntries(changed.map((p) => [p, form[p]])) };
    void save(
      async () => {
        onSaved(await api(projectPath(projectId, '/policies'), { method: 'PUT', body }));
        setMotivo('');
      },
      () => t('settings.policies.saved'),
    );
  };

  return html`<form class="channel policies-form" noValidate onSubmit=${onSubmit} aria-label=${t('settings.policies.edit')}>
    <h3 class="channel-title">${t('settings.policies.edit')}</h3>
    ${POLICIES.map(
      (p) => html`<label class="clock-check" key=${p} for=${`policy-${p}`}>
        <input
          type="checkbox"
          id=${`policy-${p}`}
          checked=${form[p]}
          onChange=${(e: EventOn) => setForm((f) => ({ ...f, [p]: e.currentTarget.checked }))}
        />
        ${t(`settings.policies.${p}.label`)}
      </label>`,
    )}
    <div class="channel-field">
      <label for="policies-why">${t('settings.policies.why')}</label>
      <input
        id="policies-why"
        type="text"
        autocomplete="off"
        maxlength=${MAX_REASON}
        value=${motivo}
        aria-invalid=${error?.local ? 'true' : undefined}
        aria-describedby=${error ? 'policies-error' : undefined}
        onInput=${(e: EventOn) => setMotivo(e.currentTarget.value)}
      />
    </div>
    <div class="channel-actions">
      <button type="submit" class="secondary" aria-busy=${busy} disabled=${busy}>
        ${busy ? t('settings.channels.saving') : t('settings.policies.save')}
      </button>
    </div>
    ${error && html`<p class="error" role="alert" id="policies-error">${error.local ? error.message : sentenceFor(error)}</p>`}
    <p class="saved" role="status" data-testid="policies-said">${said?.()}</p>
  </form>`;
}

/** The section: each policy in words for everyone (on or off), the form for maintainers and owners. */
export function PoliciesSection({ id, projectId, me }: { id: string; projectId: string; me: Me }) {
  const current = useResource(() => api(projectPath(projectId, '/policies')), projectId);
  const role = me?.roles?.[projectId];
  const policies = current.data;
  return html`<section class="panel settings-section project-policies" id=${id} aria-labelledby=${`${id}-title`}>
    <div class="panel-head">
      <h2 id=${`${id}-title`} tabindex="-1">${t('settings.policies.title')}</h2>
      <p class="panel-sub">${t('settings.policies.sub')}</p>
    </div>
    ${current.error && html`<${ErrorLine} error=${current.error} retry=${current.reload} />`}
    ${
      !policies
        ? !current.error && html`<p class="empty" role="status">${t('ui.loading')}</p>`
        : html`<ul class="policies-now" data-testid="policies-words">
              ${POLICIES.map(
                (p) => html`<li key=${p} data-policy=${p}>
                  ${t(`settings.policies.${p}.${policies[p] ? 'on' : 'off'}`)}
                </li>`,
              )}
            </ul>
            ${
              canSetClock(role)
                ? html`<${PoliciesForm} policies=${policies} projectId=${projectId} onSaved=${current.set} />`
                : html`<p class="hint" data-testid="policies-readonly">${t('settings.policies.onlyMaintainers')}</p>`
            }`
    }
  </section>`;
}
