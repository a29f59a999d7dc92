// Issue #17 the person's settings on the current project: a page of sections, each in its own
// module (settings-*.js). To add one (working hours, a project's clock policy…), write its module
// exporting a component `({ id, projectId, me })` that renders one `<section class="panel
// settings-section">` with the `id` below, and add it to SETTINGS_SECTIONS.
import { h } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import htm from 'htm';
import { t } from './i18n';
import { ChannelsSection } from './settings-channels';
import { DeliveriesSection } from './settings-deliveries';
import { LanguageSection } from './settings-language';
import { WorkingHoursSection } from './settings-working-hours';
import { ClockPolicySection } from './settings-clock';
import { PoliciesSection } from './settings-policies';
import { SlackSection } from './settings-slack';
import { isOneOf } from './vocabulary';
import type { Me } from './hooks';
import type { View } from './types';

const html = htm.bind(h);

/** The page's sections, in page order: `id` is the section's anchor, `title` its name in the page's index. */
export const SETTINGS_SECTIONS = [
  { id: 'settings-channels', title: () => t('settings.channels.title'), Section: ChannelsSection },
  { id: 'settings-language', title: () => t('settings.language.title'), Section: LanguageSection },
  { id: 'settings-deliveries', title: () => t('settings.deliveries.title'), Section: DeliveriesSection },
  {
    id: 'settings-working-hours',
    title: () => t('settings.workingHours.title'),
    Section: WorkingHoursSection,
  },
  { id: 'settings-clock', title: () => t('settings.clock.title'), Section: ClockPolicySection },
  { id: 'settings-policies', title: () => t('settings.policies.title'), Section: PoliciesSection },
  { id: 'settings-slack', title: () => t('settings.slack.title'), Section: SlackSection },
];

/** The views of a project besides its queue: `?view=settings`, `?view=analytics` (issue #33). */
const VIEWS = ['settings', 'analytics'] as const;

/** The inbox's view from the URL: the project's queue (default), its settings, or its question quality. */
export function pickView() {
  const view = new URLSearchParams(location.search).get('view');
  return isOneOf(VIEWS, view) ? view : 'inbox';
}

/** The URL of a view of a project (the header's link works without script and in a new tab too). */
export function viewHref(projectId: string, view: string): string {
  const url = new URL(location.href);
  url.searchParams.set('project', projectId);
  if (isOneOf(VIEWS, view)) url.searchParams.set('view', view);
  else url.searchParams.delete('view');
  url.hash = '';
  return `${url.pathname}${url.search}`;
}

/** A plain click follows the link in place; a click asking for a new tab or window is the browser's. */
function inPlace(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** The header's way to a view of the project (marked as the current page while it is shown). */
/** What the header's links to the views take. */
interface ViewLinkProps {
  projectId: string;
  view: string;
  onView: (view: View) => void;
}

function ViewLink({
  projectId,
  view,
  onView,
  target,
  label,
}: ViewLinkProps & { target: 'settings' | 'analytics'; label: string }) {
  return html`<a
    id=${`${target}-link`}
    class="settings-link"
    href=${viewHref(projectId, target)}
    aria-current=${view === target ? 'page' : undefined}
    onClick=${(e: MouseEvent) => {
      if (!inPlace(e)) return;
      e.preventDefault();
      onView(target);
    }}
  >
    ${label}
  </a>`;
}

/** The header's way to the settings page. */
export function SettingsLink({ projectId, view, onView }: ViewLinkProps) {
  return html`<${ViewLink} projectId=${projectId} view=${view} onView=${onView} target="settings" label=${t('settings.open')} />`;
}

/** Issue #33 the header's way to the question-quality page. */
export function AnalyticsLink({ projectId, view, onView }: ViewLinkProps) {
  return html`<${ViewLink} projectId=${projectId} view=${view} onView=${onView} target="analytics" label=${t('analytics.open')} />`;
}

/** The page: its title, an index of its sections, then each section. */
export function SettingsPage({
  projectId,
  me,
  onView,
}: {
  projectId: string;
  me: Me;
  onView: (view: View) => void;
}) {
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Arriving from the header, the keyboard and the screen reader start at the page's title.
    title.current?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [projectId]);

  const goTo = (event: Event, id: string) => {
    const target = document.getElementById(`${id}-title`);
    if (!target) return;
    event.preventDefault();
    target.scrollIntoView({ block: 'start', behavior: 'smooth' });
    target.focus({ preventScroll: true });
  };

  return html`<main class="layout single settings-page" id="main">
    <div class="settings-head">
      <h1 class="page-title" id="settings-title" tabindex="-1" ref=${title}>
        ${t('settings.title', { projectId })}
      </h1>
      <p class="panel-sub">${t('settings.sub', { me: me.sub })}</p>
      <nav class="settings-index" aria-label=${t('settings.index')}>
        <a
          href=${viewHref(projectId, 'inbox')}
          onClick=${(e: MouseEvent) => {
            if (!inPlace(e)) return;
            e.preventDefault();
            onView('inbox');
          }}
          >${t('settings.backToInbox')}</a
        >
        ${SETTINGS_SECTIONS.map(
          (s) =>
            html`<a key=${s.id} href=${`#${s.id}`} onClick=${(e: MouseEvent) => goTo(e, s.id)}>${s.title()}</a>`,
        )}
      </nav>
    </div>
    ${SETTINGS_SECTIONS.map(
      ({ id, Section }) => html`<${Section} key=${id} id=${id} projectId=${projectId} me=${me} />`,
    )}
  </main>`;
}
