// "Open questions": its own title and count, oldest first, answered only by the session's author.
import { h } from 'preact';
import { useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { AnsweringFor } from './delegation';
import { api, newIdempotencyKey, projectPath, type PageError } from './api';
import { formatNumber, language, t } from './i18n';
import { agentName, ago, askersSentence, fullDate, sentenceFor, waited } from './messages';
import { gateName } from './gates';
import { ErrorLine, MAX_ANSWER, MAX_REASON, OneLineAction } from './ui';
import { CardDetails, SelectBox } from './hands';
import { ClockMarker } from './clock';
import {
  AFFECTS_KEYS,
  QUESTION_LIST_SORTS,
  type AffectsKey,
  type BlockedWork,
  type ClockStateItem,
  type OpenQuestionView,
  type QuestionListSort,
} from '@openq/contracts/browser';
import { isOneOf } from './vocabulary';
import type { Ref } from 'preact';
import type { EventOn, SubmitEvent } from './dom';
import type { PagedList } from './hooks';
import type { CardOutcome } from './types';

const html = htm.bind(h);

const AFFECTS = AFFECTS_KEYS;

/** What a question affects, as labelled groups of ids. */
export function Affects({ affects }: { affects: Partial<Record<AffectsKey, string[]>> | null | undefined }) {
  const groups = AFFECTS.filter((key) => affects?.[key]?.length);
  if (!groups.length) return html`<p class="affects muted">${t('queue.affects.nothing')}</p>`;
  return html`<dl class="affects">
    <dt class="affects-title">${t('queue.affects.title')}</dt>
    ${groups.map(
      (key) =>
        html`<dd class="affects-group">
          <span class="affects-label">${t(`queue.affects.${key}`)}</span>
          ${affects![key]!.map((id) => html`<span class="chip">${id}</span>`)}
        </dd>`,
    )}
  </dl>`;
}

/**
 * Issue #18 what waits on the question, in words: "QA gate on T-101 (2 h)", "analysis of T-20
 * (3 h)", "T-21, T-22 queued behind T-20". The server computed it (the gates service); this only says it.
 */
export function blocksSentence(blocking: OpenQuestionView['blocking'], now: number): string {
  const blocks = blocking?.blocks ?? [];
  const since = (b: BlockedWork) => (b.since ? ` (${waited(b.since, now)})` : '');
  const parts: string[] = [];
  for (const b of blocks) {
    if (b.kind === 'gate')
      parts.push(t('queue.blocks.gate', { gate: gateName(b.gate), taskId: b.taskId }) + since(b));
    if (b.kind === 'analysis') parts.push(t('queue.blocks.analysis', { taskId: b.taskId }) + since(b));
  }
  const queued = new Map();
  for (const b of blocks) {
    if (b.kind !== 'queued') continue;
    queued.set(b.behindTaskId, [...(queued.get(b.behindTaskId) ?? []), b.taskId]);
  }
  for (const [behind, tasks] of queued) {
    const who =
      tasks.length <= 3
        ? new Intl.ListFormat(language(), { style: 'short', type: 'unit' }).format(tasks)
        : t('queue.blocks.tasks', { count: tasks.length });
    parts.push(t('queue.blocks.queued', { who, behind, count: tasks.length }));
  }
  return parts.join(' · ');
}

function originNote(q: OpenQuestionView): string | null {
  if (q.origin === 'qa_verdict') return t('queue.origin.qaVerdict');
  if (q.origin === 'analyst') return t('queue.origin.analyst');
  return null;
}

/**
 * SPEC §11.5 the session author withdraws a question that no longer needs an answer, saying why.
 * Closed: one quiet button; open: the reason and a confirm. A repeated withdrawal is 200 (the
 * first one stands), so a retry after a lost reply is harmless.
 */
function WithdrawControl({
  q,
  projectId,
  onWithdrawn,
  position,
}: {
  q: OpenQuestionView;
  projectId: string;
  onWithdrawn: (outcome: CardOutcome) => void;
  position?: number;
}) {
  return html`<${OneLineAction}
    id=${`w-${q.questionId}`}
    className="withdraw"
    opener=${t('queue.withdraw.opener')}
    label=${t('queue.withdraw.label')}
    maxLength=${MAX_REASON}
    emptyMessage=${t('queue.withdraw.empty', { max: formatNumber(MAX_REASON) })}
    submitLabel=${t('queue.withdraw.submit')}
    busyLabel=${t('queue.withdraw.busy')}
    send=${async (motivo: string) => {
      const reply = await api(projectPath(projectId, `/open-questions/${q.questionId}/withdraw`), {
        method: 'POST',
        body: { motivo },
      });
      onWithdrawn({ question: q, reply, position, withdrawn: true });
    }}
    onError=${(e: PageError) => {
      if (e.reason === 'pergunta_ja_respondida' || e.reason === 'pergunta_nao_encontrada')
        onWithdrawn({ question: q, reply: null, position, gone: e as PageError });
    }}
  />`;
}

/**
 * SPEC §12.3 who asked it, when agents asked the same thing ("asked by PO and Arquiteto"), whether
 * it was decided before (that decision: its answer and when; the asker insisted, saying why), and
 * — for the session's author — a split for each agent that joined: a wrong join gives that agent
 * its own question back.
 */
function AskOnce({ q, projectId, canSplit }: { q: OpenQuestionView; projectId: string; canSplit: boolean }) {
  const [error, setError] = useState<PageError | null>(null);
  const askers = q.askers ?? [];
  const joined = askers.slice(1);
  if (joined.length === 0 && !q.precedentOf) return null;
  const split = async (toolCallId: string | null) => {
    setError(null);
    try {
      await api(projectPath(projectId, `/open-questions/${q.questionId}/split`), {
        method: 'POST',
        body: { toolCallId },
      });
    } catch (e) {
      setError(e as PageError);
    }
  };
  return html`<div class="ask-once">
    ${joined.length > 0 && html`<p class="askers">${t('queue.askOnce.askedBy', { agents: askersSentence(askers) })}</p>`}
    ${
      q.precedentOf &&
      html`<p class="precedent">
        ${
          q.precedent
            ? html`${t('queue.askOnce.decidedBefore', { resposta: q.precedent.resposta })}
                <time datetime=${q.precedent.decidedAt}> (${fullDate(q.precedent.decidedAt)})</time>`
            : t('queue.askOnce.decidedBeforeUnknown')
        }
        ${q.motivo && html`<span class="why"> · ${t('queue.askOnce.askedAgain', { motivo: q.motivo })}</span>`}
      </p>`
    }
    ${
      canSplit &&
      joined.map(
        (a) =>
          html`<button
            type="button"
            class="secondary split"
            title=${t('queue.askOnce.splitHint', { agent: agentName(a.autor) })}
            onClick=${() => split(a.toolCallId)}
          >
            ${t('queue.askOnce.split', { agent: agentName(a.autor) })}
          </button>`,
      )
    }
    ${error && html`<p class="error" role="alert">${sentenceFor(error)}</p>`}
  </div>`;
}

/**
 * Refusals after which the card cannot be answered from here: the question left the queue, or
 * (§11.6) the delegation it was answered under was revoked or expired (the queue reloads and the
 * card turns inert).
 */
const GONE = [
  'pergunta_ja_respondida',
  'pergunta_nao_encontrada',
  'pergunta_retirada',
  'delegacao_revogada',
  'delegacao_expirada',
  'delegacao_desligada',
] as const;

/** One open question: the suggestion to accept, or a short answer (for the session's author only). */
export function QuestionCard({
  q,
  projectId,
  now,
  reasonId,
  onAnswered,
  position,
  showProject,
  clockItem,
}: {
  q: OpenQuestionView;
  projectId: string;
  now: number;
  reasonId?: string;
  onAnswered: (outcome: CardOutcome) => void;
  position?: number;
  showProject?: boolean;
  clockItem?: ClockStateItem;
}) {
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PageError | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  // The same answer sent again after a failure (the reply may have been lost, not the answer)
  // carries the same Idempotency-Key: if the first one was recorded, it comes back, not a 409.
  const attempt = useRef<{ json: string; key: string } | null>(null);
  const base = `q-${q.questionId}`;

  const send = async (body: { resposta: string } | { aceitarSugestao: true }) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const json = JSON.stringify(body);
    if (attempt.current?.json !== json) attempt.current = { json, key: newIdempotencyKey() };
    try {
      const reply = await api(projectPath(projectId, `/open-questions/${q.questionId}/answer`), {
        method: 'POST',
        body,
        headers: { 'idempotency-key': attempt.current.key },
      });
      attempt.current = null;
      onAnswered({ question: q, reply, position });
    } catch (e) {
      setBusy(false);
      setError(e as PageError);
      if (isOneOf(GONE, (e as PageError).reason))
        onAnswered({ question: q, reply: null, position, gone: e as PageError });
      else input.current?.focus();
    }
  };

  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text) {
      setError({ message: t('queue.answer.empty') });
      input.current?.focus();
      return;
    }
    if (text.length > MAX_ANSWER) {
      setError({ message: t('queue.answer.tooLong', { max: formatNumber(MAX_ANSWER) }) });
      return;
    }
    void send({ resposta: text });
  };

  const origin = originNote(q);
  const errorId = `${base}-error`;
  return html`<article
    class="card"
    id=${base}
    tabindex="-1"
    aria-labelledby=${`${base}-text`}
    data-question-id=${q.questionId}
  >
    <${SelectBox} q=${q} />
    <p class="meta">
      ${showProject && html`<span class="project-tag" data-project=${q.projectId}>${q.projectId}</span>`}
      <span class="agent">${agentName(q.autor)}</span>
      <span> ${t('queue.card.asked')} </span>
      <time datetime=${q.declaredAt} title=${fullDate(q.declaredAt)}>${ago(q.declaredAt, now)}</time>
      <span class="sep" aria-hidden="true">·</span>
      <span>${t('queue.card.sessionOf')} <strong>${q.sessionAuthorId}</strong></span>
      ${origin && html`<span class="sep" aria-hidden="true">·</span><span>${origin}</span>`}
    </p>
    <${ClockMarker} item=${clockItem} now=${now} />
    ${
      (q.blocking?.blocks.length ?? 0) > 0 &&
      html`<p class="blocks"><strong>${t('queue.card.blocks')}</strong> <span>${blocksSentence(q.blocking, now)}</span></p>`
    }
    <${AnsweringFor} q=${q} />
    <h3 class="question" id=${`${base}-text`}>${q.pergunta}</h3>
    <${AskOnce} q=${q} projectId=${projectId} canSplit=${q.canAnswer && !q.answeringAs} />
    <${Affects} affects=${q.afeta} />
    <${CardDetails} q=${q} />
    <fieldset
      class="controls"
      disabled=${!q.canAnswer}
      aria-describedby=${q.canAnswer ? undefined : reasonId}
    >
      <legend class="visually-hidden">${t('queue.card.answerLegend', { pergunta: q.pergunta })}</legend>
      ${
        q.sugestao
          ? html`<div class="suggestion">
              <p><span class="label">${t('queue.card.suggestion')}</span> ${q.sugestao}</p>
              <button
                type="button"
                class="secondary"
                onClick=${() => send({ aceitarSugestao: true })}
                aria-busy=${busy}
              >
                ${t('queue.card.acceptSuggestion')}
              </button>
            </div>`
          : html`<p class="suggestion muted">${t('queue.card.noSuggestion')}</p>`
      }
      <form class="answer" onSubmit=${onSubmit} aria-describedby=${error ? errorId : undefined}>
        <label for=${`${base}-answer`}>${t('queue.card.yourAnswer')}</label>
        <div class="row">
          <input
            id=${`${base}-answer`}
            ref=${input}
            type="text"
            autocomplete="off"
            maxlength=${MAX_ANSWER}
            value=${draft}
            onInput=${(e: EventOn<HTMLTextAreaElement>) => setDraft(e.currentTarget.value)}
          />
          <button type="submit" class="primary" aria-busy=${busy}>${busy ? t('queue.card.sending') : t('queue.card.answer')}</button>
        </div>
      </form>
    </fieldset>
    ${error && html`<p class="error" role="alert" id=${errorId}>${sentenceFor(error)}</p>`}
    ${
      q.canAnswer &&
      !q.answeringAs &&
      html`<${WithdrawControl} q=${q} projectId=${projectId} onWithdrawn=${onAnswered} position=${position} />`
    }
  </article>`;
}

