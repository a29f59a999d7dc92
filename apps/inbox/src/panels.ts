// Readiness (warns, never blocks), "Waiting for you" (parked gates), and the answered history.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath, type PageError } from './api';
import { formatNumber, t } from './i18n';
import { agentName, ago, fullDate, roleWithArticle, sentenceFor } from './messages';
import { ErrorLine, MAX_ANSWER, OneLineAction } from './ui';
import { gateName, OverrideResume } from './gates';
import { AnsweredFor, answeredByDelegate } from './delegation';
import {
  READINESS_ACTIONS,
  type GatesWaitingReply,
  type OpenQuestionView,
  type ProjectPoliciesReply,
  type ReadinessAction,
  type WaitingGateView,
} from '@openq/contracts/browser';
import { hasRole } from './vocabulary';
import type { PagedList, Resource } from './hooks';
import type { CardOutcome } from './types';

/** `GET /projects/:p/readiness/:action`: the open questions (its `notice` is English: the page says its own). */
interface Readiness {
  openQuestions: number;
}

const html = htm.bind(h);

const ACTIONS = READINESS_ACTIONS;

/**
 * "N questions are still open — answer", with "answer" as the way to the queue. The server's
 * `notice` is English: the page says it again from `openQuestions`.
 */
function Notice({ open, onGoToQueue }: { open: number; onGoToQueue: (event: Event) => void }) {
  return html`<p class="notice">
    <span class="icon" aria-hidden="true">!</span>
    <span>${t('panels.readiness.stillOpen', { count: open })} — <a href="#open-questions" onClick=${onGoToQueue}>${t('panels.readiness.answer')}</a></span>
  </p>`;
}

/**
 * The two readiness buttons with the open-question notice next to them (ADR 0214 §5). The
 * buttons never wait on the notice: a click checks readiness for that action, says so, and
 * tells an embedding page through an `openq:readiness` DOM event (openq itself records no
 * readiness — the engine owns those gestures). `openNow`: the project's open count as the page
 * knows it now (the live `open_count`, the queue's heading), which the notice says rather than a
 * readiness answer that may have been read before the last answers were counted (issue #30).
 */
export function ReadinessBar({
  readiness,
  projectId,
  openNow,
  onGoToQueue,
}: {
  readiness: Resource<Readiness>;
  projectId: string;
  openNow?: number | null;
  onGoToQueue: (event: Event) => void;
}) {
  const [checked, setChecked] = useState<(() => string) | null>(null);
  const check = async (action: ReadinessAction) => {
    try {
      const reply = await api(projectPath(projectId, `/readiness/${action}`));
      readiness.set(reply);
      const key = reply.openQuestions ? 'panels.readiness.goesAheadOpen' : 'panels.readiness.goesAheadNone';
      setChecked(() => () => t(key, { action: t(`panels.readiness.actions.${action}`) }));
      window.dispatchEvent(new CustomEvent('openq:readiness', { detail: { projectId, ...reply } }));
    } catch (error) {
      setChecked(() => () => sentenceFor(error as PageError));
    }
  };
  const open = openNow ?? readiness.data?.openQuestions ?? 0;
  return html`<section class="readiness" aria-label=${t('panels.readiness.label')}>
    <div class="readiness-buttons">
      ${ACTIONS.map(
        (action) =>
          html`<button type="button" class="secondary" onClick=${() => check(action)}>
            ${t(`panels.readiness.actions.${action}`)}
          </button>`,
      )}
    </div>
    <div class="readiness-state" aria-live="polite">
      ${
        readiness.data && open > 0
          ? html`<${Notice} open=${open} onGoToQueue=${onGoToQueue} />`
          : readiness.data
            ? html`<p class="notice ok"><span class="icon" aria-hidden="true">✓</span>${t('panels.readiness.none')}</p>`
            : readiness.error
              ? html`<${ErrorLine} error=${readiness.error} retry=${readiness.reload} />`
              : null
      }
    </div>
    ${checked && html`<p class="checked" role="status">${checked()}</p>`}
  </section>`;
}

