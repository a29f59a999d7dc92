// The openq inbox: the open questions of a project, what waits on you, and what was decided.
import { h, render } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath, type PageError } from './api';
import { useNow, usePagedList, useResource, useSignedIn } from './hooks';
import { useLiveStream } from './live';
import { agentName, roleName, sentenceFor } from './messages';
import { HistoryPanel, ReadinessBar, WaitingPanel, WithdrawnPanel } from './panels';
import { PipelinePanel } from './pipeline';
import { OpenQueue } from './queue';
import { GateHistoryPanel, gateName } from './gates';
import { BulkAccept } from './hands';
import { Shortcuts } from './keys';
import { useNarrow } from './mobile';
import { LANGUAGES, language, say, setLanguage, t, type Words } from './i18n';
import { NotifyToggle, useInboxSignals } from './signals';
import { AllProjectsInbox } from './all-projects';
import { ALL_PROJECTS, FilterBar, filtersQuery, isFiltered, useUrlFilters } from './filters';
import { DelegationPanel } from './delegation';
import { AnalyticsLink, SettingsLink, SettingsPage, pickView, viewHref } from './settings';
import { AnalyticsPage } from './analytics';
import { keepMyLanguage } from './my-language';
import { useQuestionClock } from './clock';
import { isLanguage } from '@openq/contracts/browser';
import type { GateResumed, LiveEventType, WaitingGateView } from '@openq/contracts/browser';
import type { EventOn } from './dom';
import type { Me } from './hooks';
import type { LiveStatus } from './live';
import type { CardOutcome, View } from './types';

const html = htm.bind(h);
const root = document.getElementById('app')!;
const DEV_LOGIN = root.dataset.devLogin === 'true';
const STORED_PROJECT = 'openq.project';

/** The page's lists that reload. */
type ListName =
  'queue' | 'history' | 'count' | 'readiness' | 'waiting' | 'gateHistory' | 'pipeline' | 'delegations';

/** Which lists an event of the stream (libs/contracts' live.ts) changes. */
const REFRESH: Partial<Record<LiveEventType, readonly ListName[]>> = {
  // Parks, resumes and Needs Input change what blocks on a question: the queue's order and cards.
  'question.declared': ['queue', 'readiness', 'waiting'],
  'question.answered': ['queue', 'history', 'readiness', 'waiting'],
  'question.withdrawn': ['queue', 'history', 'readiness', 'waiting'],
  'decision.superseded': ['history'],
  // §12.3 a card's askers change; a split's new question comes as its own question.declared.
  'question.joined': ['queue'],
  'question.split': ['queue'],
  'gate.rescue_parked': ['queue', 'waiting', 'gateHistory'],
  'gate.resumed': ['queue', 'waiting', 'gateHistory'],
  'gate.verdict_recorded': ['waiting', 'gateHistory'],
  'gate.redispatch_requested': ['gateHistory'],
  'gate.verdict_rejected': ['gateHistory'],
  ready: ['queue', 'count', 'history', 'readiness', 'waiting', 'gateHistory', 'pipeline'],
  'pipeline.repo_frozen': ['pipeline'],
  'pipeline.repo_unfrozen': ['pipeline'],
  'pipeline.task_admitted': ['queue', 'pipeline'],
  'pipeline.needs_input': ['queue'],
  'pipeline.task_paused': ['queue'],
  'pipeline.task_unpaused': ['queue'],
};

function pickProject(roles: Record<string, string>): string | null {
  const ids = Object.keys(roles).sort();
  const fromUrl = new URLSearchParams(location.search).get('project');
  if (fromUrl && roles[fromUrl]) return fromUrl;
  if (fromUrl === ALL_PROJECTS && ids.length > 1) return ALL_PROJECTS;
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORED_PROJECT);
  } catch {
    stored = null;
  }
  if (stored && (roles[stored] || (stored === ALL_PROJECTS && ids.length > 1))) return stored;
  return ids[0] ?? null;
}

