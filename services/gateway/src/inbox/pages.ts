import { ROLES, type Role } from '../auth/roles';
import { DEV_LOGIN_PROJECTS_MAX_LENGTH } from '../http/form-bodies.dto';
import { escapeHtml, pageLayout } from '../http/page-layout';
import type { InboxAssets } from './inbox-assets';
import { PAGE_WORDS, type PageLanguage } from './page-language';

export interface AppPage {
  html: string;
}

/** What a shell page of the app differs in: its entry module and its few words before it runs. */
interface ShellOptions {
  entry: string;
  title: string;
  loading: string;
  noscript: string;
  body: string;
  bodyClass?: string;
}

/**
 * A shell the Preact app fills in: its one bundled module (tools/build-inbox.ts) under its hash,
 * cached for good; the HTML itself is never cached.
 */
function shellPage(assets: InboxAssets, lang: PageLanguage, shell: ShellOptions): AppPage {
  const head = `<link rel="icon" href="${assets.url('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assets.url('inbox.css')}">
<link rel="stylesheet" href="${assets.url('hands.css')}">
<script type="module" src="${assets.url(shell.entry)}"></script>`;
  const body = `<div id="app"${shell.body}><p class="boot" role="status">${escapeHtml(shell.loading)}</p></div>
<noscript><p class="boot">${escapeHtml(shell.noscript)}</p></noscript>`;
  return { html: pageLayout({ lang, title: shell.title, head, body, bodyClass: shell.bodyClass }) };
}

/**
 * The inbox: a shell the Preact app fills in. Its boot and noscript lines are in `lang` (the app
 * then speaks the language apps/inbox/src/i18n.ts picks).
 */
export function appPage(
  assets: InboxAssets,
  options: { devLogin: boolean },
  lang: PageLanguage = 'en',
): AppPage {
  const words = PAGE_WORDS[lang];
  return shellPage(assets, lang, {
    entry: 'app.js',
    title: words.appTitle,
    loading: words.loading,
    noscript: words.noscript,
    body: ` data-dev-login="${options.devLogin}"`,
  });
}

/**
 * SPEC §12.1 the embeddable pending block (apps/inbox/src/embed.ts): the caller's waiting block and the
 * project's open questions, drawn by the inbox's own panels. The project comes from the URL.
 */
export function embedPage(assets: InboxAssets, lang: PageLanguage = 'en'): AppPage {
  const words = PAGE_WORDS[lang];
  return shellPage(assets, lang, {
    entry: 'embed.js',
    title: words.embed.title,
    loading: words.embed.loading,
    noscript: words.noscript,
    body: '',
    bodyClass: 'embed',
  });
}

/**
 * The pending block when it cannot be shown: not signed in (`problem`), or no role on the project.
 * It stays framable (the chat shows why), and its way out opens openq itself, outside the frame.
 */
export function embedRefusalPage(
  assets: InboxAssets,
  lang: PageLanguage,
  why: { problem: 'missing' | 'rejected' | 'keys_unavailable' } | { noRoleOn: string },
): string {
  const words = PAGE_WORDS[lang];
  const sentence =
    'noRoleOn' in why
      ? words.embed.noRole.replace('{projectId}', why.noRoleOn)
      : `${words.why[why.problem]} ${words.embed.signInThere}`;
  const title = 'noRoleOn' in why ? words.embed.title : words.signInTitle;
  const body = `<main class="embed-block signin">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(sentence)}</p>
<p><a class="button primary" href="/" target="_blank" rel="noopener">${escapeHtml(words.embed.openInbox)}</a></p>
</main>`;
  return pageLayout({ lang, title: words.embed.title, head: plainHead(assets), body, bodyClass: 'embed' });
}

/** Icon and styles of the pages without the app. */
function plainHead(assets: InboxAssets): string {
  return `<link rel="icon" href="${assets.url('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assets.url('inbox.css')}">`;
}

/** `/` without a valid token, in `lang`. */
export function signInPage(
  assets: InboxAssets,
  problem: string,
  options: { devLogin: boolean },
  lang: PageLanguage = 'en',
): string {
  const words = PAGE_WORDS[lang];
  const why = words.why[problem as keyof typeof words.why] ?? words.why.missing;
  const action = options.devLogin
    ? `<p><a class="button primary" href="/dev/login">${escapeHtml(words.devSignIn)}</a></p>
<p class="muted">${escapeHtml(words.devSignInNote)}</p>`
    : `<p>${words.teamSignInHtml}</p>`;
  const body = `<main class="signin" aria-labelledby="signin-title">
<h1 id="signin-title"><span class="logo" aria-hidden="true">oq</span> ${escapeHtml(words.signInTitle)}</h1>
<p>${escapeHtml(why)} ${escapeHtml(words.needsToKnow)}</p>
${action}
</main>`;
  return pageLayout({
    lang,
    title: words.signInPageTitle,
    head: plainHead(assets),
    body,
    bodyClass: 'plain',
  });
}

export interface DevLoginForm {
  user: string;
  project: string;
  role: Role;
  error: string | null;
}

/** `GET /dev/login`: who to be, on which project, with which role (English: a developer's page, never production). */
export function devLoginPage(assets: InboxAssets, form: DevLoginForm): string {
  const options = ROLES.map(
    (r) => `<option value="${r}"${r === form.role ? ' selected' : ''}>${r}</option>`,
  ).join('');
  const error = form.error
    ? `<p class="error" role="alert" id="login-error">${escapeHtml(form.error)}</p>`
    : '';
  const described = form.error ? ' aria-describedby="login-error"' : '';
  const body = `<main class="signin" aria-labelledby="login-title">
<h1 id="login-title"><span class="logo" aria-hidden="true">oq</span> Development sign-in</h1>
<p class="muted">Outside production only. The token is signed with this gateway's key and kept in an HttpOnly cookie for 8 hours.</p>
${error}
<form method="post" action="/dev/login" class="login"${described}>
<label for="user">User id</label>
<input id="user" name="user" required maxlength="64" pattern="[A-Za-z0-9_\\-]{1,64}" autocomplete="username" value="${escapeHtml(form.user)}">
<label for="project">Projects</label>
<input id="project" name="project" required maxlength="${DEV_LOGIN_PROJECTS_MAX_LENGTH}" aria-describedby="project-hint" value="${escapeHtml(form.project)}">
<p class="muted" id="project-hint">One or more, separated by commas: the role holds on each, the inbox opens on the first.</p>
<label for="role">Role</label>
<select id="role" name="role">${options}</select>
<button type="submit" class="primary">Sign in</button>
</form>
<p class="muted">Ids use letters, digits, <code>_</code> and <code>-</code>. One-click link:
<code>/dev/login?user=ana&amp;project=demo,web&amp;role=developer</code></p>
</main>`;
  return pageLayout({
    lang: 'en',
    title: 'Development sign-in — openq',
    head: plainHead(assets),
    body,
    bodyClass: 'plain',
  });
}