/** A parked gate's questions, linked to their card in the queue when it is on screen. */
function WaitingQuestions({
  ids,
  questionsById,
  filtered,
  queueLoading,
  onGoToQuestion,
}: {
  ids: readonly string[];
  questionsById: ReadonlyMap<string, OpenQuestionView>;
  /** The queue is narrowed by filters: a question not on it may be hidden, not further down. */
  filtered: boolean;
  /** The queue is still loading: a question not on it yet may be on its first page. */
  queueLoading: boolean;
  onGoToQuestion: (event: Event, id: string) => void;
}) {
  return html`<ul class="task-questions">
    ${ids.map((id) => {
      const q = questionsById.get(id);
      return html`<li key=${id}>
        ${
          q
            ? html`<a href=${`#q-${id}`} onClick=${(e: Event) => onGoToQuestion(e, id)}>${q.pergunta}</a>
                <span class="muted"> — ${t('panels.waiting.decides', { author: q.sessionAuthorId })}</span>`
            : queueLoading
              ? html`<span class="muted" aria-busy="true">…</span>`
              : html`<span class="muted">${t(filtered ? 'panels.waiting.hiddenByFilters' : 'panels.waiting.furtherDown')}</span>`
        }
      </li>`;
    })}
  </ul>`;
}

function ResumeButton({
  cycle,
  projectId,
  allowed,
  reasonId,
  onResumed,
}: {
  cycle: WaitingGateView;
  projectId: string;
  allowed: boolean;
  reasonId?: string;
  onResumed: (cycle: WaitingGateView) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PageError | null>(null);
  const resume = async () => {
    setBusy(true);
    setError(null);
    try {
      await api(
        projectPath(projectId, `/tasks/${encodeURIComponent(cycle.taskId)}/gates/${cycle.gate}/resume`),
        { method: 'POST' },
      );
      onResumed(cycle);
    } catch (e) {
      setError(e as PageError);
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="resume">
    <button
      type="button"
      class="secondary"
      disabled=${!allowed}
      aria-describedby=${allowed ? undefined : reasonId}
      aria-busy=${busy}
      onClick=${resume}
    >
      ${busy ? t('panels.waiting.resuming') : t('panels.waiting.resume')}
    </button>
    ${error && html`<p class="error" role="alert">${sentenceFor(error)}</p>`}
  </div>`;
}

/** htm trims text at line breaks, so sentences with a value inside are built whole. */
function resumesWhen(n: number): string {
  return t('panels.waiting.resumesWhen', { count: n });
}

/**
 * Tasks whose gate is parked: on a decision of yours (with its questions), or idle (resume by hand).
 * `overrides: false` (the embedded pending block, embed.js) leaves the maintainer's way out to the inbox.
 */
