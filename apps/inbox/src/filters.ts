// Issue #18 triage: the queue's filters (who, asking role, task, story, rule, text search), kept
// in the URL's query string so that a link, a reload and back/forward restore them.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { agentName } from './messages';
import { t } from './i18n';
import { QUESTION_AUTHORS, QUESTION_WHO_FILTERS } from '@openq/contracts/browser';
import { isOneOf } from './vocabulary';
import type { EventOn } from './dom';

const html = htm.bind(h);

/** The project switch's value for the inbox across every project (never a project id). */
export const ALL_PROJECTS = '*';

/** The asking roles a question may come from (SPEC §3.1 `autor`). */
export const ROLES = QUESTION_AUTHORS;
const WHO = QUESTION_WHO_FILTERS;
/** Free-text filters: the three `afeta` ids and the search. */
const IDS = ['task', 'story', 'rule'] as const;
const TEXTS = [...IDS, 'q'] as const;
type TextKey = (typeof TEXTS)[number];
const PARAMS = ['who', 'role', ...TEXTS];

/** The queue's filters: whose questions, which asking roles, and the free texts (`task`, `story`, `rule`, `q`). */
export interface Filters extends Partial<Record<TextKey, string>> {
  who: string | null;
  role: string[];
}

/** The filters a query string holds (unknown values dropped: the URL may have been typed). */
export function readFilters(search = location.search): Filters {
  const p = new URLSearchParams(search);
  const who = isOneOf(WHO, p.get('who')) ? p.get('who') : 'all';
  const roles = p
    .getAll('role')
    .flatMap((v) => v.split(','))
    .map((r) => r.trim())
    .filter((r) => isOneOf(ROLES, r));
  const filters: Filters = { who, role: [...new Set(roles)] };
  for (const key of TEXTS) {
    const value = (p.get(key) ?? '').trim();
    if (value) filters[key] = value;
  }
  return filters;
}

/** `[name, value]` of each filter that narrows the list (defaults left out). */
function filterParams(filters: Filters): [string, string][] {
  const out: [string, string][] = [];
  if (filters.who && filters.who !== 'all') out.push(['who', filters.who]);
  if (filters.role?.length) out.push(['role', filters.role.join(',')]);
  for (const key of TEXTS) {
    const value = filters[key];
    if (value) out.push([key, value]);
  }
  return out;
}

/** The filters as query-string parameters for the list routes (`''` for none). */
export function filtersQuery(filters: Filters): string {
  return filterParams(filters)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
}

export function isFiltered(filters: Filters): boolean {
  return filterParams(filters).length > 0;
}

/** How many of the filters behind "More filters" are set. */
function moreCount(filters: Filters): number {
  return (filters.role?.length ? 1 : 0) + IDS.filter((k) => filters[k]).length;
}

/**
 * The filters and a setter that writes them into the URL as a new history entry (so Back
 * returns to the previous filters); Back and Forward read them again.
 */
