// Issue #30 settings: the language of what openq sends — e-mails, Slack messages, digests, one-tap
// pages. The person's own (`GET/PUT /me/language`, on every project; the header's switch sets it
// too) wins; else the project's (`GET/PUT /projects/:p/language`, set by a maintainer or an
// owner); else English. Everyone reads both in words; only a maintainer or an owner changes the
// project's (the others see its control disabled; the server refuses them anyway).
import { h } from 'preact';
import { useEffect } from 'preact/hooks';
import htm from 'htm';
import { api, projectPath } from './api';
import { canSetClock } from './settings-clock';
import { useDraft, useResource } from './hooks';
import { LANGUAGES, t } from './i18n';
import { sentenceFor } from './messages';
import { keepMyLanguage, onMyLanguageKept } from './my-language';
import { ErrorLine, useSave } from './ui';
import { isLanguage, type Language, type LanguageView } from '@openq/contracts/browser';
import type { EventOn, SubmitEvent } from './dom';
import type { Me } from './hooks';

const html = htm.bind(h);

/** openq's language when neither the person nor the project chose one. */
const DEFAULT_LANGUAGE: Language = 'en';

/** A language's name in the page's language ("Portuguese (Brazil)" / "Português (Brasil)"). */
const nameOf = (code: Language): string => t(`language.names.${code}`);

/** A select's value: a language, or '' for none. */
const choiceOf = (language: Language | null | undefined): string => language ?? '';
const languageOf = (choice: string): Language | null => (isLanguage(choice) ? choice : null);

/** A `<select>` of "none" (its own words) and each language, by name. */
function LanguageSelect({
  id,
  value,
  noneLabel,
  disabled,
  onChange,
}: {
  id: string;
  value: string;
  noneLabel: string;
  disabled?: boolean;
  onChange: (choice: string) => void;
}) {
  return html`<select
    id=${id}
    value=${value}
    disabled=${disabled}
    onChange=${(e: EventOn<HTMLSelectElement>) => onChange(e.currentTarget.value)}
  >
    <option value="">${noneLabel}</option>
    ${LANGUAGES.map((l) => html`<option value=${l.code}>${nameOf(l.code)}</option>`)}
  </select>`;
}

/** The person's own: what they get now (theirs, the project's, or the default) and a way to set it. */
function MineForm({ mine, project }: { mine: LanguageView; project: LanguageView | null }) {
  const [choice, setChoice] = useDraft(() => choiceOf(mine.language), `${mine.language}|${mine.updatedAt}`);
  const { busy, error, said, save } = useSave();

  const state = mine.language
    ? t('settings.language.mine.own', { language: nameOf(mine.language) })
    : project?.language
      ? t('settings.language.mine.project', { language: nameOf(project.language) })
      : t('settings.language.mine.default', { language: nameOf(DEFAULT_LANGUAGE) });

  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    // The section hears the reply (onMyLanguageKept), as it does the header switch's.
    void save(
      () => keepMyLanguage(languageOf(choice)),
      () => t('settings.language.mine.saved'),
    );
  };

  return html`<form class="channel language-mine" noValidate onSubmit=${onSubmit} aria-labelledby="language-mine-title">
    <h3 class="channel-title" id="language-mine-title">${t('settings.language.mine.title')}</h3>
    <p class="channel-state" data-testid="language-mine-state">${state}</p>
    <div class="channel-field">
      <label for="language-mine">${t('settings.language.mine.label')}</label>
      <${LanguageSelect}
        id="language-mine"
        value=${choice}
        noneLabel=${t('settings.language.mine.none')}
        onChange=${setChoice}
      />
    </div>
    <div class="channel-actions">
      <button type="submit" class="secondary" aria-busy=${busy} disabled=${busy}>
        ${busy ? t('settings.channels.saving') : t('settings.language.mine.save')}
      </button>
    </div>
    ${error && html`<p class="error" role="alert">${sentenceFor(error)}</p>`}
    <p class="saved" role="status" data-testid="language-mine-said">${said?.()}</p>
  </form>`;
}

