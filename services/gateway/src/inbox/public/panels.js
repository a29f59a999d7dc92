// Readiness (warns, never blocks), "Waiting for you" (parked gates), and the answered history.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath } from './api.js';
import { agentName, ago, fullDate, plural, roleName, sentenceFor, withArticle } from './messages.js';
import { ErrorLine, MAX_ANSWER, OneLineAction } from './ui.js';
import { gateName, OverrideResume } from './gates.js';
import { AnsweredFor, answeredByDelegate } from './delegation.js';

const html = htm.bind(h);

const ACTIONS = [
  ['im_ready', "I'm ready"],
  ['confirm_architecture_ready', 'Confirm architecture ready'],
];

/** "N questions are still open — answer", with "answer" as the way to the queue. */
function Notice({ notice, onGoToQueue }) {
  const tail = 'answer';
  const lead = notice.endsWith(tail) ? notice.slice(0, -tail.length) : `${notice} `;
  return html`<p class="notice">
    <span class="icon" aria-hidden="true">!</span>
    <span>${lead}<a href="#open-questions" onClick=${onGoToQueue}>${tail}</a></span>
  </p>`;
}

/**
 * The two readiness buttons with the open-question notice next to them (ADR 0214 §5). The
 * buttons never wait on the notice: a click checks readiness for that action, says so, and
 * tells an embedding page through an `openq:readiness` DOM event (openq itself records no
 * readiness — the engine owns those gestures).
 */
export function ReadinessBar({ readiness, projectId, onGoToQueue }) {
  const [checked, setChecked] = useState(null);
  const check = async (action, label) => {
    try {
      const reply = await api(projectPath(projectId, `/readiness/${action}`));
      readiness.set(reply);
      setChecked(
        reply.openQuestions
          ? `“${label}” goes ahead — open questions never block it.`
          : `“${label}” goes ahead — no question is open.`,
      );
      window.dispatchEvent(new CustomEvent('openq:readiness', { detail: { projectId, ...reply } }));
    } catch (error) {
      setChecked(sentenceFor(error));
    }
  };
  const notice = readiness.data?.notice;
  return html`<section class="readiness" aria-label="Readiness">
    <div class="readiness-buttons">
      ${ACTIONS.map(
        ([action, label]) =>
          html`<button type="button" class="secondary" onClick=${() => check(action, label)}>
            ${label}
          </button>`,
      )}
    </div>
    <div class="readiness-state" aria-live="polite">
      ${
        notice
          ? html`<${Notice} notice=${notice} onGoToQueue=${onGoToQueue} />`
          : readiness.data
            ? html`<p class="notice ok"><span class="icon" aria-hidden="true">✓</span>No open questions.</p>`
            : readiness.error
              ? html`<${ErrorLine} error=${readiness.error} retry=${readiness.reload} />`
              : null
      }
    </div>
    ${checked && html`<p class="checked" role="status">${checked}</p>`}
  </section>`;
}

/** A parked gate's questions, linked to their card in the queue when it is on screen. */
function WaitingQuestions({ ids, questionsById, onGoToQuestion }) {
  return html`<ul class="task-questions">
    ${ids.map((id) => {
      const q = questionsById.get(id);
      return html`<li key=${id}>
        ${
          q
            ? html`<a href=${`#q-${id}`} onClick=${(e) => onGoToQuestion(e, id)}>${q.pergunta}</a>
                <span class="muted"> — ${q.sessionAuthorId} decides</span>`
            : html`<span class="muted">A question further down the queue</span>`
        }
      </li>`;
    })}
  </ul>`;
}

function ResumeButton({ cycle, projectId, allowed, reasonId, onResumed }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
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
      setError(e);
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
      ${busy ? 'Resuming…' : 'Resume gate'}
    </button>
    ${error && html`<p class="error" role="alert">${sentenceFor(error)}</p>`}
  </div>`;
}

/** htm trims text at line breaks, so sentences with a value inside are built whole. */
function resumesWhen(n) {
  return `Resumes by itself once ${n === 1 ? 'this question is' : `these ${n} questions are`} answered:`;
}

const ROLE_ORDER = ['viewer', 'developer', 'maintainer', 'owner'];