/**
 * The languages in their own names; the choice re-renders the page in place and is remembered.
 * Signed in (`keep`), it is also the person's language for what openq sends them (issue #30:
 * `PUT /me/language`); a failure to keep it is said under the switch.
 */
function LanguageSwitch({ compact = false, keep = false }) {
  const [error, setError] = useState<PageError | null>(null);
  const choose = (code: string) => {
    setError(null);
    void setLanguage(code);
    if (keep && isLanguage(code)) keepMyLanguage(code).catch((e: PageError) => setError(e));
  };
  return html`<div class="picker language">
    <label for="language-picker" class=${compact ? 'visually-hidden' : undefined}>${t('language.label')}</label>
    <select id="language-picker" value=${language()} onChange=${(e: EventOn<HTMLSelectElement>) => choose(e.currentTarget.value)}>
      ${LANGUAGES.map((l) => html`<option value=${l.code} lang=${l.code}>${l.name}</option>`)}
    </select>
    ${error && html`<p class="error language-error" role="alert">${t('language.notKept', { why: sentenceFor(error) })}</p>`}
  </div>`;
}

function Topbar({
  me,
  projectId,
  onProject,
  live,
  view = 'inbox',
  onView,
}: {
  me: Me;
  projectId: string | null;
  onProject: (id: string) => void;
  live: LiveStatus;
  view?: View;
  onView?: (view: View) => void;
}) {
  const ids = Object.keys(me.roles).sort();
  return html`<header class="topbar">
    <div class="brand">
      <span class="logo" aria-hidden="true">oq</span>
      <span class="brand-name">openq</span>
      <span class="brand-sub">${t('app.inbox')}</span>
    </div>
    ${
      ids.length > 0 &&
      html`<div class="picker">
        <label for="project-picker">${t('app.project')}</label>
        <select id="project-picker" value=${projectId} onChange=${(e: EventOn<HTMLSelectElement>) => onProject(e.currentTarget.value)}>
          ${ids.length > 1 && html`<option value=${ALL_PROJECTS}>${t('allProjects.option')}</option>`}
          ${ids.map((id) => html`<option value=${id}>${id} — ${roleName(me.roles[id]!)}</option>`)}
        </select>
      </div>`
    }
    <div class="topbar-end">
      ${onView && projectId && projectId !== ALL_PROJECTS && html`<${AnalyticsLink} projectId=${projectId} view=${view} onView=${onView} />`}
      ${onView && projectId && projectId !== ALL_PROJECTS && html`<${SettingsLink} projectId=${projectId} view=${view} onView=${onView} />`}
      <${NotifyToggle} />
      ${live && html`<span class=${`live live-${live}`}><span class="dot" aria-hidden="true"></span>${t(`app.live.${live}`)}</span>`}
      <${LanguageSwitch} compact=${true} keep=${true} />
      <span class="who">${t('app.signedInAs')} <strong>${me.sub}</strong></span>
      ${DEV_LOGIN && html`<a class="quiet" href="/dev/login">${t('app.switchUser')}</a><a class="quiet" href="/dev/logout">${t('app.signOut')}</a>`}
    </div>
  </header>`;
}

/** The queue's order from the URL (`?sort=oldest`), blocking most first otherwise (issue #18). */
function pickSort() {
  return new URLSearchParams(location.search).get('sort') === 'oldest' ? 'oldest' : 'blocking';
}

