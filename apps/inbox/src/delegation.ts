// SPEC §11.6 (issue #17) delegation, explicit and recorded: let a named person answer my
// questions in this project until a date, see and revoke what I granted, see for whom I answer;
// and the two lines the cards show (who answers for whom).
import { h } from 'preact';
import { useState } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath, type PageError } from './api';
import { language, t } from './i18n';
import { sentenceFor } from './messages';
import { ErrorLine } from './ui';
import type {
  DelegationListReply,
  DelegationView,
  OpenQuestionView,
  ProjectPoliciesReply,
} from '@openq/contracts/browser';
import type { EventOn, SubmitEvent } from './dom';
import type { Me, Resource } from './hooks';

const html = htm.bind(h);

/** A grant's `until` as a date for the person's language. */
export function untilDate(iso: string): string {
  return new Date(iso).toLocaleDateString(language(), { year: 'numeric', month: 'short', day: 'numeric' });
}

/** The end of the chosen day (the person's own time zone), as the ISO instant the API takes. */
function endOfDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d, 23, 59, 59).toISOString();
}

/** `YYYY-MM-DD` of a local day `days` from today (the date input's bounds). */
function dayFromToday(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The refusals of the delegation routes, in words for a person; others as the server says. */
function delegationSentence(error: PageError): string {
  const known = (<Record<string, string>>{
    delegacao_invalida: error.body?.field === 'to' ? 'delegation.errors.to' : 'delegation.errors.until',
    delegacao_ja_revogada: 'delegation.errors.alreadyRevoked',
    delegacao_nao_encontrada: 'delegation.errors.notFound',
  })[error.reason ?? ''];
  return known ? t(known) : sentenceFor(error);
}

/** On an open card a delegate may answer: for whom, until when. */
export function AnsweringFor({ q }: { q: OpenQuestionView }) {
  if (!q.answeringAs) return null;
  return html`<p class="delegate-note" data-testid="answering-as">
    ${t('delegation.answersFor', { from: q.answeringAs.userId, until: untilDate(q.answeringAs.until) })}
  </p>`;
}

/** On an answered card: who clicked for whom, when it was not the person themselves. */
export function answeredByDelegate(q: OpenQuestionView): boolean {
  return Boolean(q.answeredBy && q.answeredBy !== q.respondidaPor);
}

export function AnsweredFor({ q }: { q: OpenQuestionView }) {
  return html`<span class="delegate-note" data-testid="answered-for"
    >${t('delegation.answeredFor', { by: q.answeredBy, for: q.respondidaPor })}</span
  >`;
}

function Grant({
  g,
  onRevoke,
  busy,
}: {
  g: DelegationView;
  onRevoke: (g: DelegationView) => void;
  busy: boolean;
}) {
  return html`<li class="grant" data-grant-id=${g.grantId}>
    <span>${t('delegation.activeTo', { to: g.to, until: untilDate(g.until) })}</span>
    <button type="button" class="link" onClick=${() => onRevoke(g)} disabled=${busy}>
      ${t('delegation.revoke')}
    </button>
  </li>`;
}

/**
 * The panel: grant (user id, until a date), my active grants with revoke, and those I received.
 * `list` is the page's `GET …/delegations` resource (the page reloads it when a click is refused).
 */
export function DelegationPanel({
  list,
  policies,
  projectId,
  me,
  onChanged,
}: {
  list: Resource<DelegationListReply>;
  policies?: ProjectPoliciesReply | null;
  projectId: string;
  me: Me;
  onChanged?: (sentence: string) => void;
}) {
  // §12.1 delegation is a project policy, off until a maintainer turns it on: the form is inert then.
  const off = policies?.delegacao === false;
  const [to, setTo] = useState('');
  const [day, setDay] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PageError | null>(null);
  const [said, setSaid] = useState('');

  const done = (sentence: string) => {
    setSaid(sentence);
    void list.reload();
    onChanged?.(sentence);
  };

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    setError(null);
    if (!to.trim() || !day) return setError({ message: t('delegation.errors.missing') });
    setBusy(true);
    try {
      const reply = await api(projectPath(projectId, '/delegations'), {
        method: 'POST',
        body: { to: to.trim(), until: endOfDay(day) },
      });
      setTo('');
      setDay('');
      done(t('delegation.granted', { to: reply.to, until: untilDate(reply.until) }));
    } catch (e) {
      setError(e as PageError);
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (g: DelegationView) => {
    setBusy(true);
    setError(null);
    try {
      await api(projectPath(projectId, `/delegations/${g.grantId}/revoke`), { method: 'POST' });
      done(t('delegation.revoked', { to: g.to }));
    } catch (e) {
      setError(e as PageError);
    } finally {
      setBusy(false);
    }
  };

  const given = (list.data?.given ?? []).filter((g) => g.status === 'active');
  const received = (list.data?.received ?? []).filter((g) => g.status === 'active');
  return html`<section class="panel delegation" aria-labelledby="delegation-title">
    <div class="panel-head">
      <h2 id="delegation-title">${t('delegation.title')}</h2>
      <p class="panel-sub">${t('delegation.sub', { me: me.sub })}</p>
    </div>
    ${off && html`<p class="hint delegation-off" id="delegation-off" data-testid="delegation-off">${t('delegation.off')}</p>`}
    <form class="delegate" onSubmit=${onSubmit} aria-describedby=${off ? 'delegation-off' : undefined}>
      <label for="delegate-to">${t('delegation.to')}</label>
      <input
        id="delegate-to"
        type="text"
        autocomplete="off"
        maxlength="64"
        value=${to}
        onInput=${(e: EventOn) => setTo(e.currentTarget.value)}
      />
      <label for="delegate-until">${t('delegation.until')}</label>
      <input
        id="delegate-until"
        type="date"
        min=${dayFromToday(0)}
        max=${dayFromToday(89)}
        value=${day}
        onInput=${(e: EventOn) => setDay(e.currentTarget.value)}
      />
      <button type="submit" class="secondary" aria-busy=${busy} disabled=${busy || off}>
        ${busy ? t('delegation.granting') : t('delegation.grant')}
      </button>
    </form>
    ${error && html`<p class="error" role="alert">${delegationSentence(error)}</p>`}
    ${list.error && html`<${ErrorLine} error=${list.error} retry=${list.reload} />`}
    <h3 class="delegation-sub">${t(off ? 'delegation.givenOff' : 'delegation.given')}</h3>
    ${
      given.length === 0
        ? html`<p class="empty">${t('delegation.none')}</p>`
        : html`<ul class="grants given">
            ${given.map((g) => html`<${Grant} key=${g.grantId} g=${g} onRevoke=${revoke} busy=${busy} />`)}
          </ul>`
    }
    ${
      received.length > 0 &&
      // §12.1 while delegation is off a grant lets no one answer: the delegate is not told they do.
      html`<h3 class="delegation-sub">${t(off ? 'delegation.receivedOff' : 'delegation.received')}</h3>
        <ul class="grants received">
          ${received.map(
            (g) =>
              html`<li class="grant" key=${g.grantId}>
                ${t('delegation.activeFrom', { from: g.from, until: untilDate(g.until) })}
              </li>`,
          )}
        </ul>`
    }
    <p class="visually-hidden" role="status" aria-live="polite">${said}</p>
  </section>`;
}
