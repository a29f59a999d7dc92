// Issue #17 settings: the person's notification channels on the project — e-mail (address and how
// often), a Slack incoming webhook, a signed generic webhook. Each kind is its own form: saving
// one sends only that kind (`PUT …/notification-channels` leaves the others as they are), removing
// it sends `null`. The server never shows a secret back: a Slack URL and a webhook URL come masked
// and a signing secret only as "set", so those fields start empty and are replaced only when typed.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath, type PageError } from './api';
import { useResource } from './hooks';
import { t } from './i18n';
import { sentenceFor } from './messages';
import { ErrorLine, useSave } from './ui';
import {
  EMAIL_MODES,
  type NotificationChannel,
  type NotificationChannelsView,
} from '@openq/contracts/browser';
import type { EventOn, SubmitEvent } from './dom';

type Channels = NotificationChannelsView;
/** What each kind's form takes: the person's channel of that kind (none: null) and where a save goes. */
interface FormProps<K extends NotificationChannel> {
  projectId: string;
  current: Channels[K];
  onSaved: (channels: Channels) => void;
}

const html = htm.bind(h);

export { EMAIL_MODES };

/** The field a refusal names: the gateway says `webhook.secret: …` first in its message. */
export function refusedField(error: PageError | null | undefined): string | null {
  const named = /^([a-zA-Z]+\.[a-zA-Z]+)\s*:/.exec(error?.message ?? '');
  return named ? named[1]! : null;
}

/** The sentences of the channels' own refusals; each names the field it is about when it can. */
const FIELD_SENTENCES: Readonly<Record<string, string>> = {
  'email.address': 'settings.channels.errors.emailAddress',
  'email.mode': 'settings.channels.errors.emailMode',
  'slack.webhookUrl': 'settings.channels.errors.slackUrl',
  'webhook.url': 'settings.channels.errors.webhookUrl',
  'webhook.secret': 'settings.channels.errors.webhookSecret',
};
/** When the message names no field: the kind's main field. */
const REASON_FIELDS: Readonly<Record<string, string>> = {
  canal_email_invalido: 'email.address',
  canal_slack_invalido: 'slack.webhookUrl',
  canal_webhook_invalido: 'webhook.url',
};

/** A refusal as `{ sentence, field }` (field null when it names none of the form's fields). */
export function channelRefusal(error: PageError | null | undefined): {
  sentence: string;
  field: string | null;
} {
  if (error?.local) return { sentence: error.message ?? '', field: error.field ?? null };
  const own = REASON_FIELDS[error?.reason ?? ''];
  if (!own) return { sentence: sentenceFor(error), field: null };
  const named = refusedField(error);
  const field = named && FIELD_SENTENCES[named] ? named : own;
  return { sentence: t(FIELD_SENTENCES[field]!), field };
}

/** The page's own check: a sentence already in the person's language, and the field. */
const missing = (field: string, key: string): PageError => ({ local: true, field, message: t(key) });

/**
 * One channel's form: its state line, its fields, Save and (when set) Remove. `fields(state)`
 * renders the inputs; `value()` is what Save sends for the kind (or a local refusal).
 */
/** What a channel form's Save sends: the kind's channel, or the page's own refusal. */
type ChannelValue = { channel: unknown; refused?: undefined } | { refused: PageError; channel?: undefined };

/** What the fields are told: which field is refused, and the id of the sentence that says why. */
type FieldState = { invalid: string | null; errorId: string | undefined };