/** The project's inbox, or (issue #18) the one across every project of the person. */
function InboxRoot({ me, onSignedOut }: { me: Me; onSignedOut: () => void }) {
  const [projectId, setProjectId] = useState(() => pickProject(me.roles));
  const [sort, setSort] = useState(pickSort);
  const [view, setView] = useState(pickView);

  // Issue #17 the settings page is a view of the project (?view=settings): Back returns to the inbox.
  useEffect(() => {
    const onPop = () => setView(pickView());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const chooseView = (next: View) => {
    if (next === view) return;
    setView(next);
    window.history.pushState(null, '', viewHref(projectId ?? '', next));
  };

  const chooseProject = (id: string) => {
    setProjectId(id);
    try {
      localStorage.setItem(STORED_PROJECT, id);
    } catch {
      // private mode: the URL still remembers
    }
    const url = new URL(location.href);
    url.searchParams.set('project', id);
    window.history.replaceState(null, '', url);
  };

  // A deep link keeps the order: ?sort=oldest (blocking most first is the default, not written).
  const chooseSort = (next: string) => {
    setSort(next);
    const url = new URL(location.href);
    if (next === 'oldest') url.searchParams.set('sort', 'oldest');
    else url.searchParams.delete('sort');
    window.history.replaceState(null, '', url);
  };

  if (projectId === ALL_PROJECTS)
    return html`<${AllProjectsInbox}
      topbar=${(live: LiveStatus) => html`<${Topbar} me=${me} projectId=${projectId} onProject=${chooseProject} live=${live} />`}
      sort=${sort}
      onSort=${chooseSort}
      onSignedOut=${onSignedOut}
    />`;
  return html`<${Inbox}
    me=${me}
    onSignedOut=${onSignedOut}
    projectId=${projectId}
    chooseProject=${chooseProject}
    sort=${sort}
    chooseSort=${chooseSort}
    view=${view}
    chooseView=${chooseView}
  />`;
}

function Inbox({
  me,
  onSignedOut,
  projectId,
  chooseProject,
  sort,
  chooseSort,
  view,
  chooseView,
}: {
  me: Me;
  onSignedOut: () => void;
  projectId: string | null;
  chooseProject: (id: string) => void;
  sort: string;
  chooseSort: (sort: string) => void;
  view: View;
  chooseView: (view: View) => void;
}) {
  const [filters, setFilters] = useUrlFilters();
  /** What the live region says: a sentence, or a function that says it in the language of the moment. */
  const [announcement, setAnnouncement] = useState<string | (() => string)>('');
  const [queueNote, setQueueNote] = useState<Words | null>(null);
  const now = useNow();
  const queueHeading = useRef<HTMLHeadingElement>(null);
  const focusAfter = useRef<number | null>(null);
  const role = projectId ? me.roles[projectId] : null;
  const narrow = useNarrow();

  const filterQuery = filtersQuery(filters);
  const queue = usePagedList(
    projectId
      ? projectPath(
          projectId,
          `/open-questions?status=open&sort=${sort}${filterQuery ? `&${filterQuery}` : ''}`,
        )
      : '',
    `${projectId}|${sort}|${filterQuery}`,
  );
  const answered = usePagedList(
    projectId ? projectPath(projectId, '/open-questions?status=answered') : '',
    projectId,
  );
  const withdrawn = usePagedList(
    projectId ? projectPath(projectId, '/open-questions?status=withdrawn') : '',
    projectId,
  );
  // Without a project the page says so (below) and these answers go unused.
  const inProject = (rest: string) => projectPath(String(projectId), rest);
  const count = useResource(() => api<{ open: number }>(inProject('/open-questions/count')), projectId);
  const readiness = useResource(() => api(inProject('/readiness/im_ready')), projectId);
  const waiting = useResource(() => api(inProject('/waiting')), projectId);
  const gateHistory = useResource(() => api(inProject('/gate-history?limit=10')), projectId);
  const pipeline = useResource(() => api(inProject('/pipeline/queue')), projectId);
  const delegations = useResource(() => api(inProject('/delegations')), projectId);
  // §12.1 the project's policies: while off (the default), no override and no delegation.
  const policies = useResource(() => api(inProject('/policies')), projectId);
  const reloaders: Record<ListName, () => unknown> = {
    queue: queue.reload,
    history: () => {
      void answered.reload();
      void withdrawn.reload();
    },
    count: count.reload,
    readiness: readiness.reload,
    waiting: waiting.reload,
    gateHistory: gateHistory.reload,
    pipeline: pipeline.reload,
    delegations: delegations.reload,
  };

  // Bursts of events reload each list once.
  const pending = useRef(new Set<ListName>());
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const refresh = (names: readonly ListName[]) => {
    for (const n of names) pending.current.add(n);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const names = [...pending.current] as ListName[];
      pending.current.clear();
      for (const n of names) reloaders[n]?.();
    }, 40);
  };

  // Issue #18 close the loop: the questions settled from this page, and the tasks that waited on
  // them; the live events then say what the answer did ("QA gate on T-101 resumed").
  const settled = useRef({ questions: new Set(), tasks: new Set() });
  // The live stream may bring the resume before the answer's own reply: the last few are kept.
  const recentResumes = useRef<GateResumed[]>([]);
  const [effects, setEffects] = useState<(() => string)[]>([]);
  const tellEffect = (sentence: () => string) => {
    // The same effect twice is said once (compared in the words of now).
    setEffects((list) => [...list.filter((s) => s() !== sentence()), sentence].slice(-3));
    setAnnouncement(() => sentence);
  };
  const resumedOn = (gate: string, taskId: string) => () =>
    t('app.gateResumed', { gate: gateName(gate), taskId });

  const signals = useInboxSignals(me, queue.items);
  const live = useLiveStream(projectId, (type, data) => {
    signals.onEvent(type, data);
    if (type === 'open_count') return count.set({ open: data.open });
    if (type === 'closed') {
      api('/me').catch((e) => e.status === 401 && onSignedOut());
      return;
    }
    if (type === 'question.declared') {
      const autor = data.data.autor;
      setAnnouncement(() => () => t('app.newQuestion', { agent: agentName(autor) }));
    }
    if (type === 'gate.resumed') {
      recentResumes.current = [...recentResumes.current, data.data].slice(-20);
      if (data.data.questionIds?.some((id: string) => settled.current.questions.has(id)))
        tellEffect(resumedOn(data.data.gate, data.data.taskId));
    }
    if (type === 'pipeline.analyst_relaunch' && settled.current.tasks.has(data.data.taskId)) {
      const taskId = data.data.taskId;
      tellEffect(() => t('app.analystRelaunched', { taskId }));
    }
    if (REFRESH[type]) refresh(REFRESH[type]);
  });

  // A 401 anywhere means the sign-in is gone.
  useEffect(() => {
    if ([queue.error, answered.error, count.error, waiting.error].some((e) => e?.status === 401))
      onSignedOut();
  }, [queue.error, answered.error, count.error, waiting.error]);

  const goToQueue = (event: Event) => {
    event?.preventDefault();
    queueHeading.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    queueHeading.current?.focus({ preventScroll: true });
  };

  const goToQuestion = (event: Event, id: string) => {
    const card = document.getElementById(`q-${id}`);
    if (!card) return;
    event.preventDefault();
    card.scrollIntoView({ block: 'center', behavior: 'smooth' });
    card.focus({ preventScroll: true });
  };

  // A question answered elsewhere leaves the queue with its card: say why above the list.
  const onAnswered = useCallback(({ question, position, gone, withdrawn: byMe }: CardOutcome) => {
    focusAfter.current = position ?? null;
    if (!gone) {
      settled.current.questions.add(question.questionId);
      for (const b of question.blocking?.blocks ?? []) settled.current.tasks.add(b.taskId);
      for (const r of recentResumes.current)
        if (r.questionIds?.includes(question.questionId)) tellEffect(resumedOn(r.gate, r.taskId));
    }
    const pergunta = question.pergunta;
    setQueueNote(() =>
      !gone
        ? null
        : gone.reason === 'pergunta_ja_respondida'
          ? () => t('app.answeredElsewhere', { pergunta })
          : () => t('app.questionGone', { pergunta, why: sentenceFor(gone) }),
    );
    setAnnouncement(() =>
      gone
        ? () => sentenceFor(gone)
        : () => t(byMe ? 'app.withdrawnQuestion' : 'app.answeredQuestion', { pergunta }),
    );
    // §11.6 a refused delegate's click: the grant changed since the page loaded.
    refresh([
      'queue',
      'history',
      'readiness',
      'count',
      'waiting',
      ...(gone ? (['delegations'] as const) : []),
    ]);
  }, []);

  // After an answer the card leaves: focus goes to the card that took its place (else the title).
  useEffect(() => {
    if (focusAfter.current === null || queue.loading) return;
    const cards = document.querySelectorAll('.queue .card');
    const next = cards[Math.min(focusAfter.current, cards.length - 1)];
    focusAfter.current = null;
    ((next as HTMLElement | undefined) ?? queueHeading.current)?.focus();
  }, [queue.items, queue.loading]);

  const onResumed = (cycle: WaitingGateView, how: { override?: boolean } = {}) => {
    const key = how.override ? 'app.gateResumedWithoutAnswer' : 'app.gateResumedByHand';
    setAnnouncement(() => () => t(key, { gate: gateName(cycle.gate), taskId: cycle.taskId }));
    refresh(['waiting', 'gateHistory']);
  };

  // §11.5 an amendment replaces the standing decision in the history; the gate that resumed stays resumed.
  const onAmended = ({ question, gone }: CardOutcome) => {
    const pergunta = question.pergunta;
    setAnnouncement(() => (gone ? () => sentenceFor(gone) : () => t('app.decisionReplaced', { pergunta })));
    refresh(['history']);
  };

  const onPipelineChanged = (sentence: () => string) => {
    setAnnouncement(() => sentence);
    refresh(['pipeline']);
  };

  useEffect(() => {
    setQueueNote(null);
    setEffects([]);
    settled.current = { questions: new Set(), tasks: new Set() };
    recentResumes.current = [];
  }, [projectId]);

  // Back from the settings page, the keyboard starts at the open questions again.
  const shownView = useRef(view);
  useEffect(() => {
    if (shownView.current === view) return;
    shownView.current = view;
    if (view === 'inbox') setTimeout(() => queueHeading.current?.focus(), 0);
  }, [view]);

  // Issue #17 the due and overdue markers of the cards.
  const clock = useQuestionClock(view === 'inbox' ? [projectId] : [], queue.items);

  const questionsById = useMemo(() => new Map(queue.items.map((q) => [q.questionId, q])), [queue.items]);

  if (!projectId) {
    return html`<${Topbar} me=${me} projectId=${null} onProject=${chooseProject} live=${null} />
      <main class="layout single">
        <section class="panel">
          <h1 class="page-title">${t('app.noProject.title')}</h1>
          <p>${t('app.noProject.text')}</p>
        </section>
      </main>`;
  }

  const topbar = html`<${Topbar}
    me=${me}
    projectId=${projectId}
    onProject=${chooseProject}
    live=${live}
    view=${view}
    onView=${chooseView}
  />`;
  if (view === 'settings')
    return html`${topbar}
      <${SettingsPage} projectId=${projectId} me=${me} onView=${chooseView} />
      <p class="visually-hidden" aria-live="polite" role="status">${say(announcement)}</p>`;
  if (view === 'analytics')
    return html`${topbar}
      <${AnalyticsPage} projectId=${projectId} onView=${chooseView} />`;

  // Issue #18 mobile: on a phone what waits on the person comes first, before the queue.
  const waitingPanel = html`<${WaitingPanel}
    waiting=${waiting}
    policies=${policies.data}
    role=${role}
    projectId=${projectId}
    questionsById=${questionsById}
    filtered=${isFiltered(filters)}
    queueLoading=${queue.loading}
    now=${now}
    onGoToQuestion=${goToQuestion}
    onResumed=${onResumed}
  />`;

  return html`<a class="skip" href="#open-questions" onClick=${goToQueue}>${t('app.skipToQueue')}</a>
    ${topbar}
    <main class="layout" id="main">
      <h1 class="visually-hidden">${t('app.inboxOf', { projectId })}</h1>
      <div class="column primary">
        ${narrow && waitingPanel}
        <${ReadinessBar}
          readiness=${readiness}
          projectId=${projectId}
          openNow=${count.data?.open}
          onGoToQueue=${goToQueue}
        />
        <${Shortcuts} />
        <${BulkAccept}
          projectId=${projectId}
          items=${queue.items}
          onDone=${(summary: () => string) => {
            setAnnouncement(() => summary);
            refresh(['queue', 'history', 'readiness', 'count', 'waiting']);
          }}
        />
        <${OpenQueue}
          list=${queue}
          count=${isFiltered(filters) ? queue.total : count.data?.open}
          projectId=${projectId}
          now=${now}
          onAnswered=${onAnswered}
          headingRef=${queueHeading}
          note=${queueNote && say(queueNote)}
          sort=${sort}
          onSort=${chooseSort}
          effects=${effects.map(say)}
          filterBar=${html`<${FilterBar}
            filters=${filters}
            onChange=${setFilters}
            counts=${queue.counts}
            total=${queue.total}
            loading=${queue.loading}
          />`}
          emptyNote=${isFiltered(filters) ? t('filters.noMatch') : undefined}
          clock=${clock}
        />
      </div>
      <div class="column secondary">
        ${!narrow && waitingPanel}
        <${GateHistoryPanel} history=${gateHistory} now=${now} />
        <${PipelinePanel}
          pipeline=${pipeline}
          role=${role}
          projectId=${projectId}
          now=${now}
          onChanged=${onPipelineChanged}
        />
        <${HistoryPanel} list=${answered} now=${now} projectId=${projectId} onAmended=${onAmended} />
        <${WithdrawnPanel} list=${withdrawn} now=${now} />
        <${DelegationPanel}
          list=${delegations}
          policies=${policies.data}
          projectId=${projectId}
          me=${me}
          onChanged=${() => refresh(['queue'])}
        />
      </div>
    </main>
    <p class="visually-hidden" aria-live="polite" role="status">${say(announcement)}</p>`;
}