/** Tasks whose gate is parked: on a decision of yours (with its questions), or idle (resume by hand). */
export function WaitingPanel({ waiting, role, projectId, questionsById, now, onGoToQuestion, onResumed }) {
  const items = waiting.data?.items ?? [];
  const decisions = items.filter((c) => c.parkedReason === 'user_decision');
  const idle = items.filter((c) => c.parkedReason === 'idle');
  const total = waiting.data?.total ?? items.length;
  const canResume = ROLE_ORDER.indexOf(role) >= ROLE_ORDER.indexOf('developer');
  const canOverride = ROLE_ORDER.indexOf(role) >= ROLE_ORDER.indexOf('maintainer');
  return html`<section class="panel waiting" aria-labelledby="waiting-title">
    <div class="panel-head">
      <h2 id="waiting-title">
        Waiting for you
        ${waiting.data && html`<span class="count"><span class="visually-hidden">: </span>${decisions.length}</span>`}
      </h2>
      <p class="panel-sub">Gates parked until a decision is made</p>
    </div>
    ${waiting.error && html`<${ErrorLine} error=${waiting.error} retry=${waiting.reload} />`}
    ${
      !waiting.data && !waiting.error
        ? html`<p class="empty" role="status">Loading…</p>`
        : decisions.length === 0
          ? waiting.data && html`<p class="empty">No task is waiting on a decision.</p>`
          : html`${!canOverride && html`<p class="inert-note" id="override-reason"><span class="icon" aria-hidden="true">i</span>Resuming a gate without the answer needs the maintainer role on this project; you are ${withArticle(roleName(role))}.</p>`}
            <ul class="tasks">
              ${decisions.map(
                (c) =>
                  html`<li class="task" key=${`${c.taskId}/${c.gate}`} data-task-id=${c.taskId}>
                    <p class="task-title">
                      <span class="task-id">${c.taskId}</span>
                      <span class="gate">${gateName(c.gate)}</span>
                      <span class="muted">parked <time datetime=${c.updatedAt} title=${fullDate(c.updatedAt)}>${ago(c.updatedAt, now)}</time></span>
                    </p>
                    <p class="task-sub">${resumesWhen(c.questionIds.length)}</p>
                    <${WaitingQuestions}
                      ids=${c.questionIds}
                      questionsById=${questionsById}
                      onGoToQuestion=${onGoToQuestion}
                    />
                    <${OverrideResume}
                      cycle=${c}
                      projectId=${projectId}
                      allowed=${canOverride}
                      reasonId="override-reason"
                      onResumed=${onResumed}
                    />
                  </li>`,
              )}
            </ul>`
    }
    ${
      idle.length > 0 &&
      html`<h3 class="subhead">Parked for inactivity <span class="count small">${idle.length}</span></h3>
        ${!canResume && html`<p class="inert-note" id="resume-reason"><span class="icon" aria-hidden="true">i</span>Resuming a gate needs the developer role on this project; you are ${withArticle(roleName(role))}.</p>`}
        <ul class="tasks">
          ${idle.map(
            (c) =>
              html`<li class="task idle" key=${`${c.taskId}/${c.gate}`} data-task-id=${c.taskId}>
                <p class="task-title">
                  <span class="task-id">${c.taskId}</span>
                  <span class="gate">${gateName(c.gate)}</span>
                  <span class="muted">parked <time datetime=${c.updatedAt} title=${fullDate(c.updatedAt)}>${ago(c.updatedAt, now)}</time></span>
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
    ${items.length < total && html`<p class="cut">Showing ${items.length} of ${plural(total, 'parked gate')}.</p>`}
  </section>`;
}

/**
 * How an agent recorded the user's chat answer (ADR 0258): which agent and, for the audit, in which
 * of its chat sessions when it said (SPEC §11.2) — "via Arquiteto, in session sess-42 (from the chat)".
 */
function AgentProvenance({ q }) {
  const agent = html`<span class="agent">${agentName(q.viaAgente)}</span>`;
  // Pieces of the .meta line (a wrapping flex row); the comma stays with the agent's name.
  return q.agentSessionId
    ? html` via <span>${agent},</span> in session <code class="session">${q.agentSessionId}</code> (from the chat)`
    : html` via ${agent} (from the chat)`;
}

/**
 * SPEC §11.5 the session author replaces a decision an agent recorded from the chat (the agent
 * misread it) with their own answer. Closed: one quiet button; open: the answer and a confirm.
 * The same answer again is 200 (the amendment stands), so a retry after a lost reply is harmless.
 */
function AmendControl({ q, projectId, onAmended }) {
  return html`<${OneLineAction}
    id=${`amend-${q.questionId}`}
    className="amend"
    opener="Amend…"
    label=${`Your answer instead of ${agentName(q.viaAgente)}’s`}
    maxLength=${MAX_ANSWER}
    emptyMessage=${`Write your answer (1 to ${MAX_ANSWER.toLocaleString('en')} characters)`}
    submitLabel="Replace decision"
    busyLabel="Saving…"
    send=${async (resposta) => {
      const reply = await api(projectPath(projectId, `/open-questions/${q.questionId}/amend`), {
        method: 'POST',
        body: { resposta },
      });
      onAmended({ question: q, reply });
    }}
    onError=${(e) => {
      if (e.reason === 'decisao_nao_e_de_agente') onAmended({ question: q, reply: null, gone: e });
    }}
  />`;
}

/** §11.5 an amended decision: who replaced it and when, and the agent's reading of the chat it replaced. */
function Amendment({ q, now }) {
  const a = q.amendment;
  return html`<p class="meta">
      Amended by <strong>${a.by}</strong>
      <span class="sep" aria-hidden="true">·</span>
      <time datetime=${a.supersededAt} title=${fullDate(a.supersededAt)}>${ago(a.supersededAt, now)}</time>
    </p>
    <p class="amended">${`${agentName(a.supersededViaAgente)} had recorded “${a.supersededResposta}” from the chat.`}</p>`;
}

/** Who decided, how (click or an agent recording the chat answer), when, and what. */
export function HistoryPanel({ list, now, projectId, onAmended }) {
  const cut = list.items.length < list.total;
  return html`<section class="panel history" aria-labelledby="history-title">
    <div class="panel-head">
      <h2 id="history-title">
        Answered <span class="count"><span class="visually-hidden">: </span>${list.total}</span>
      </h2>
      <p class="panel-sub">Decisions, in the order the questions were asked</p>
    </div>
    ${list.error && html`<${ErrorLine} error=${list.error} retry=${list.reload} />`}
    ${
      !list.items.length && !list.error
        ? html`<p class="empty">${list.loading ? 'Loading…' : 'No question has been answered yet.'}</p>`
        : html`<ol class="decisions">
            ${list.items.map(
              (q) =>
                html`<li class="decision" key=${q.questionId} data-question-id=${q.questionId}>
                  <p class="decision-q">${q.pergunta}</p>
                  <p class="decision-a">
                    <span class="label">Decision</span> ${q.resposta}
                    ${q.aceitouSugestao && html` <span class="tag">suggestion accepted</span>`}
                    ${q.amendment && html` <span class="tag">amended</span>`}
                  </p>
                  ${
                    q.amendment
                      ? html`<${Amendment} q=${q} now=${now} />`
                      : html`<p class="meta">
                    ${
                      answeredByDelegate(q)
                        ? html`<${AnsweredFor} q=${q} />`
                        : html`Answered by <strong>${q.respondidaPor}</strong>
                            ${q.viaAgente ? html`<${AgentProvenance} q=${q} />` : ' by click'}`
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
        Showing ${list.items.length} of ${plural(list.total, 'answered question')}.
        <button type="button" class="link" onClick=${list.loadMore} disabled=${list.more}>Show more</button>
      </p>`
    }
  </section>`;
}

/** SPEC §11.5 the questions withdrawn instead of answered: who, why, when (no decision came of them). */
export function WithdrawnPanel({ list, now }) {
  if (!list.error && !list.items.length) return null;
  const cut = list.items.length < list.total;
  return html`<section class="panel withdrawn" aria-labelledby="withdrawn-title">
    <div class="panel-head">
      <h2 id="withdrawn-title">
        Withdrawn <span class="count"><span class="visually-hidden">: </span>${list.total}</span>
      </h2>
      <p class="panel-sub">Questions that no longer need an answer — no decision was recorded</p>
    </div>
    ${list.error && html`<${ErrorLine} error=${list.error} retry=${list.reload} />`}
    <ol class="decisions">
      ${list.items.map(
        (q) =>
          html`<li class="decision withdrawn" key=${q.questionId} data-question-id=${q.questionId}>
            <p class="decision-q">${q.pergunta} <span class="tag">withdrawn</span></p>
            <p class="decision-a"><span class="label">Why</span> ${q.withdrawal?.motivo}</p>
            <p class="meta">
              Withdrawn by
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
        Showing ${list.items.length} of ${plural(list.total, 'withdrawn question')}.
        <button type="button" class="link" onClick=${list.loadMore} disabled=${list.more}>Show more</button>
      </p>`
    }
  </section>`;
}