function ChannelForm<C>({
  kind,
  projectId,
  current,
  onSaved,
  summary,
  children,
  value,
  after,
}: {
  kind: NotificationChannel;
  projectId: string;
  current: C | null | undefined;
  onSaved: (channels: NotificationChannelsView) => void;
  summary: (current: C) => string;
  children: (state: FieldState) => unknown;
  value: () => ChannelValue;
  after?: () => void;
}) {
  const { busy, error, said, setError, save } = useSave();
  const refusal = error ? channelRefusal(error) : null;
  const errorId = `channel-${kind}-error`;

  // The refused field says so (aria-invalid, described by the sentence) and takes the focus.
  useEffect(() => {
    if (!refusal?.field) return;
    document.getElementById(fieldId(refusal.field))?.focus();
  }, [error]);

  const put = (body: Record<string, unknown>, sentence: () => string) =>
    save(async () => {
      onSaved(await api(projectPath(projectId, '/notification-channels'), { method: 'PUT', body }));
      after?.();
    }, sentence);

  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    const v = value();
    if (v.refused) return setError(v.refused);
    void put({ [kind]: v.channel }, () => t(`settings.channels.${kind}.saved`));
  };

  return html`<form
    class=${`channel channel-${kind}`}
    data-kind=${kind}
    aria-labelledby=${`channel-${kind}-title`}
    noValidate
    onSubmit=${onSubmit}
  >
    <h3 class="channel-title" id=${`channel-${kind}-title`}>
      ${t(`settings.channels.${kind}.title`)}
      <span class=${`tag ${current ? 'on' : 'off'}`}
        >${current ? t('settings.channels.on') : t('settings.channels.off')}</span
      >
    </h3>
    <p class="channel-state" data-testid=${`channel-${kind}-state`}>
      ${current ? summary(current) : t(`settings.channels.${kind}.none`)}
    </p>
    ${children({ invalid: refusal?.field ?? null, errorId: refusal ? errorId : undefined })}
    <div class="channel-actions">
      <button type="submit" class="secondary" aria-busy=${busy} disabled=${busy}>
        ${busy ? t('settings.channels.saving') : t(`settings.channels.${kind}.save`)}
      </button>
      ${
        current &&
        html`<button
          type="button"
          class="link"
          disabled=${busy}
          onClick=${() => put({ [kind]: null }, () => t(`settings.channels.${kind}.removed`))}
        >
          ${t(`settings.channels.${kind}.remove`)}
        </button>`
      }
    </div>
    ${refusal && html`<p class="error" role="alert" id=${errorId}>${refusal.sentence}</p>`}
    <p class="saved" role="status" data-testid=${`channel-${kind}-said`}>${said?.()}</p>
  </form>`;
}

/** `webhook.secret` → `channel-webhook-secret` (the input's id). */
const fieldId = (field: string) => `channel-${field.replace('.', '-')}`;

/** An input of a channel form, with its label, a hint, and the refusal when it names it. */
function Field({
  field,
  label,
  hint,
  invalid,
  errorId,
  ...input
}: FieldState & { field: string; label: string; hint?: string } & Record<string, unknown>) {
  const id = fieldId(field);
  const bad = invalid === field;
  const hintId = hint ? `${id}-hint` : null;
  const describedBy = [hintId, bad ? errorId : null].filter(Boolean).join(' ') || undefined;
  return html`<div class="channel-field">
    <label for=${id}>${label}</label>
    <input id=${id} aria-invalid=${bad ? 'true' : undefined} aria-describedby=${describedBy} ...${input} />
    ${hint && html`<p class="hint" id=${hintId}>${hint}</p>`}
  </div>`;
}

function EmailForm({ projectId, current, onSaved }: FormProps<'email'>) {
  const [address, setAddress] = useState(current?.address ?? '');
  const [mode, setMode] = useState<string>(current?.mode ?? 'immediate');
  // What the server holds, once it is loaded or saved (an edit in progress is kept otherwise).
  useEffect(() => {
    setAddress(current?.address ?? '');
    setMode(current?.mode ?? 'immediate');
  }, [current?.updatedAt]);
  return html`<${ChannelForm}
    kind="email"
    projectId=${projectId}
    current=${current}
    onSaved=${onSaved}
    summary=${(c: NonNullable<Channels['email']>) => t('settings.channels.email.state', { address: c.address, mode: t(`settings.channels.email.modes.${c.mode}`) })}
    value=${() =>
      address.trim()
        ? { channel: { address: address.trim(), mode } }
        : { refused: missing('email.address', 'settings.channels.errors.emailMissing') }}
  >
    ${({ invalid, errorId }: FieldState) => html`<${Field}
        field="email.address"
        label=${t('settings.channels.email.address')}
        invalid=${invalid}
        errorId=${errorId}
        type="email"
        autocomplete="email"
        maxlength="254"
        value=${address}
        onInput=${(e: EventOn) => setAddress(e.currentTarget.value)}
      />
      <div class="channel-field">
        <label for="channel-email-mode">${t('settings.channels.email.mode')}</label>
        <select id="channel-email-mode" value=${mode} onChange=${(e: EventOn<HTMLSelectElement>) => setMode(e.currentTarget.value)}>
          ${EMAIL_MODES.map((m) => html`<option value=${m}>${t(`settings.channels.email.modes.${m}`)}</option>`)}
        </select>
      </div>`}
  <//>`;
}

