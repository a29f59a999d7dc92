// The pipeline's freeze axis (SPEC §7, §11.3): which repos are frozen, by whom and why; a
// maintainer freezes and unfreezes here.
import { h } from 'preact';
import { useState } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath, type PageError } from './api';
import { formatNumber, t } from './i18n';
import { ago, fullDate, roleWithArticle, sentenceFor } from './messages';
import { ErrorLine, MAX_REASON } from './ui';
import { hasRole } from './vocabulary';
import type { PipelineQueueSnapshot, RepoFreezeView } from '@openq/contracts/browser';
import type { EventOn, SubmitEvent } from './dom';
import type { Resource } from './hooks';

const html = htm.bind(h);

const REPO_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `agent` is the engine's own freeze (`agent.repo.freeze`). */
const freezer = (by: string) => (by === 'agent' ? t('pipeline.theEngine') : by);

/** The freeze routes' refusals in this panel's words. */
function freezeSentence(error: PageError | null): string {
  if (error?.reason === 'corpo_invalido')
    return t('pipeline.errors.motivo', { max: formatNumber(MAX_REASON) });
  if (error?.reason === 'parametro_invalido') return t('pipeline.errors.repo');
  return sentenceFor(error);
}

function repoPath(projectId: string, repo: string): string {
  return projectPath(projectId, `/pipeline/repos/${encodeURIComponent(repo)}/freeze`);
}

/** What the pipeline panel tells the page: a sentence to announce (said again in a new language). */
type OnChanged = (sentence: () => string) => void;