/** The project's: said to everyone; its control enabled for a maintainer or an owner only. */
function ProjectForm({
  projectId,
  project,
  canChange,
  onSaved,
}: {
  projectId: string;
  project: LanguageView;
  canChange: boolean;
  onSaved: (view: LanguageView) => void;
}) {
  const [choice, setChoice] = useDraft(
    () => choiceOf(project.language),
    `${project.language}|${project.updatedAt}`,
  );
  const { busy, error, said, save } = useSave();

  const state = project.language
    ? t('settings.language.project.set', { projectId, language: nameOf(project.language) })
    : t('settings.language.project.none', { projectId, language: nameOf(DEFAULT_LANGUAGE) });

  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    void save(
      async () =>
        onSaved(
          await api<LanguageView>(projectPath(projectId, '/language'), {
            method: 'PUT',
            body: { language: languageOf(choice) },
          }),
        ),
      () => t('settings.language.project.saved'),
    );
  };

  return html`<form class="channel language-project" noValidate onSubmit=${onSubmit} aria-labelledby="language-project-title">
    <h3 class="channel-title" id="language-project-title">${t('settings.language.project.title')}</h3>
    <p class="channel-state" data-testid="language-project-state">${state}</p>
    <div class="channel-field">
      <label for="language-project">${t('settings.language.project.label')}</label>
      <${LanguageSelect}
        id="language-project"
        value=${choice}
        noneLabel=${t('settings.language.project.noneOption', { language: nameOf(DEFAULT_LANGUAGE) })}
        disabled=${!canChange}
        onChange=${setChoice}
      />
      ${!canChange && html`<p class="hint" data-testid="language-project-readonly">${t('settings.language.project.onlyMaintainers')}</p>`}
    </div>
    <div class="channel-actions">
      <button type="submit" class="secondary" aria-busy=${busy} disabled=${busy || !canChange}>
        ${busy ? t('settings.channels.saving') : t('settings.language.project.save')}
      </button>
    </div>
    ${error && html`<p class="error" role="alert" data-testid="language-project-error">${sentenceFor(error)}</p>`}
    <p class="saved" role="status" data-testid="language-project-said">${said?.()}</p>
  </form>`;
}

/** The section: the person's language and the project's, each in words with its control. */
export function LanguageSection({ id, projectId, me }: { id: string; projectId: string; me: Me }) {
  const mine = useResource(() => api<LanguageView>('/me/language'), 'me');
  const project = useResource(() => api<LanguageView>(projectPath(projectId, '/language')), projectId);
  // The header's switch keeps the person's choice too: say it here as soon as it is kept.
  const setMine = mine.set;
  const reloadProject = project.reload;
  useEffect(
    () =>
      onMyLanguageKept((view) => {
        setMine(view);
        void reloadProject();
      }),
    [],
  );
  const error = mine.error ?? project.error;
  return html`<section class="panel settings-section languages" id=${id} aria-labelledby=${`${id}-title`}>
    <div class="panel-head">
      <h2 id=${`${id}-title`} tabindex="-1">${t('settings.language.title')}</h2>
      <p class="panel-sub">${t('settings.language.sub')}</p>
    </div>
    ${
      error &&
      html`<${ErrorLine}
        error=${error}
        retry=${() => {
          void mine.reload();
          void project.reload();
        }}
      />`
    }
    ${
      !mine.data || !project.data
        ? !error && html`<p class="empty" role="status">${t('ui.loading')}</p>`
        : html`<div class="channel-list">
            <${MineForm} mine=${mine.data} project=${project.data} />
            <${ProjectForm}
              projectId=${projectId}
              project=${project.data}
              canChange=${canSetClock(me?.roles?.[projectId])}
              onSaved=${project.set}
            />
          </div>`
    }
  </section>`;
}