/**
 * Why a card's controls are off, in the person's language: the server says it in English
 * (`inertReason`), so the page says it again from what it knows of the question.
 */
function inertSentence(q: OpenQuestionView | undefined): string {
  if (!q) return '';
  if (/^Already answered/.test(q.inertReason ?? '')) return t('queue.inert.answered');
  if (/^Withdrawn/.test(q.inertReason ?? '')) return t('queue.inert.withdrawn');
  return t('queue.inert.onlyAuthor', { author: q.sessionAuthorId });
}

/** The inert reasons of the list, each said once (SPEC §3.3), with how many cards each covers. */
function inertReasons(items: readonly OpenQuestionView[]): [string, number][] {
  const reasons = new Map<string, number>();
  for (const q of items) {
    if (!q.canAnswer && q.inertReason) reasons.set(q.inertReason, (reasons.get(q.inertReason) ?? 0) + 1);
  }
  return [...reasons.entries()];
}

function scope(covered: number, shown: number): string {
  if (covered === 1 && shown === 1) return t('queue.inert.scopeOne');
  if (covered === shown) return t('queue.inert.scopeAll', { count: covered });
  return t('queue.inert.scopeSome', { count: covered });
}

const SORTS = QUESTION_LIST_SORTS;

/** Issue #18 the queue's order: what blocks most first (the default), or oldest first. */
function SortSwitch({ sort, onSort }: { sort: string; onSort: (sort: QuestionListSort) => void }) {
  return html`<div class="sort" role="group" aria-label=${t('queue.sort.label')}>
    ${SORTS.map(
      (value) =>
        html`<button type="button" class="sort-option" aria-pressed=${sort === value} onClick=${() => onSort(value)}>
          ${t(`queue.sort.${value}`)}
        </button>`,
    )}
  </div>`;
}

