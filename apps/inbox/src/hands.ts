// Issue #18 fast hands on the queue: tick several cards and accept their suggestions in one go
// (a result per question, partial success said as such), and each card's details.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import htm from 'htm';
import { api, newIdempotencyKey, projectPath, type PageError } from './api';
import type { AcceptSuggestionResult as BulkResult, OpenQuestionView } from '@openq/contracts/browser';
import { t } from './i18n';
import { fullDate, sentenceFor } from './messages';
import { clearSelection, selectable, toggleSelected, useSelection } from './selection';
import type { EventOn } from './dom';

const html = htm.bind(h);

/** The card's tick for "Accept suggestions" (only where the suggestion can be accepted). */
export function SelectBox({ q }: { q: OpenQuestionView }) {
  const ids = useSelection();
  if (!selectable(q)) return null;
  const id = `sel-${q.questionId}`;
  return html`<label class="select" for=${id}>
    <input
      id=${id}
      type="checkbox"
      checked=${ids.has(q.questionId)}
      onChange=${(e: EventOn) => toggleSelected(q.questionId, e.currentTarget.checked)}
    />
    <span>${t('hands.select')}</span>
    <span class="visually-hidden">: ${q.pergunta}</span>
  </label>`;
}

/** What is known about the question beyond its text (opened with `o` or Enter on the card). */
export function CardDetails({ q }: { q: OpenQuestionView }) {
  return html`<details class="card-details">
    <summary>${t('hands.details.title')}</summary>
    <dl>
      <dt>${t('hands.details.asked')}</dt>
      <dd><time datetime=${q.declaredAt}>${fullDate(q.declaredAt)}</time></dd>
      <dt>${t('hands.details.session')}</dt>
      <dd>${q.sessionId} · ${q.sessionAuthorId}</dd>
      <dt>${t('hands.details.question')}</dt>
      <dd><code>${q.questionId}</code></dd>
    </dl>
  </details>`;
}

const WORDS = {
  answered: 'hands.result.answered',
  already_answered: 'hands.result.alreadyAnswered',
  refused: 'hands.result.refused',
};

/** One question's result, in words: answered, answered before, or not answered and why. */
function ResultLine({ result, pergunta }: { result: BulkResult; pergunta: string | undefined }) {
  const why = result.status === 'refused' ? sentenceFor(result) : null;
  return html`<li class=${`result result-${result.status}`} data-question-id=${result.questionId}>
    <span class="icon" aria-hidden="true">${result.status === 'answered' ? '✓' : result.status === 'refused' ? '✕' : '–'}</span>
    <span>
      <strong>${t(WORDS[result.status])}</strong> ${pergunta ?? result.questionId}
      ${why && html`<span class="why">${why}</span>`}
    </span>
  </li>`;
}

/**
 * The bar "Accept N suggestions" over the ticked cards, and what came of the last run. A run
 * sent again after a failure (lost reply) carries the same Idempotency-Key: the server answers
 * nothing twice. `onDone(summary)` lets the page reload its lists and announce.
 */
export function BulkAccept({
  projectId,
  items,
  onDone,
}: {
  projectId: string | null;
  items: readonly OpenQuestionView[];
  /** `summary` says the outcome in the language of the moment (it is said again after a switch). */
  onDone: (summary: () => string) => void;
}) {
  const ids = useSelection();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PageError | null>(null);
  const [outcome, setOutcome] = useState<{ summary: () => string; results: BulkResult[] } | null>(null);
  const attempt = useRef<{ json: string; keys: Map<string, string> } | null>(null);
  const chosen = items.filter((q: OpenQuestionView) => ids.has(q.questionId) && selectable(q));
  const texts = useRef(new Map());
  const heading = useRef<HTMLHeadingElement>(null);
  // The results take the focus (and the view): what happened is read first.
  useEffect(() => {
    if (!outcome) return;
    heading.current?.scrollIntoView({ block: 'nearest' });
    heading.current?.focus({ preventScroll: true });
  }, [outcome]);

  const run = async () => {
    if (busy || chosen.length === 0) return;
    for (const q of chosen) texts.current.set(q.questionId, q.pergunta);
    // One request per project (the all-projects view mixes them), each with its own key.
    const byProject = new Map();
    for (const q of chosen) {
      const project = q.projectId ?? projectId;
      byProject.set(project, [...(byProject.get(project) ?? []), q.questionId]);
    }
    const json = JSON.stringify([...byProject]);
    if (attempt.current?.json !== json) {
      attempt.current = { json, keys: new Map([...byProject.keys()].map((p) => [p, newIdempotencyKey()])) };
    }
    setBusy(true);
    setError(null);
    const results: BulkResult[] = [];
    let failure: PageError | null = null;
    for (const [project, ids] of byProject) {
      try {
        const reply = await api(projectPath(project, '/open-questions/accept-suggestions'), {
          method: 'POST',
          body: { questionIds: ids },
          headers: { 'idempotency-key': attempt.current.keys.get(project)! },
        });
        results.push(...reply.results);
        clearSelection(ids);
      } catch (e) {
        failure = e as PageError;
      }
    }
    if (!failure) attempt.current = null;
    setError(failure);
    if (results.length > 0) {
      const answered = results.filter((r) => r.status === 'answered').length;
      // Said when shown, not now: a switch of language says it again in the new one.
      const summary = () => t('hands.summary', { count: results.length, answered });
      setOutcome({ results, summary });
      onDone?.(summary);
    }
    setBusy(false);
  };

  return html`<div class="bulk">
    ${
      chosen.length > 0 &&
      html`<div class="bulk-bar" role="region" aria-label=${t('hands.bar')}>
        <span class="bulk-count">${t('hands.selected', { count: chosen.length })}</span>
        <button type="button" class="primary" onClick=${run} aria-busy=${busy}>
          ${busy ? t('hands.accepting') : t('hands.accept', { count: chosen.length })}
        </button>
        <button type="button" class="link" onClick=${() => clearSelection()}>${t('hands.clear')}</button>
      </div>`
    }
    ${error && html`<p class="error" role="alert">${sentenceFor(error)}</p>`}
    ${
      outcome &&
      html`<section class="bulk-results" aria-labelledby="bulk-results-title">
        <h2 id="bulk-results-title" tabindex="-1" ref=${heading}>${outcome.summary()}</h2>
        <ul>
          ${outcome.results.map(
            (r) =>
              html`<${ResultLine} key=${r.questionId} result=${r} pergunta=${texts.current.get(r.questionId)} />`,
          )}
        </ul>
        <button type="button" class="link" onClick=${() => setOutcome(null)}>${t('hands.dismiss')}</button>
      </section>`
    }
  </div>`;
}
