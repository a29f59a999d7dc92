// SPEC §12.1 the embeddable pending block (ADR 0214 §9: the queue "in the chat's pending block"):
// only what waits on the caller and the project's open questions, drawn by the inbox's own panels.
// Served at /embed/projects/:projectId/pending, framed by the chat (CSP frame-ancestors).
import { h, render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath } from './api';
import { useNow, usePagedList, useResource, useSignedIn } from './hooks';
import { useLiveStream } from './live';
import { sentenceFor } from './messages';
import { WaitingPanel } from './panels';
import { OpenQueue } from './queue';
import { BulkAccept } from './hands';
import { say, t, type Words } from './i18n';
import type { LiveEventType, WaitingGateView } from '@openq/contracts/browser';
import type { Me } from './hooks';
import type { CardOutcome } from './types';

const html = htm.bind(h);
const root = document.getElementById('app')!;
const PROJECT = decodeURIComponent(location.pathname.split('/')[3] ?? '');
/** `?session=<sessionId>`: only the questions born in that session (the chat's own). */
const SESSION = new URLSearchParams(location.search).get('session');

/** The events that change the block, and which of its lists each one changes. */
type ListName = 'queue' | 'count' | 'waiting';
const REFRESH: Partial<Record<LiveEventType, readonly ListName[]>> = {
  'question.declared': ['queue', 'waiting'],
  'question.answered': ['queue', 'waiting'],
  'question.withdrawn': ['queue', 'waiting'],
  'gate.rescue_parked': ['queue', 'waiting'],
  'gate.resumed': ['queue', 'waiting'],
  'pipeline.needs_input': ['queue'],
  ready: ['queue', 'count', 'waiting'],
};

function Pending({ me, onSignedOut }: { me: Me; onSignedOut: () => void }) {
  const [sort, setSort] = useState('blocking');
  const [announcement, setAnnouncement] = useState<Words | null>(null);
  const now = useNow();
  const queueHeading = useRef<HTMLHeadingElement>(null);
  const role = me.roles[PROJECT] ?? null;
  const filter = SESSION ? `&session=${encodeURIComponent(SESSION)}` : '';
  const queue = usePagedList(
    projectPath(PROJECT, `/open-questions?status=open&sort=${sort}${filter}`),
    `${sort}|${filter}`,
  );
  const count = useResource(() => api(projectPath(PROJECT, '/open-questions/count')), PROJECT);
  const waiting = useResource(() => api(projectPath(PROJECT, '/waiting')), PROJECT);
  const policies = useResource(() => api(projectPath(PROJECT, '/policies')), PROJECT);
  const reloaders: Record<ListName, () => unknown> = {
    queue: queue.reload,
    count: count.reload,
    waiting: waiting.reload,
  };
  const refresh = (names: readonly ListName[]) => {
    for (const name of names) reloaders[name]?.();
  };

  useLiveStream(PROJECT, (type, data) => {
    if (type === 'open_count') return count.set({ open: data.open });
    if (type === 'closed') {
      api('/me').catch((e) => e.status === 401 && onSignedOut());
      return;
    }
    if (REFRESH[type]) refresh(REFRESH[type]);
  });
  useEffect(() => {
    if ([queue.error, waiting.error].some((e) => e?.status === 401)) onSignedOut();
  }, [queue.error, waiting.error]);

  // Only the caller's: gates parked on a decision this person makes (§12.1 `waitingForYou`).
  const mine = useMemo(() => {
    if (!waiting.data) return waiting;
    const items = waiting.data.items.filter((c: WaitingGateView) => c.waitingForYou);
    return { ...waiting, data: { items, total: items.length } };
  }, [waiting]);
  const questionsById = useMemo(() => new Map(queue.items.map((q) => [q.questionId, q])), [queue.items]);

  const goToQuestion = (event: Event, id: string) => {
    const card = document.getElementById(`q-${id}`);
    if (!card) return;
    event.preventDefault();
    card.scrollIntoView({ block: 'center', behavior: 'smooth' });
    card.focus({ preventScroll: true });
  };
  const onAnswered = ({ question, gone, withdrawn }: CardOutcome) => {
    const pergunta = question.pergunta;
    setAnnouncement(() =>
      gone
        ? () => sentenceFor(gone)
        : () => t(withdrawn ? 'app.withdrawnQuestion' : 'app.answeredQuestion', { pergunta }),
    );
    refresh(['queue', 'count', 'waiting']);
  };

  return html`<main class="embed-block" aria-label=${t('embed.label', { projectId: PROJECT })}>
      <${WaitingPanel}
        waiting=${mine}
        policies=${policies.data}
        role=${role}
        projectId=${PROJECT}
        questionsById=${questionsById}
        queueLoading=${queue.loading}
        now=${now}
        onGoToQuestion=${goToQuestion}
        onResumed=${() => refresh(['waiting'])}
        overrides=${false}
      />
      <${BulkAccept}
        projectId=${PROJECT}
        items=${queue.items}
        onDone=${(summary: () => string) => {
          setAnnouncement(() => summary);
          refresh(['queue', 'count', 'waiting']);
        }}
      />
      <${OpenQueue}
        list=${queue}
        count=${SESSION ? queue.total : count.data?.open}
        projectId=${PROJECT}
        now=${now}
        onAnswered=${onAnswered}
        headingRef=${queueHeading}
        sort=${sort}
        onSort=${setSort}
      />
      <p class="embed-foot">
        <a href=${`/?project=${encodeURIComponent(PROJECT)}`} target="_blank" rel="noopener">${t('embed.openInbox')}</a>
      </p>
    </main>
    <p class="visually-hidden" aria-live="polite" role="status">${announcement ? say(announcement) : ''}</p>`;
}

/** Not signed in (or signed out meanwhile): the way to sign in opens openq itself, outside the frame. */
function SignedOut() {
  return html`<main class="embed-block signin">
    <h1>${t('app.signedOut.title')}</h1>
    <p>${t('embed.signedOut')}</p>
    <p><a class="button primary" href="/" target="_blank" rel="noopener">${t('embed.openInbox')}</a></p>
  </main>`;
}

function Embed() {
  const { me, load, signOut } = useSignedIn('embed.title');

  if (me.status === 'loading') return html`<p class="boot" role="status">${t('ui.loading')}</p>`;
  if (me.status === 'signed-out') return html`<${SignedOut} />`;
  if (me.status === 'error')
    return html`<main class="embed-block">
      <p class="error" role="alert">${sentenceFor(me.error)}</p>
      <p><button type="button" class="primary" onClick=${load}>${t('ui.tryAgain')}</button></p>
    </main>`;
  return html`<${Pending} me=${me} onSignedOut=${signOut} />`;
}

render(html`<${Embed} />`, root);