export function OpenQueue({
  list,
  count,
  projectId,
  now,
  onAnswered,
  headingRef,
  note,
  sort,
  onSort,
  effects,
  showProject,
  filterBar,
  emptyNote,
  clock,
}: {
  list: PagedList<OpenQuestionView>;
  count?: number | null;
  projectId: string | null;
  now: number;
  onAnswered: (outcome: CardOutcome) => void;
  headingRef?: Ref<HTMLHeadingElement>;
  note?: string | null;
  sort: string;
  onSort: (sort: QuestionListSort) => void;
  effects?: string[];
  showProject?: boolean;
  filterBar?: unknown;
  emptyNote?: unknown;
  clock?: Map<string, ClockStateItem>;
}) {
  const reasons = inertReasons(list.items);
  const reasonId = (q: OpenQuestionView) =>
    `inert-${reasons.findIndex(([reason]) => reason === q.inertReason)}`;
  const cut = list.items.length < list.total;
  const shownCount = count ?? list.total;
  return html`<section class="panel queue" aria-labelledby="open-questions">
    <div class="panel-head">
      <h2 id="open-questions" tabindex="-1" ref=${headingRef}>
        ${t('queue.title')} <span class="count"><span class="visually-hidden">: </span>${shownCount}</span>
      </h2>
      <${SortSwitch} sort=${sort} onSort=${onSort} />
    </div>
    ${filterBar}
    ${reasons.map(
      ([reason, covered], i) =>
        html`<p class="inert-note" id=${`inert-${i}`}>
          <span class="icon" aria-hidden="true">i</span>
          <span>${inertSentence(list.items.find((q) => q.inertReason === reason))} ${scope(covered, list.items.length)}</span>
        </p>`,
    )}
    ${note && html`<p class="queue-note" role="status">${note}</p>`}
    ${
      (effects?.length ?? 0) > 0 &&
      html`<ul class="effects" aria-label=${t('queue.effects')}>
        ${effects!.map((sentence) => html`<li key=${sentence}><span class="icon" aria-hidden="true">✓</span>${sentence}</li>`)}
      </ul>`
    }
    ${list.error && html`<${ErrorLine} error=${list.error} retry=${list.reload} />`}
    ${
      list.loading && !list.items.length && !list.error
        ? html`<p class="empty" role="status">${t('queue.loading')}</p>`
        : !list.items.length && !list.error
          ? html`<p class="empty">${emptyNote ?? t('queue.empty')}</p>`
          : html`<ol class="cards">
              ${list.items.map(
                (q, i) =>
                  html`<li key=${q.questionId}>
                    <${QuestionCard}
                      q=${q}
                      projectId=${showProject ? q.projectId : projectId}
                      showProject=${showProject}
                      now=${now}
                      reasonId=${reasonId(q)}
                      onAnswered=${onAnswered}
                      position=${i}
                      clockItem=${clock?.get(q.questionId)}
                    />
                  </li>`,
              )}
            </ol>`
    }
    ${
      cut &&
      html`<p class="cut">
        ${t('queue.showing', { shown: formatNumber(list.items.length), count: list.total })}
        <button type="button" class="link" onClick=${list.loadMore} disabled=${list.more}>${t('ui.showMore')}</button>
      </p>`
    }
  </section>`;
}