export function WaitingPanel({
  waiting,
  policies,
  role,
  projectId,
  questionsById,
  now,
  onGoToQuestion,
  onResumed,
  overrides = true,
  filtered = false,
  queueLoading = false,
}: {
  waiting: Resource<GatesWaitingReply>;
  policies?: ProjectPoliciesReply | null;
  role: string | null;
  projectId: string;
  questionsById: ReadonlyMap<string, OpenQuestionView>;
  now: number;
  onGoToQuestion: (event: Event, id: string) => void;
  onResumed: (cycle: WaitingGateView, how?: { override: boolean }) => void;
  overrides?: boolean;
  /** The queue beside it is narrowed by filters (issue #30: its questions may be hidden there). */
  filtered?: boolean;
  /** The queue beside it has not loaded yet: no question is "further down" before it has. */
  queueLoading?: boolean;
}) {
  const items = waiting.data?.items ?? [];
  const decisions = items.filter((c) => c.parkedReason === 'user_decision');
  // §12.1 personal: the count is of the gates only you unlock (your session's, or your grantor's).
  const yours = decisions.filter((c) => c.waitingForYou).length;
  const idle = items.filter((c) => c.parkedReason === 'idle');
  const total = waiting.data?.total ?? items.length;
  const canResume = hasRole(role, 'developer');
  const isMaintainer = hasRole(role, 'maintainer');
  // §12.1 the override is a project policy, off until a maintainer turns it on.
  const canOverride = isMaintainer && policies?.overrideDeMantenedor === true;
  const overrideReason = !isMaintainer
    ? t('panels.waiting.overrideNeedsRole', { role: roleWithArticle(role) })
    : t('panels.waiting.overrideOff');
  return html`<section class="panel waiting" aria-labelledby="waiting-title">
    <div class="panel-head">
      <h2 id="waiting-title">
        ${t('panels.waiting.title')}
        ${waiting.data && html`<span class="count"><span class="visually-hidden">: </span>${yours}</span>`}
      </h2>
      <p class="panel-sub">${t('panels.waiting.sub')}</p>
    </div>
    ${waiting.error && html`<${ErrorLine} error=${waiting.error} retry=${waiting.reload} />`}
    ${
      !waiting.data && !waiting.error
        ? html`<p class="empty" role="status">${t('ui.loading')}</p>`
        : decisions.length === 0
          ? waiting.data && html`<p class="empty">${t('panels.waiting.empty')}</p>`
          : html`${overrides && !canOverride && html`<p class="inert-note" id="override-reason"><span class="icon" aria-hidden="true">i</span>${overrideReason}</p>`}
            <ul class="tasks">
              ${decisions.map(
                (c) =>
                  html`<li class="task" key=${`${c.taskId}/${c.gate}`} data-task-id=${c.taskId}>
                    <p class="task-title">
                      <span class="task-id">${c.taskId}</span>
                      <span class="gate">${gateName(c.gate)}</span>
                      <span class="muted">${t('panels.waiting.parked')} <time datetime=${c.updatedAt} title=${fullDate(c.updatedAt)}>${ago(c.updatedAt, now)}</time></span>
                    </p>
                    <p class="task-sub">${resumesWhen(c.questionIds.length)}</p>
                    ${!c.waitingForYou && html`<p class="muted not-yours" data-testid="waits-for-author">${t('panels.waiting.notYours')}</p>`}
                    <${WaitingQuestions}
                      filtered=${filtered}
                      queueLoading=${queueLoading}
                      ids=${c.questionIds}
                      questionsById=${questionsById}
                      onGoToQuestion=${onGoToQuestion}
                    />
                    ${
                      overrides &&
                      html`<${OverrideResume}
                        cycle=${c}
                        projectId=${projectId}
                        allowed=${canOverride}
                        reasonId="override-reason"
                        onResumed=${onResumed}
                      />`
                    }
                  </li>`,
              )}
            </ul>`
    }
    ${
      idle.length > 0 &&
      html`<h3 class="subhead">${t('panels.waiting.idle')} <span class="count small">${idle.length}</span></h3>
        ${!canResume && html`<p class="inert-note" id="resume-reason"><span class="icon" aria-hidden="true">i</span>${t('panels.waiting.resumeNeedsRole', { role: roleWithArticle(role) })}</p>`}
        <ul class="tasks">
          ${idle.map(
            (c) =>
              html`<li class="task idle" key=${`${c.taskId}/${c.gate}`} data-task-id=${c.taskId}>
                <p class="task-title">
                  <span class="task-id">${c.taskId}</span>
                  <span class="gate">${gateName(c.gate)}</span>
                  <span class="muted">${t('panels.waiting.parked')} <time datetime=${c.updatedAt} title=${fullDate(c.updatedAt)}>${ago(c.updatedAt, now)}</time></span>
                </p>
                <${ResumeButton}
                  cycle=${c}
                  projectId=${projectId}
                  allowed=${canResume}
                  reasonId="resume-reason"
                  onResumed=${onResumed}
                />
              </li>`,
          )}
        </ul>`
    }
    ${items.length < total && html`<p class="cut">${t('panels.waiting.showing', { shown: formatNumber(items.length), count: total })}</p>`}
  </section>`;
}

