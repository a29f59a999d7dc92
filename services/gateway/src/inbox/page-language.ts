import type { IncomingHttpHeaders } from 'node:http';
import { cookieValue } from '../auth/credentials';

/**
 * The server-rendered pages (the app's shell, the sign-in page) in the person's language (issue
 * #18): the language they chose in the inbox (the `openq_lang` cookie the page sets), else the
 * first of `Accept-Language` that openq speaks, else English. The app itself translates in the
 * browser (apps/inbox/src/i18n.ts); these are its few words before it runs.
 */
export const PAGE_LANGUAGES = ['en', 'pt-BR'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/** The cookie apps/inbox/src/i18n.ts writes when the person switches language. */
export const LANGUAGE_COOKIE = 'openq_lang';

/** `pt`, `pt-PT`, `pt-BR;q=0.9` → `pt-BR`; `en-GB` → `en`; unknown → null. */
function known(tag: string): PageLanguage | null {
  const lower = tag.trim().toLowerCase();
  if (!lower) return null;
  const exact = PAGE_LANGUAGES.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const base = lower.split('-')[0];
  return PAGE_LANGUAGES.find((l) => l.split('-')[0]!.toLowerCase() === base) ?? null;
}

/** The best language of an `Accept-Language` header, by quality then order (RFC 9110 §12.5.4). */
export function fromAcceptLanguage(header: string | undefined): PageLanguage | null {
  if (!header) return null;
  const ranges = header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), order };
    })
    .filter((r) => r.tag && r.tag !== '*' && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const r of ranges) {
    const language = known(r.tag);
    if (language) return language;
  }
  return null;
}

export function pageLanguage(headers: IncomingHttpHeaders): PageLanguage {
  const chosen = typeof headers.cookie === 'string' ? cookieValue(headers.cookie, LANGUAGE_COOKIE) : null;
  const stored = chosen ? PAGE_LANGUAGES.find((l) => l === chosen) : undefined;
  if (stored) return stored;
  const accept = headers['accept-language'];
  return fromAcceptLanguage(Array.isArray(accept) ? accept.join(',') : accept) ?? 'en';
}

export interface PageWords {
  appTitle: string;
  loading: string;
  noscript: string;
  signInTitle: string;
  signInPageTitle: string;
  why: Readonly<Record<'missing' | 'rejected' | 'keys_unavailable', string>>;
  needsToKnow: string;
  devSignIn: string;
  devSignInNote: string;
  /** HTML: names the header and the cookie. */
  teamSignInHtml: string;
  /** SPEC §12.1 the embeddable pending block's own words (`{projectId}` is replaced). */
  embed: { title: string; loading: string; signInThere: string; noRole: string; openInbox: string };
}

/** The pages' own words; everything else is in apps/inbox/src/locale-*.ts. */
export const PAGE_WORDS: Readonly<Record<PageLanguage, PageWords>> = {
  en: {
    appTitle: 'openq — Inbox',
    loading: 'Loading your inbox…',
    noscript: 'The inbox needs JavaScript to show your questions.',
    signInTitle: 'Sign in to openq',
    signInPageTitle: 'Sign in — openq',
    why: {
      missing: 'You are not signed in.',
      rejected: 'Your sign-in is no longer valid (it may have expired).',
      keys_unavailable:
        'Your sign-in cannot be checked right now (the key server is not answering). Try again in a moment.',
    },
    needsToKnow: 'Your inbox of open questions needs to know who you are.',
    devSignIn: 'Sign in (development)',
    devSignInNote:
      'Development sign-in mints a token for any user, project and role. It does not exist in production.',
    teamSignInHtml: `Open openq from your team's sign-in page. Programs can send a token in the
<code>Authorization: Bearer …</code> header or the <code>openq_token</code> cookie.`,
    embed: {
      title: 'openq — Pending',
      loading: 'Loading what is pending…',
      signInThere: 'Sign in to openq, then come back here.',
      noRole: 'You have no role on project {projectId}: its pending block is not yours to see.',
      openInbox: 'Open openq',
    },
  },
  'pt-BR': {
    appTitle: 'openq — Caixa de entrada',
    loading: 'Carregando sua caixa de entrada…',
    noscript: 'A caixa de entrada precisa de JavaScript para mostrar suas perguntas.',
    signInTitle: 'Entrar no openq',
    signInPageTitle: 'Entrar — openq',
    why: {
      missing: 'Você não está conectado.',
      rejected: 'Seu login não vale mais (pode ter expirado).',
      keys_unavailable:
        'Não é possível verificar seu login agora (o servidor de chaves não está respondendo). Tente de novo daqui a pouco.',
    },
    needsToKnow: 'Sua caixa de perguntas em aberto precisa saber quem você é.',
    devSignIn: 'Entrar (desenvolvimento)',
    devSignInNote:
      'O login de desenvolvimento emite um token para qualquer usuário, projeto e papel. Ele não existe em produção.',
    teamSignInHtml: `Abra o openq pela página de login do seu time. Programas podem enviar um token no cabeçalho
<code>Authorization: Bearer …</code> ou no cookie <code>openq_token</code>.`,
    embed: {
      title: 'openq — Pendências',
      loading: 'Carregando o que está pendente…',
      signInThere: 'Entre no openq e volte aqui.',
      noRole: 'Você não tem papel no projeto {projectId}: as pendências dele não são suas para ver.',
      openInbox: 'Abrir o openq',
    },
  },
};