function SlackForm({ projectId, current, onSaved }: FormProps<'slack'>) {
  const [url, setUrl] = useState('');
  return html`<${ChannelForm}
    kind="slack"
    projectId=${projectId}
    current=${current}
    onSaved=${onSaved}
    after=${() => setUrl('')}
    summary=${(c: NonNullable<Channels['slack']>) => t('settings.channels.slack.state', { url: c.webhookUrl })}
    value=${() =>
      url.trim()
        ? { channel: { webhookUrl: url.trim() } }
        : { refused: missing('slack.webhookUrl', 'settings.channels.errors.slackMissing') }}
  >
    ${({ invalid, errorId }: FieldState) => html`<${Field}
      field="slack.webhookUrl"
      label=${current ? t('settings.channels.slack.replaceUrl') : t('settings.channels.slack.url')}
      hint=${t('settings.channels.slack.hint')}
      invalid=${invalid}
      errorId=${errorId}
      type="url"
      autocomplete="off"
      spellcheck="false"
      maxlength="2000"
      placeholder="https://hooks.slack.com/services/…"
      value=${url}
      onInput=${(e: EventOn) => setUrl(e.currentTarget.value)}
    />`}
  <//>`;
}

function WebhookForm({ projectId, current, onSaved }: FormProps<'webhook'>) {
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  return html`<${ChannelForm}
    kind="webhook"
    projectId=${projectId}
    current=${current}
    onSaved=${onSaved}
    after=${() => {
      setUrl('');
      setSecret('');
    }}
    summary=${(c: NonNullable<Channels['webhook']>) => t('settings.channels.webhook.state', { url: c.url })}
    value=${() => {
      if (!url.trim())
        return { refused: missing('webhook.url', 'settings.channels.errors.webhookUrlMissing') };
      if (!secret)
        return { refused: missing('webhook.secret', 'settings.channels.errors.webhookSecretMissing') };
      return { channel: { url: url.trim(), secret } };
    }}
  >
    ${({ invalid, errorId }: FieldState) => html`<${Field}
        field="webhook.url"
        label=${current ? t('settings.channels.webhook.replaceUrl') : t('settings.channels.webhook.url')}
        invalid=${invalid}
        errorId=${errorId}
        type="url"
        autocomplete="off"
        spellcheck="false"
        maxlength="2000"
        placeholder="https://"
        value=${url}
        onInput=${(e: EventOn) => setUrl(e.currentTarget.value)}
      />
      <${Field}
        field="webhook.secret"
        label=${t('settings.channels.webhook.secret')}
        hint=${current ? t('settings.channels.webhook.secretSet') : t('settings.channels.webhook.secretHint')}
        invalid=${invalid}
        errorId=${errorId}
        type="password"
        autocomplete="new-password"
        maxlength="256"
        placeholder=${current ? '••••••••••••••••' : ''}
        value=${secret}
        onInput=${(e: EventOn) => setSecret(e.currentTarget.value)}
      />`}
  <//>`;
}

/** The section: the three channels of the person on the project. */
export function ChannelsSection({ id, projectId }: { id: string; projectId: string }) {
  const channels = useResource(() => api(projectPath(projectId, '/notification-channels')), projectId);
  const data = channels.data;
  const forms = { onSaved: channels.set, projectId };
  return html`<section class="panel settings-section channels" id=${id} aria-labelledby=${`${id}-title`}>
    <div class="panel-head">
      <h2 id=${`${id}-title`} tabindex="-1">${t('settings.channels.title')}</h2>
      <p class="panel-sub">${t('settings.channels.sub')}</p>
    </div>
    ${channels.error && html`<${ErrorLine} error=${channels.error} retry=${channels.reload} />`}
    ${
      !data
        ? !channels.error && html`<p class="empty" role="status">${t('ui.loading')}</p>`
        : html`<div class="channel-list">
            <${EmailForm} current=${data.email} ...${forms} />
            <${SlackForm} current=${data.slack} ...${forms} />
            <${WebhookForm} current=${data.webhook} ...${forms} />
          </div>`
    }
  </section>`;
}
