// Issue #34 (SPEC §12.5) settings: the person's Slack member id, on every project. With it linked,
// a click on "Accept suggestion" in openq's Slack message answers as them, in Slack (GET/PUT
// /me/slack). Slack shows the id in a profile: ⋮ → "Copy member ID" (U… or W…).
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import htm from 'htm';
import { api } from './api';
import { useResource } from './hooks';
import { t } from './i18n';
import { sentenceFor } from './messages';
import { ErrorLine, useSave } from './ui';
import type { SlackLinkView } from '@openq/contracts/browser';
import type { EventOn, SubmitEvent } from './dom';

const html = htm.bind(h);

/** What Slack calls a member id (libs/contracts `SLACK_USER_ID_PATTERN`). */
export const SLACK_MEMBER_ID = /^[UW][A-Z0-9]{2,31}$/;

function SlackForm({ link, onSaved }: { link: SlackLinkView; onSaved: (link: SlackLinkView) => void }) {
  const [value, setValue] = useState(link.slackUserId ?? '');
  useEffect(() => setValue(link.slackUserId ?? ''), [link.slackUserId]);
  const { busy, error, said, setError, save } = useSave();

  const put = (slackUserId: string | null, sentence: () => string) =>
    save(async () => onSaved(await api('/me/slack', { method: 'PUT', body: { slackUserId } })), sentence);

  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    const id = value.trim().toUpperCase();
    if (!SLACK_MEMBER_ID.test(id)) {
      setError({ local: true, message: t('settings.slack.invalid') });
      document.getElementById('slack-member-id')?.focus();
      return;
    }
    void put(id, () => t('settings.slack.saved'));
  };

  return html`<form class="channel" noValidate onSubmit=${onSubmit} aria-label=${t('settings.slack.title')}>
    <div class="channel-field">
      <label for="slack-member-id">${t('settings.slack.label')}</label>
      <input
        id="slack-member-id"
        type="text"
        autocomplete="off"
        spellcheck="false"
        maxlength="32"
        placeholder="U012AB3CD"
        value=${value}
        aria-invalid=${error ? 'true' : undefined}
        aria-describedby=${error ? 'slack-error' : 'slack-hint'}
        onInput=${(e: EventOn) => setValue(e.currentTarget.value)}
      />
      <p class="hint" id="slack-hint">${t('settings.slack.hint')}</p>
    </div>
    <div class="channel-actions">
      <button type="submit" class="secondary" aria-busy=${busy} disabled=${busy}>
        ${busy ? t('settings.channels.saving') : t('settings.slack.save')}
      </button>
      ${
        link.slackUserId &&
        html`<button type="button" class="link" disabled=${busy} onClick=${() => put(null, () => t('settings.slack.removed'))}>
          ${t('settings.slack.remove')}
        </button>`
      }
    </div>
    ${error && html`<p class="error" role="alert" id="slack-error">${error.local ? error.message : sentenceFor(error)}</p>`}
    <p class="saved" role="status" data-testid="slack-said">${said?.()}</p>
  </form>`;
}

/** The section: the member id linked now (or none), and the form to link, change or unlink it. */
export function SlackSection({ id }: { id: string }) {
  const current = useResource(() => api('/me/slack'), 'me');
  const link = current.data;
  return html`<section class="panel settings-section" id=${id} aria-labelledby=${`${id}-title`}>
    <div class="panel-head">
      <h2 id=${`${id}-title`} tabindex="-1">${t('settings.slack.title')}</h2>
      <p class="panel-sub">${t('settings.slack.sub')}</p>
    </div>
    ${current.error && html`<${ErrorLine} error=${current.error} retry=${current.reload} />`}
    ${
      !link
        ? !current.error && html`<p class="empty" role="status">${t('ui.loading')}</p>`
        : html`<p data-testid="slack-now">
              ${link.slackUserId ? t('settings.slack.linked', { id: link.slackUserId }) : t('settings.slack.none')}
            </p>
            <${SlackForm} link=${link} onSaved=${current.set} />`
    }
  </section>`;
}
