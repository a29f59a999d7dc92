// Issue #18 one inbox across projects: the person's open questions in every project where they
// have a role (GET /me/open-questions), each card labelled with its project, with the same filters
// and live updates from every one of those projects (GET /me/stream).
import { h } from 'preact';
import { useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { api } from './api';
import { ALL_PROJECTS, FilterBar, filtersQuery, isFiltered, useUrlFilters } from './filters';
import { useNow, usePagedList } from './hooks';
import { say, t, type Words } from './i18n';
import { useLiveStream } from './live';
import { sentenceFor } from './messages';
import { BulkAccept } from './hands';
import { OpenQueue } from './queue';
import { useQuestionClock } from './clock';
import { READY_EVENT, STREAMED_EVENT_TYPES } from '@openq/contracts/browser';
import type { LiveStatus } from './live';
import type { CardOutcome } from './types';

const html = htm.bind(h);

/** Events of any project that change the cross-project queue. */
const CHANGES_QUEUE = (type: string): boolean =>
  type === READY_EVENT ||
  type === 'gate.rescue_parked' ||
  type === 'gate.resumed' ||
  STREAMED_EVENT_TYPES.some((streamed) => streamed === type && /^(question|pipeline)\./.test(type));

export function AllProjectsInbox({
  topbar,
  sort,
  onSort,
  onSignedOut,
}: {
  topbar: (live: LiveStatus) => unknown;
  sort: string;
  onSort: (sort: string) => void;
  onSignedOut: () => void;
}) {
  const [filters, setFilters] = useUrlFilters();
  const [announcement, setAnnouncement] = useState<Words>('');
  const [note, setNote] = useState<string | null>(null);
  const now = useNow();
  const heading = useRef<HTMLHeadingElement>(null);
  const query = filtersQuery(filters);
  const queue = usePagedList(
    `/me/open-questions?status=open&sort=${sort}${query ? `&${query}` : ''}`,
    `${ALL_PROJECTS}|${sort}|${query}`,
  );

  // Issue #17 the markers: one look per project shown.
  const clock = useQuestionClock(
    queue.items.map((q) => q.projectId),
    queue.items,
  );

  // Bursts of events (a batch of declarations) reload the list once.
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const live = useLiveStream(ALL_PROJECTS, (type, data) => {
    if (type === 'closed') {
      api('/me').catch((e) => e.status === 401 && onSignedOut());
      return;
    }
    if (type === 'question.declared')
      setAnnouncement(t('allProjects.newQuestion', { project: data.projectId }));
    if (CHANGES_QUEUE(type)) {
      clearTimeout(timer.current);
      timer.current = setTimeout(queue.reload, 40);
    }
  });

  const onAnswered = ({ question, gone, withdrawn }: CardOutcome) => {
    setNote(gone ? `“${question.pergunta}”: ${sentenceFor(gone)}` : null);
    setAnnouncement(
      gone
        ? sentenceFor(gone)
        : t(withdrawn ? 'allProjects.withdrawn' : 'allProjects.answered', { pergunta: question.pergunta }),
    );
    void queue.reload();
  };

  return html`${topbar(live)}
    <main class="layout single all-projects" id="main">
      <h1 class="visually-hidden">${t('allProjects.title')}</h1>
      <div class="column primary">
        <${BulkAccept}
          projectId=${null}
          items=${queue.items}
          onDone=${(summary: () => string) => {
            setAnnouncement(() => summary);
            void queue.reload();
          }}
        />
        <${OpenQueue}
          list=${queue}
          count=${queue.total}
          projectId=${null}
          showProject=${true}
          now=${now}
          onAnswered=${onAnswered}
          headingRef=${heading}
          note=${note}
          sort=${sort}
          onSort=${onSort}
          effects=${[]}
          filterBar=${html`<${FilterBar}
            filters=${filters}
            onChange=${setFilters}
            counts=${queue.counts}
            total=${queue.total}
            loading=${queue.loading}
          />`}
          emptyNote=${isFiltered(filters) ? t('filters.noMatch') : t('allProjects.empty')}
          clock=${clock}
        />
      </div>
    </main>
    <p class="visually-hidden" aria-live="polite" role="status">${say(announcement)}</p>`;
}
