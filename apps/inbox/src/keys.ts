// Issue #18 fast hands: the queue by keyboard. j/k (↓/↑) move between the cards, `a` accepts the
// focused card's suggestion, `r` opens its answer box, `o`/Enter its details, `x` ticks it, `?`
// lists the keys. Nothing fires while typing, nor with Ctrl/Alt/⌘, nor while the list is open.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { t } from './i18n';

const html = htm.bind(h);

/** The keys, in the order the help lists them. */
export const SHORTCUTS = [
  { keys: ['j', '↓'], action: 'keys.next' },
  { keys: ['k', '↑'], action: 'keys.previous' },
  { keys: ['a'], action: 'keys.accept' },
  { keys: ['r'], action: 'keys.answer' },
  { keys: ['o', 'Enter'], action: 'keys.open' },
  { keys: ['x'], action: 'keys.select' },
  { keys: ['?'], action: 'keys.help' },
];

const TYPING = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';
const FOCUSABLE = 'button, [href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

/** Is the person writing somewhere (a key there is a letter, not a command)? */
export function isTyping(target: EventTarget | null): boolean {
  return Boolean((target as Element | null)?.closest?.(TYPING));
}

const cards = () => [...document.querySelectorAll<HTMLElement>('.queue .card')];
const cardOf = (element: Element | null): HTMLElement | null =>
  element?.closest?.<HTMLElement>('.queue .card') ?? null;

function focusCard(card: HTMLElement): void {
  if (!card) return;
  card.focus({ preventScroll: true });
  card.scrollIntoView({ block: 'nearest' });
}

/** The help overlay's button and dialog, and the document's key handler. */
export function Shortcuts() {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [note, setNote] = useState('');

  const openHelp = () => {
    const d = dialog.current;
    if (!d || d.open) return;
    opener.current = document.activeElement as HTMLElement | null;
    d.showModal();
    d.querySelector('button')?.focus();
  };
  const closeHelp = () => dialog.current?.open && dialog.current.close();

  useEffect(() => {
    const d = dialog.current;
    if (!d) return undefined;
    // Esc closes (the dialog's own `cancel`); focus goes back where it was.
    const onClose = () => opener.current?.focus?.({ preventScroll: true });
    // Tab stays inside the dialog.
    const trap = (event: KeyboardEvent) => {
      if (event.key !== 'Tab') return;
      const inside = [...d.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => !(el as HTMLButtonElement).disabled,
      );
      const first = inside[0];
      const last = inside[inside.length - 1];
      if (!first) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last!.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      } else if (!d.contains(document.activeElement)) {
        event.preventDefault();
        first.focus();
      }
    };
    d.addEventListener('close', onClose);
    d.addEventListener('keydown', trap);
    return () => {
      d.removeEventListener('close', onClose);
      d.removeEventListener('keydown', trap);
    };
  }, []);

  useEffect(() => {
    const say = (key: string) => setNote(t(key));
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (dialog.current?.open || isTyping(event.target)) return;
      const key = event.key;
      if (event.shiftKey && key !== '?') return;
      const current = cardOf(document.activeElement);
      const onCard = current !== null && document.activeElement === current;
      const list = cards();
      const step = (delta: number) => {
        if (!list.length) return say('keys.none');
        const at = current ? list.indexOf(current) : -1;
        const next =
          at === -1 ? (delta > 0 ? 0 : list.length - 1) : Math.max(0, Math.min(list.length - 1, at + delta));
        focusCard(list[next]!);
      };
      const arrowsFree =
        onCard || document.activeElement === document.body || document.activeElement === null;
      let handled = true;
      if (key === '?') openHelp();
      else if (key === 'j' || (key === 'ArrowDown' && arrowsFree)) step(1);
      else if (key === 'k' || (key === 'ArrowUp' && arrowsFree)) step(-1);
      else if (!current && ['a', 'r', 'o', 'x'].includes(key)) say('keys.pickFirst');
      else if (!current) handled = false;
      else if (key === 'a') {
        const accept = current.querySelector<HTMLButtonElement>('.suggestion button');
        if (!accept) say('keys.noSuggestion');
        else if (accept.closest('fieldset')?.disabled) say('keys.notYours');
        else accept.click();
      } else if (key === 'r') {
        const input = current.querySelector<HTMLInputElement>('form.answer input');
        if (!input || input.closest('fieldset')?.disabled) say('keys.notYours');
        else input.focus();
      } else if (key === 'o' || (key === 'Enter' && onCard)) {
        const details = current.querySelector<HTMLDetailsElement>('details.card-details');
        if (details) details.open = !details.open;
      } else if (key === 'x') {
        const box = current.querySelector<HTMLInputElement>('.select input[type="checkbox"]');
        if (box) box.click();
        else say('keys.cannotSelect');
      } else handled = false;
      if (handled) event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return html`<div class="shortcuts">
    <button type="button" class="link shortcuts-open" onClick=${openHelp} aria-haspopup="dialog">
      ${t('keys.button')} <kbd aria-hidden="true">?</kbd>
    </button>
    <p class="visually-hidden" role="status" aria-live="polite">${note}</p>
    <dialog ref=${dialog} class="help" aria-labelledby="help-title">
      <div class="help-head">
        <h2 id="help-title">${t('keys.title')}</h2>
        <button type="button" class="secondary" onClick=${closeHelp}>${t('keys.close')}</button>
      </div>
      <p class="muted">${t('keys.intro')}</p>
      <table class="help-keys">
        <thead>
          <tr><th scope="col">${t('keys.keyColumn')}</th><th scope="col">${t('keys.actionColumn')}</th></tr>
        </thead>
        <tbody>
          ${SHORTCUTS.map(
            (s) =>
              html`<tr key=${s.action}>
                <td>${s.keys.map((k, i) => html`${i > 0 && ' / '}<kbd>${k}</kbd>`)}</td>
                <td>${t(s.action)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </dialog>
  </div>`;
}