function FrozenRepo({
  freeze,
  waiting,
  canFreeze,
  projectId,
  now,
  onChanged,
}: {
  freeze: RepoFreezeView;
  waiting: number;
  canFreeze: boolean;
  projectId: string;
  now: number;
  onChanged: OnChanged;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PageError | null>(null);
  const unfreeze = async () => {
    setBusy(true);
    setError(null);
    try {
      await api(repoPath(projectId, freeze.repo), { method: 'DELETE' });
      const repo = freeze.repo;
      onChanged(() => t('pipeline.unfrozen', { repo }));
    } catch (e) {
      setError(e as PageError);
    } finally {
      setBusy(false);
    }
  };
  const by = t('pipeline.frozenBy', { by: freezer(freeze.by) });
  return html`<li class="task frozen" data-repo=${freeze.repo}>
    <div class="frozen-head">
      <p class="task-title">
        <span class="task-id">${freeze.repo}</span>
        <span class="gate frozen-tag">${t('pipeline.frozen')}</span>
        <span class="muted">${by} <time datetime=${freeze.frozenAt} title=${fullDate(freeze.frozenAt)}>${ago(freeze.frozenAt, now)}</time></span>
      </p>
      ${
        canFreeze &&
        html`<button type="button" class="secondary" aria-busy=${busy} onClick=${unfreeze}>
          ${busy ? t('pipeline.unfreezing') : t('pipeline.unfreeze')}
        </button>`
      }
    </div>
    <p class="freeze-why">${freeze.motivo ? `“${freeze.motivo}”` : t('pipeline.noReason')}</p>
    <p class="task-sub">${waiting === 0 ? t('pipeline.noTaskWaits') : t('pipeline.tasksWait', { count: waiting })}</p>
    ${error && html`<p class="error" role="alert">${freezeSentence(error)}</p>`}
  </li>`;
}

function FreezeForm({
  projectId,
  repos,
  onChanged,
}: {
  projectId: string;
  repos: readonly string[];
  onChanged: OnChanged;
}) {
  const [repo, setRepo] = useState('');
  const [why, setWhy] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<PageError | null>(null);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const name = repo.trim();
    if (!REPO_ID.test(name)) return setError({ reason: 'parametro_invalido' });
    if (!why.trim()) return setError({ reason: 'corpo_invalido' });
    setBusy(true);
    setError(null);
    try {
      const reply = await api(repoPath(projectId, name), { method: 'POST', body: { motivo: why } });
      setRepo('');
      setWhy('');
      const by = reply.freeze?.by;
      onChanged(() =>
        reply.changed
          ? t('pipeline.frozenNow', { repo: name })
          : t('pipeline.alreadyFrozen', { repo: name, by: freezer(by) }),
      );
    } catch (e) {
      setError(e as PageError);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="freeze-form" onSubmit=${submit} aria-describedby=${error ? 'freeze-error' : undefined}>
    <h3 class="subhead">${t('pipeline.form.title')}</h3>
    <div class="freeze-fields">
      <label for="freeze-repo">${t('pipeline.form.repo')}</label>
      <input id="freeze-repo" list="freeze-repos" autocomplete="off" maxlength="64" value=${repo} onInput=${(e: EventOn) => setRepo(e.currentTarget.value)} />
      <datalist id="freeze-repos">${repos.map((r) => html`<option value=${r} />`)}</datalist>
      <label for="freeze-motivo">${t('pipeline.form.why')}</label>
      <input id="freeze-motivo" autocomplete="off" maxlength=${MAX_REASON} value=${why} onInput=${(e: EventOn) => setWhy(e.currentTarget.value)} />
    </div>
    <button type="submit" class="primary" aria-busy=${busy}>${busy ? t('pipeline.form.freezing') : t('pipeline.form.freeze')}</button>
    ${error && html`<p class="error" role="alert" id="freeze-error">${freezeSentence(error)}</p>`}
  </form>`;
}

/** Frozen repos (who, why, since when, what waits), and the freeze door for maintainers. */
export function PipelinePanel({
  pipeline,
  role,
  projectId,
  now,
  onChanged,
}: {
  pipeline: Resource<PipelineQueueSnapshot>;
  role: string | null;
  projectId: string;
  now: number;
  onChanged: OnChanged;
}) {
  const freezes = pipeline.data?.freezes ?? [];
  const tasks = pipeline.data?.tasks ?? [];
  const known = new Set(freezes.map((f) => f.repo));
  // The freeze list could not be read: the gate fails closed and counts every repo as frozen.
  const unreadable = (pipeline.data?.frozenRepos ?? []).filter((r) => !known.has(r));
  const canFreeze = hasRole(role, 'maintainer');
  const repos = [...new Set(tasks.map((t) => t.repo))].filter((r) => !known.has(r)).sort();
  const waitingOn = (repo: string) =>
    tasks.filter((t) => t.repo === repo && t.blockingReason === 'freeze').length;
  return html`<section class="panel pipeline" aria-labelledby="pipeline-title">
    <div class="panel-head">
      <h2 id="pipeline-title">
        ${t('pipeline.title')}
        ${pipeline.data && html`<span class="count"><span class="visually-hidden">: </span>${freezes.length}</span>`}
      </h2>
      <p class="panel-sub">${t('pipeline.sub')}</p>
    </div>
    ${pipeline.error && html`<${ErrorLine} error=${pipeline.error} retry=${pipeline.reload} />`}
    ${
      !pipeline.data && !pipeline.error
        ? html`<p class="empty" role="status">${t('ui.loading')}</p>`
        : freezes.length === 0
          ? pipeline.data && html`<p class="empty">${t('pipeline.empty')}</p>`
          : html`<ul class="tasks">
              ${freezes.map(
                (f) =>
                  html`<${FrozenRepo}
                    key=${f.repo}
                    freeze=${f}
                    waiting=${waitingOn(f.repo)}
                    canFreeze=${canFreeze}
                    projectId=${projectId}
                    now=${now}
                    onChanged=${onChanged}
                  />`,
              )}
            </ul>`
    }
    ${
      unreadable.length > 0 &&
      html`<p class="error" role="alert">${t('pipeline.unreadable', { repos: unreadable.join(', ') })}</p>`
    }
    ${
      canFreeze
        ? pipeline.data &&
          html`<${FreezeForm} projectId=${projectId} repos=${repos} onChanged=${onChanged} />`
        : pipeline.data &&
          html`<p class="freeze-note"><span class="icon" aria-hidden="true">i</span>${t('pipeline.needsRole', { role: roleWithArticle(role) })}</p>`
    }
  </section>`;
}
