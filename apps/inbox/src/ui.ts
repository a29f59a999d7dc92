// Small pieces shared by the panels.
import { h } from 'preact';
import { useRef, useState } from 'preact/hooks';
import htm from 'htm';
import {
  FREEZE_MOTIVO_MAX_LENGTH,
  OVERRIDE_MOTIVO_MAX_LENGTH,
  RESPOSTA_MAX_LENGTH,
  WITHDRAW_MOTIVO_MAX_LENGTH,
} from '@openq/contracts/browser';
import type { PageError } from './api';
import { t } from './i18n';
import { sentenceFor } from './messages';
import type { EventOn, SubmitEvent } from './dom';

const html = htm.bind(h);

/** An API error in words, with a way to try again when there is one. */
export function ErrorLine({
  error,
  retry,
}: {
  error: PageError | null | undefined;
  retry?: (() => unknown) | null;
}) {
  return html`<p class="error" role="alert">
    ${sentenceFor(error)}
    ${retry && html` <button type="button" class="link" onClick=${retry}>${t('ui.tryAgain')}</button>`}
  </p>`;
}

/**
 * A settings form's save: busy while the call runs, the server's refusal (or a local one, set
 * with `setError`) in `error`, and `said` — the sentence to show once it went through.
 */
export function useSave() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PageError | null>(null);
  const [said, setSaid] = useState<(() => string) | null>(null);
  const save = async (call: () => Promise<unknown>, sentence: () => string) => {
    setBusy(true);
    setError(null);
    setSaid(null);
    try {
      await call();
      setSaid(() => sentence);
    } catch (e) {
      setError(e as PageError);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, said, setError, save };
}

/**
 * SPEC limits the inbox checks before sending (libs/contracts'): an answer, and a reason
 * (`motivo`) — of an override, a freeze, a withdrawal, a policy change: 500 each.
 */
export const MAX_ANSWER = RESPOSTA_MAX_LENGTH;
export const MAX_REASON = Math.min(
  OVERRIDE_MOTIVO_MAX_LENGTH,
  FREEZE_MOTIVO_MAX_LENGTH,
  WITHDRAW_MOTIVO_MAX_LENGTH,
);

/**
 * A link that opens a one-line form for one text (a reason, an answer instead of an agent's):
 * required, at most `maxLength` characters, then `send(text)`. While it runs the button says
 * `busyLabel`; an error it throws (an ApiError) is shown in words under the form and handed to
 * `onError` (the caller may decide the card is gone).
 */
export function OneLineAction({
  id,
  className,
  opener,
  label,
  maxLength,
  emptyMessage,
  submitLabel,
  busyLabel,
  send,
  onError,
}: {
  id: string;
  className: string;
  opener: string;
  label: string;
  maxLength: number;
  emptyMessage: string;
  submitLabel: string;
  busyLabel: string;
  send: (text: string) => Promise<unknown>;
  onError?: (error: PageError) => void;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PageError | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    const value = text.trim();
    if (!value || value.length > maxLength) {
      setError({ message: emptyMessage });
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await send(value);
    } catch (e) {
      setBusy(false);
      setError(e as PageError);
      onError?.(e as PageError);
    }
  };

  if (!open)
    return html`<p class=${`${className}-open`}>
      <button
        type="button"
        class="link"
        onClick=${() => {
          setOpen(true);
          setTimeout(() => input.current?.focus(), 0);
        }}
      >
        ${opener}
      </button>
    </p>`;
  return html`<form class=${className} onSubmit=${onSubmit} aria-describedby=${error ? `${id}-error` : undefined}>
    <label for=${`${id}-text`}>${label}</label>
    <div class="row">
      <input
        id=${`${id}-text`}
        ref=${input}
        type="text"
        autocomplete="off"
        maxlength=${maxLength}
        value=${text}
        onInput=${(e: EventOn) => setText(e.currentTarget.value)}
      />
      <button type="submit" class="secondary" aria-busy=${busy}>${busy ? busyLabel : submitLabel}</button>
      <button type="button" class="link" onClick=${() => setOpen(false)}>${t('ui.cancel')}</button>
    </div>
    ${error && html`<p class="error" role="alert" id=${`${id}-error`}>${sentenceFor(error)}</p>`}
  </form>`;
}