function SignedOut() {
  return html`<main class="signin" aria-labelledby="signin-title">
    <h1 id="signin-title"><span class="logo" aria-hidden="true">oq</span> ${t('app.signedOut.title')}</h1>
    <p>${t('app.signedOut.text')}</p>
    ${
      DEV_LOGIN
        ? html`<p><a class="button primary" href="/dev/login">${t('app.signedOut.devSignIn')}</a></p>`
        : html`<p>${t('app.signedOut.teamSignIn')}</p>`
    }
    <${LanguageSwitch} />
  </main>`;
}

function App() {
  const { me, load, signOut } = useSignedIn('app.title');
  useEffect(() => {
    document.body.classList.toggle('plain', me.status !== 'ok');
  }, [me.status]);

  if (me.status === 'loading') return html`<p class="boot" role="status">${t('app.loading')}</p>`;
  if (me.status === 'signed-out') return html`<${SignedOut} />`;
  if (me.status === 'error')
    return html`<main class="signin">
      <h1>${t('app.notAnswering')}</h1>
      <p class="error" role="alert">${sentenceFor(me.error)}</p>
      <p><button type="button" class="primary" onClick=${load}>${t('ui.tryAgain')}</button></p>
    </main>`;
  return html`<${InboxRoot} me=${me} onSignedOut=${signOut} />`;
}

render(html`<${App} />`, root);