/**
 * How an agent recorded the user's chat answer (ADR 0258): which agent and, for the audit, in which
 * of its chat sessions when it said (SPEC §11.2) — "via Arquiteto, in session sess-42 (from the chat)".
 */
function AgentProvenance({ q }: { q: OpenQuestionView }) {
  const agent = html`<span class="agent">${agentName(q.viaAgente ?? '')}</span>`;
  // Pieces of the .meta line (a wrapping flex row); the comma stays with the agent's name.
  return q.agentSessionId
    ? html` ${t('panels.history.via')} <span>${agent},</span> ${t('panels.history.inSession')} <code class="session">${q.agentSessionId}</code> ${t('panels.history.fromChat')}`
    : html` ${t('panels.history.via')} ${agent} ${t('panels.history.fromChat')}`;
}

/**
 * SPEC §11.5 the session author replaces a decision an agent recorded from the chat (the agent
 * misread it) with their own answer. Closed: one quiet button; open: the answer and a confirm.
 * The same answer again is 200 (the amendment stands), so a retry after a lost reply is harmless.
 */
function AmendControl({
  q,
  projectId,
  onAmended,
}: {
  q: OpenQuestionView;
  projectId: string;
  onAmended: (outcome: CardOutcome) => void;
}) {
  return html`<${OneLineAction}
    id=${`amend-${q.questionId}`}
    className="amend"
    opener=${t('panels.amend.opener')}
    label=${t('panels.amend.label', { agent: agentName(q.viaAgente ?? '') })}
    maxLength=${MAX_ANSWER}
    emptyMessage=${t('panels.amend.empty', { max: formatNumber(MAX_ANSWER) })}
    submitLabel=${t('panels.amend.submit')}
    busyLabel=${t('panels.amend.busy')}
    send=${async (resposta: string) => {
      const reply = await api(projectPath(projectId, `/open-questions/${q.questionId}/amend`), {
        method: 'POST',
        body: { resposta },
      });
      onAmended({ question: q, reply });
    }}
    onError=${(e: PageError) => {
      if (e.reason === 'decisao_nao_e_de_agente') onAmended({ question: q, reply: null, gone: e });
    }}
  />`;
}

/** §11.5 an amended decision: who replaced it and when, and the agent's reading of the chat it replaced. */
function Amendment({ q, now }: { q: OpenQuestionView; now: number }) {
  const a = q.amendment!;
  return html`<p class="meta">
      ${t('panels.amend.by')} <strong>${a.by}</strong>
      <span class="sep" aria-hidden="true">·</span>
      <time datetime=${a.supersededAt} title=${fullDate(a.supersededAt)}>${ago(a.supersededAt, now)}</time>
    </p>
    <p class="amended">
      ${t('panels.amend.hadRecorded', { agent: agentName(a.supersededViaAgente), resposta: a.supersededResposta })}
    </p>`;
}

