// The operator's way out of a decision park (SPEC §11.1) and the gates' history.
import { h } from 'preact';
import { useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath } from './api.js';
import { ago, fullDate, plural, sentenceFor } from './messages.js';
import { ErrorLine, MAX_REASON } from './ui.js';

const html = htm.bind(h);

const GATE_NAMES = { qa: 'QA gate', secops: 'SecOps gate' };
export const gateName = (gate) => GATE_NAMES[gate] ?? `${gate} gate`;

/**
 * "Resume without the answer" on a gate parked on a decision: a maintainer (or owner) writes
 * why, and the gate runs again while its questions stay open. For anyone else the button is
 * inert and the reason is said once, above the list (`reasonId`).
 */
export function OverrideResume({ cycle, projectId, allowed, reasonId, onResumed }) {
  const [open, setOpen] = useState(false);
  const [why, setWhy] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const field = useRef(null);
  const id = `override-${cycle.taskId}-${cycle.gate}`;

  const show = () => {
    setOpen(true);
    setError(null);
    setTimeout(() => field.current?.focus(), 0);
  };
  const submit = async (event) => {
    event.preventDefault();
    if (!why.trim()) {
      setError({ reason: 'motivo_invalido' });
      field.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api(
        projectPath(projectId, `/tasks/${encodeURIComponent(cycle.taskId)}/gates/${cycle.gate}/resume`),
        { method: 'POST', body: { override: true, motivo: why } },
      );
      onResumed(cycle, { override: true });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  if (!open) {
    return html`<div class="override">
      <button
        type="button"
        class="secondary"
        disabled=${!allowed}
        aria-describedby=${allowed ? undefined : reasonId}
        onClick=${show}
      >
        Resume without the answer…
      </button>
    </div>`;
  }
  return html`<form class="override open" onSubmit=${submit} aria-label=${`Resume ${cycle.taskId} without the answer`}>
    <label for=${id}>Why resume without the answer? <span class="muted">(required — shown in the gate's history)</span></label>
    <textarea
      id=${id}
      ref=${field}
      rows="3"
      required
      maxlength=${MAX_REASON}
      value=${why}
      aria-invalid=${error?.reason === 'motivo_invalido'}
      onInput=${(e) => {
        setWhy(e.currentTarget.value);
        if (error?.reason === 'motivo_invalido') setError(null);
      }}
    ></textarea>
    <p class="hint">The questions stay open: answering them later will not resume the gate again.</p>
    <div class="row">
      <button type="submit" class="primary" aria-busy=${busy} disabled=${busy}>
        ${busy ? 'Resuming…' : 'Resume without the answer'}
      </button>
      <button type="button" class="link" onClick=${() => setOpen(false)}>Cancel</button>
    </div>
    ${error && html`<p class="error" role="alert">${sentenceFor(error)}</p>`}
  </form>`;
}

const VERDICTS = {
  approved: 'approved',
  changes_requested: 'changes requested',
  blocked: 'blocked',
  needs_user_decision: 'needs a user decision',
};

/** One history entry in words; htm trims text at line breaks, so each sentence is built whole. */
function describe(entry) {
  const d = entry.data;
  switch (entry.type) {
    case 'gate.resumed':
      if (d.trigger === 'override')
        return { what: `Resumed by override — ${d.by}: `, why: d.motivo, kind: 'override' };
      if (d.trigger === 'answer')
        return { what: 'Resumed: every question it waited on is answered.', kind: 'resumed' };
      return { what: 'Resumed by hand after parking for inactivity.', kind: 'resumed' };
    case 'gate.rescue_parked':
      return d.reason === 'user_decision'
        ? {
            what: `Parked: waiting on ${plural(d.questionIds.length, 'question')} for a decision.`,
            kind: 'parked',
          }
        : { what: 'Parked for inactivity.', kind: 'parked' };
    case 'gate.verdict_recorded':
      return {
        what: `Verdict: ${VERDICTS[d.veredito] ?? d.veredito} (corrections ${d.correctionCount} of ${d.maxCorrections}).`,
        kind: 'verdict',
      };
    case 'gate.redispatch_requested':
      return {
        what: `No activity for ${Math.round(d.idadeSegundos / 60)} min: asked the engine to run it again.`,
        kind: 'verdict',
      };
    case 'gate.verdict_rejected':
      return {
        what: `Verdict refused: it cited question ${d.questionId}, which is not in this project. The gate keeps running.`,
        kind: 'rejected',
      };
    default:
      return { what: entry.type, kind: 'verdict' };
  }
}

/** The project's gate history, newest first: verdicts, parks and resumes — an override with who and why. */
export function GateHistoryPanel({ history, now }) {
  const items = history.data?.items ?? [];
  const total = history.data?.total ?? items.length;
  return html`<section class="panel gate-history" aria-labelledby="gate-history-title">
    <div class="panel-head">
      <h2 id="gate-history-title">Gate history</h2>
      <p class="panel-sub">What happened to the gates, newest first</p>
    </div>
    ${history.error && html`<${ErrorLine} error=${history.error} retry=${history.reload} />`}
    ${
      !history.data && !history.error
        ? html`<p class="empty" role="status">Loading…</p>`
        : items.length === 0
          ? history.data && html`<p class="empty">No gate has run yet.</p>`
          : html`<ol class="events">
              ${items.map((e, i) => {
                const { what, why, kind } = describe(e);
                return html`<li class=${`event ${kind}`} key=${`${e.occurredAt}-${i}`} data-task-id=${e.taskId}>
                  <p class="task-title">
                    <span class="task-id">${e.taskId}</span>
                    <span class="gate">${gateName(e.gate)}</span>
                    <span class="muted"><time datetime=${e.occurredAt} title=${fullDate(e.occurredAt)}>${ago(e.occurredAt, now)}</time></span>
                  </p>
                  <p class="event-what">${what}${why && html`<q class="why">${why}</q>`}</p>
                </li>`;
              })}
            </ol>`
    }
    ${items.length < total && html`<p class="cut">Showing ${items.length} of ${plural(total, 'gate event')}.</p>`}
  </section>`;
}
