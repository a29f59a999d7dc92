// The inbox's own signals (issue #17): how many questions wait for YOU, in the tab title, and
// browser notifications (opt-in) of a new question you can answer while the tab is hidden.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { t } from './i18n';
import type { QuestionDeclared } from '@openq/contracts/browser';

const html = htm.bind(h);
const STORED = 'openq.notifications';

/** "(3) openq — Inbox": the count first, so it shows in a narrow tab; none → no count. */
export function titleFor(count: number): string {
  const title = t('signals.title');
  return count > 0 ? `(${count}) ${title}` : title;
}

/** The open questions of the list that only you can answer (you are their session's author). */
export function waitingForYou(items: readonly { status: string; canAnswer: boolean }[]): number {
  return items.filter((q) => q.status === 'open' && q.canAnswer).length;
}

function stored() {
  try {
    return localStorage.getItem(STORED);
  } catch {
    return null;
  }
}

function store(value: 'on' | 'off'): void {
  try {
    localStorage.setItem(STORED, value);
  } catch {
    // A browser that keeps nothing asks again next time.
  }
}

/** `unsupported`, `denied` (the browser refuses), `on` (granted and chosen) or `off`. */
function notificationState() {
  if (typeof Notification === 'undefined') return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return Notification.permission === 'granted' && stored() === 'on' ? 'on' : 'off';
}

/**
 * The tab title follows `items` (the open queue as this person sees it); `onEvent` takes the live
 * stream's events and shows a notification for a new question you can answer, while the tab is
 * hidden and only if you turned notifications on.
 */
export function useInboxSignals(
  me: { sub: string },
  items: readonly { status: string; canAnswer: boolean }[],
): { mine: number; onEvent: (type: string, envelope: { data?: QuestionDeclared } | null) => void } {
  const mine = waitingForYou(items);
  useEffect(() => {
    document.title = titleFor(mine);
  }, [mine]);
  useEffect(
    () => () => {
      document.title = titleFor(0);
    },
    [],
  );
  const who = useRef(me.sub);
  who.current = me.sub;
  return {
    mine,
    onEvent(type, envelope) {
      if (type !== 'question.declared' || notificationState() !== 'on') return;
      if (document.visibilityState !== 'hidden') return;
      const question = envelope?.data;
      if (!question || question.sessionAuthorId !== who.current) return;
      const note = new Notification(t('signals.notification.title'), {
        body: question.pergunta,
        tag: `openq-${question.questionId}`,
      });
      note.onclick = () => {
        window.focus();
        note.close();
      };
    },
  };
}

/** The header's switch: asks the browser's permission only when pressed, and remembers the choice. */
export function NotifyToggle() {
  const [state, setState] = useState(notificationState);
  if (state === 'unsupported') return null;
  const toggle = async () => {
    if (state === 'on') {
      store('off');
      setState('off');
      return;
    }
    const permission = await Notification.requestPermission();
    if (permission === 'granted') store('on');
    setState(notificationState());
  };
  if (state === 'denied')
    return html`<span class="notify-state muted" title=${t('signals.notify.deniedHint')}
      >${t('signals.notify.denied')}</span
    >`;
  return html`<button
    type="button"
    class="link notify-toggle"
    aria-pressed=${state === 'on'}
    title=${t(state === 'on' ? 'signals.notify.offHint' : 'signals.notify.onHint')}
    onClick=${toggle}
  >
    ${t(state === 'on' ? 'signals.notify.on' : 'signals.notify.off')}
  </button>`;
}
