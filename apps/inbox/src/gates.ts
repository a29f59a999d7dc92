// The operator's way out of a decision park (SPEC §11.1) and the gates' history.
import { h } from 'preact';
import { useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath, type PageError } from './api';
import { useKeptState } from './hooks';
import { formatNumber, t } from './i18n';
import { ago, fullDate, sentenceFor } from './messages';
import { ErrorLine, MAX_REASON } from './ui';
import { GATES, VEREDITOS } from '@openq/contracts/browser';
import { isOneOf } from './vocabulary';
import type { GateHistoryEntry, GateHistoryReply, WaitingGateView } from '@openq/contracts/browser';
import type { EventOn, SubmitEvent } from './dom';
import type { Resource } from './hooks';

const html = htm.bind(h);

/** `qa` → "QA gate" / "gate de QA"; a kind the page does not know yet keeps its code. */
export const gateName = (gate: string | undefined): string =>
  isOneOf(GATES, gate) ? t(`gates.names.${gate}`) : t('gates.names.other', { gate });

/**
 * "Resume without the answer" on a gate parked on a decision: a maintainer (or owner) writes
 * why, and the gate runs again while its questions stay open. For anyone else the button is
 * inert and the reason is said once, above the list (`reasonId`).
 */
export function OverrideResume({
  cycle,
  projectId,
  allowed,
  reasonId,
  onResumed,
}: {
  cycle: WaitingGateView;
  projectId: string;
  allowed: boolean;
  reasonId?: string | null;
  onResumed: (cycle: WaitingGateView, how: { override: boolean }) => void;
}) {
  // Kept across a remount (the panel changes column at the phone breakpoint), per parked cycle.
  const parked = `${cycle.taskId}/${cycle.gate}/${cycle.updatedAt}`;
  const [open, setOpen] = useKeptState(`override-open:${parked}`, false);
  const [why, setWhy] = useKeptState(`override-why:${parked}`, '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PageError | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const id = `override-${cycle.taskId}-${cycle.gate}`;

  const show = () => {
    setOpen(true);
    setError(null);
    setTimeout(() => field.current?.focus(), 0);
  };
  const submit = async (event: SubmitEvent) => {
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
      setError(e as PageError);
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
        ${t('gates.override.opener')}
      </button>
    </div>`;
  }
  return html`<form class="override open" onSubmit=${submit} aria-label=${t('gates.override.formLabel', { taskId: cycle.taskId })}>
    <label for=${id}>${t('gates.override.why')} <span class="muted">${t('gates.override.whyHint')}</span></label>
    <textarea
      id=${id}
      ref=${field}
      rows="3"
      required
      maxlength=${MAX_REASON}
      value=${why}
      aria-invalid=${error?.reason === 'motivo_invalido'}
      onInput=${(e: EventOn<HTMLTextAreaElement>) => {
        setWhy(e.currentTarget.value);
        if (error?.reason === 'motivo_invalido') setError(null);
      }}
    ></textarea>
    <p class="hint">${t('gates.override.hint')}</p>
    <div class="row">
      <button type="submit" class="primary" aria-busy=${busy} disabled=${busy}>
        ${busy ? t('panels.waiting.resuming') : t('gates.override.submit')}
      </button>
      <button type="button" class="link" onClick=${() => setOpen(false)}>${t('ui.cancel')}</button>
    </div>
    ${error && html`<p class="error" role="alert">${sentenceFor(error)}</p>`}
  </form>`;
}

const verdictName = (v: string): string => (isOneOf(VEREDITOS, v) ? t(`gates.verdicts.${v}`) : v);

/** One history entry in words; htm trims text at line breaks, so each sentence is built whole. */
function describe(entry: GateHistoryEntry): { what: string; why?: string; kind: string } {
  switch (entry.type) {
    case 'gate.resumed':
      if (entry.data.trigger === 'override')
        return {
          what: `${t('gates.history.override', { by: entry.data.by })} `,
          why: entry.data.motivo,
          kind: 'override',
        };
      if (entry.data.trigger === 'answer')
        return { what: t('gates.history.resumedAnswered'), kind: 'resumed' };
      if (entry.data.trigger === 'withdrawn')
        return { what: t('gates.history.resumedWithdrawn'), kind: 'resumed' };
      return { what: t('gates.history.resumedByHand'), kind: 'resumed' };
    case 'gate.rescue_parked':
      return entry.data.reason === 'user_decision'
        ? {
            what: t('gates.history.parkedDecision', { count: entry.data.questionIds.length }),
            kind: 'parked',
          }
        : { what: t('gates.history.parkedIdle'), kind: 'parked' };
    case 'gate.verdict_recorded':
      return {
        what: t('gates.history.verdict', {
          verdict: verdictName(entry.data.veredito),
          corrections: formatNumber(entry.data.correctionCount),
          max: formatNumber(entry.data.maxCorrections),
        }),
        kind: 'verdict',
      };
    case 'gate.redispatch_requested':
      return {
        what: t('gates.history.redispatch', {
          minutes: formatNumber(Math.round(entry.data.idadeSegundos / 60)),
        }),
        kind: 'verdict',
      };
    case 'gate.verdict_rejected':
      return {
        what: t('gates.history.rejected', { questionId: entry.data.questionId }),
        kind: 'rejected',
      };
    default:
      return { what: (entry as { type: string }).type, kind: 'verdict' };
  }
}

/** The project's gate history, newest first: verdicts, parks and resumes — an override with who and why. */
export function GateHistoryPanel({ history, now }: { history: Resource<GateHistoryReply>; now: number }) {
  const items = history.data?.items ?? [];
  const total = history.data?.total ?? items.length;
  return html`<section class="panel gate-history" aria-labelledby="gate-history-title">
    <div class="panel-head">
      <h2 id="gate-history-title">${t('gates.history.title')}</h2>
      <p class="panel-sub">${t('gates.history.sub')}</p>
    </div>
    ${history.error && html`<${ErrorLine} error=${history.error} retry=${history.reload} />`}
    ${
      !history.data && !history.error
        ? html`<p class="empty" role="status">${t('ui.loading')}</p>`
        : items.length === 0
          ? history.data && html`<p class="empty">${t('gates.history.empty')}</p>`
          : html`<ol class="events">
              ${items.map((e: GateHistoryEntry, i: number) => {
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
    ${items.length < total && html`<p class="cut">${t('gates.history.showing', { shown: formatNumber(items.length), count: total })}</p>`}
  </section>`;
}