/** Who decided, how (click or an agent recording the chat answer), when, and what. */
export function HistoryPanel({
  list,
  now,
  projectId,
  onAmended,
}: {
  list: PagedList<OpenQuestionView>;
  now: number;
  projectId: string;
  onAmended: (outcome: CardOutcome) => void;
}) {
  const cut = list.items.length < list.total;
  return html`<section class="panel history" aria-labelledby="history-title">
    <div class="panel-head">
      <h2 id="history-title">
        ${t('panels.history.title')} <span class="count"><span class="visually-hidden">: </span>${list.total}</span>
      </h2>
      <p class="panel-sub">${t('panels.history.sub')}</p>
    </div>
    ${list.error && html`<${ErrorLine} error=${list.error} retry=${list.reload} />`}
    ${
      !list.items.length && !list.error
        ? html`<p class="empty">${list.loading ? t('ui.loading') : t('panels.history.empty')}</p>`
        : html`<ol class="decisions">
            ${list.items.map(
              (q) =>
                html`<li class="decision" key=${q.questionId} data-question-id=${q.questionId}>
                  <p class="decision-q">${q.pergunta}</p>
                  <p class="decision-a">
                    <span class="label">${t('panels.history.decision')}</span> ${q.resposta}
                    ${q.aceitouSugestao && html` <span class="tag">${t('panels.history.suggestionAccepted')}</span>`}
                    ${q.amendment && html` <span class="tag">${t('panels.history.amended')}</span>`}
                  </p>
                  ${
                    q.amendment
                      ? html`<${Amendment} q=${q} now=${now} />`
                      : html`<p class="meta">
                    ${
                      answeredByDelegate(q)
                        ? html`<${AnsweredFor} q=${q} />`
                        : html`${t('panels.history.answeredBy')} <strong>${q.respondidaPor}</strong>
                            ${q.viaAgente ? html`<${AgentProvenance} q=${q} />` : ` ${t('panels.history.byClick')}`}`
                    }
                    <span class="sep" aria-hidden="true">·</span>
                    <time datetime=${q.answeredAt} title=${fullDate(q.answeredAt)}>${ago(q.answeredAt, now)}</time>
                  </p>`
                  }
                  ${q.canAmend && html`<${AmendControl} q=${q} projectId=${projectId} onAmended=${onAmended} />`}
                </li>`,
            )}
          </ol>`
    }
    ${
      cut &&
      html`<p class="cut">
        ${t('panels.history.showing', { shown: formatNumber(list.items.length), count: list.total })}
        <button type="button" class="link" onClick=${list.loadMore} disabled=${list.more}>${t('ui.showMore')}</button>
      </p>`
    }
  </section>`;
}

/** SPEC §11.5 the questions withdrawn instead of answered: who, why, when (no decision came of them). */
export function WithdrawnPanel({ list, now }: { list: PagedList<OpenQuestionView>; now: number }) {
  if (!list.error && !list.items.length) return null;
  const cut = list.items.length < list.total;
  return html`<section class="panel withdrawn" aria-labelledby="withdrawn-title">
    <div class="panel-head">
      <h2 id="withdrawn-title">
        ${t('panels.withdrawn.title')} <span class="count"><span class="visually-hidden">: </span>${list.total}</span>
      </h2>
      <p class="panel-sub">${t('panels.withdrawn.sub')}</p>
    </div>
    ${list.error && html`<${ErrorLine} error=${list.error} retry=${list.reload} />`}
    <ol class="decisions">
      ${list.items.map(
        (q) =>
          html`<li class="decision withdrawn" key=${q.questionId} data-question-id=${q.questionId}>
            <p class="decision-q">${q.pergunta} <span class="tag">${t('panels.withdrawn.tag')}</span></p>
            <p class="decision-a"><span class="label">${t('panels.withdrawn.why')}</span> ${q.withdrawal?.motivo}</p>
            <p class="meta">
              ${t('panels.withdrawn.by')}
              <strong>${q.withdrawal?.by.kind === 'agent' ? agentName(q.withdrawal.by.id) : q.withdrawal?.by.id}</strong>
              <span class="sep" aria-hidden="true">·</span>
              <time datetime=${q.withdrawal?.withdrawnAt} title=${fullDate(q.withdrawal?.withdrawnAt)}
                >${ago(q.withdrawal?.withdrawnAt, now)}</time
              >
            </p>
          </li>`,
      )}
    </ol>
    ${
      cut &&
      html`<p class="cut">
        ${t('panels.withdrawn.showing', { shown: formatNumber(list.items.length), count: list.total })}
        <button type="button" class="link" onClick=${list.loadMore} disabled=${list.more}>${t('ui.showMore')}</button>
      </p>`
    }
  </section>`;
}