export function useUrlFilters(): [Filters, (next: Filters) => void] {
  const [filters, setFilters] = useState(() => readFilters());
  useEffect(() => {
    const onPop = () => setFilters(readFilters());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const change = (next: Filters) => {
    const url = new URL(location.href);
    for (const key of PARAMS) url.searchParams.delete(key);
    for (const [key, value] of filterParams(next)) url.searchParams.set(key, value);
    if (url.href !== location.href) window.history.pushState(null, '', url);
    setFilters(readFilters(url.search));
  };
  return [filters, change];
}

/** One id filter (task, story, rule): applied on Enter or when the field is left. */
function IdFilter({
  name,
  value,
  onApply,
}: {
  name: TextKey;
  value: string | undefined;
  onApply: (value: string) => void;
}) {
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  const apply = () => {
    if (text.trim() !== (value ?? '')) onApply(text.trim());
  };
  return html`<label class="filter-field">
    <span>${t(`filters.${name}`)}</span>
    <input
      type="text"
      name=${name}
      value=${text}
      maxlength=${name === 'rule' ? 200 : 64}
      autocomplete="off"
      placeholder=${t(`filters.${name}Placeholder`)}
      onInput=${(e: EventOn) => setText(e.currentTarget.value)}
      onKeyDown=${(e: EventOn<HTMLInputElement, KeyboardEvent>) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          apply();
        }
      }}
      onBlur=${apply}
    />
  </label>`;
}

/**
 * The filter bar above the queue: the search box, whose questions (all / mine / those I cannot
 * answer, with their counts when the list gave them), and behind "More filters" (closed unless one
 * of them is set) the asking roles, task, story and rule. `total` is how many match.
 */
export function FilterBar({
  filters,
  onChange,
  counts,
  total,
  loading,
}: {
  filters: Filters;
  onChange: (filters: Filters) => void;
  counts: Record<string, number> | null | undefined;
  total: number;
  loading: boolean;
}) {
  const [text, setText] = useState(filters.q ?? '');
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => setText(filters.q ?? ''), [filters.q]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  const search = (value: string) => {
    clearTimeout(timer.current);
    if (value.trim() !== (filters.q ?? '')) set({ q: value.trim() || undefined });
  };
  const toggleRole = (role: string, on: boolean) =>
    set({ role: on ? [...filters.role, role] : filters.role.filter((r) => r !== role) });
  const more = moreCount(filters);
  const count = (who: string) => (who === 'all' ? counts && counts.mine! + counts.others! : counts?.[who]);

  return html`<div class="filters" role="search" aria-label=${t('filters.label')}>
    <form
      class="filter-search"
      onSubmit=${(e: SubmitEvent) => {
        e.preventDefault();
        search(text);
      }}
    >
      <label for="filter-q" class="visually-hidden">${t('filters.search')}</label>
      <input
        id="filter-q"
        type="search"
        value=${text}
        maxlength="200"
        autocomplete="off"
        placeholder=${t('filters.searchPlaceholder')}
        onInput=${(e: EventOn) => {
          const value = e.currentTarget.value;
          setText(value);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => search(value), 400);
        }}
      />
    </form>
    <div class="filter-row">
      <div class="sort filter-who" role="group" aria-label=${t('filters.whoLabel')}>
        ${WHO.map(
          (who) =>
            html`<button
              type="button"
              class="sort-option"
              data-who=${who}
              aria-pressed=${filters.who === who}
              onClick=${() => set({ who })}
            >
              ${t(`filters.who.${who}`)}
              ${count(who) !== undefined && count(who) !== null && html` <span class="n">${count(who)}</span>`}
            </button>`,
        )}
      </div>
      ${
        isFiltered(filters) &&
        html`<p class="filter-summary" role="status">
          ${loading ? t('filters.searching') : t('filters.matching', { count: total })}
          <button type="button" class="link" onClick=${() => onChange({ who: 'all', role: [] })}>
            ${t('filters.clear')}
          </button>
        </p>`
      }
    </div>
    <details class="filter-more" open=${more > 0}>
      <summary>${more > 0 ? t('filters.moreSet', { count: more }) : t('filters.more')}</summary>
      <div class="filter-more-body">
        <div class="filter-roles" role="group" aria-labelledby="filter-roles-label">
          <span class="filter-roles-label" id="filter-roles-label">${t('filters.role')}</span>
          ${ROLES.map(
            (role) =>
              html`<label class="filter-check">
                <input
                  type="checkbox"
                  name="role"
                  value=${role}
                  checked=${filters.role.includes(role)}
                  onChange=${(e: EventOn) => toggleRole(role, e.currentTarget.checked)}
                />
                ${agentName(role)}
              </label>`,
          )}
        </div>
        <div class="filter-ids">
          ${IDS.map(
            (name) =>
              html`<${IdFilter}
                key=${name}
                name=${name}
                value=${filters[name]}
                onApply=${(value: string) => set({ [name]: value || undefined })}
              />`,
          )}
        </div>
      </div>
    </details>
  </div>`;
}
