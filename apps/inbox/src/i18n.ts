// The inbox's words in the person's language (issue #18): i18next with one dictionary per
// language (`locale-<lng>.js`), chosen from the browser, kept when the person switches.
import i18next from 'i18next';
import { LANGUAGE_NAMES, LANGUAGES as CONTRACT_LANGUAGES, type Language } from '@openq/contracts/browser';
import en from './locale-en';
import ptBR from './locale-pt-BR';

export type { Language };

/** The languages the inbox speaks (openq's, libs/contracts), with their names in themselves (for the switch). */
export const LANGUAGES: readonly { code: Language; name: string }[] = Object.freeze(
  CONTRACT_LANGUAGES.map((code) => ({ code, name: LANGUAGE_NAMES[code][code] })),
);
const STORED_LANGUAGE = 'openq.language';

/**
 * The language to use: the one the person chose, else the first of the browser's that the inbox
 * speaks (`pt`, `pt-PT` → `pt-BR`; `en-GB` → `en`), else English.
 */
export function pickLanguage(
  stored: string | null,
  browserLanguages: readonly string[] | undefined,
): Language {
  const known: readonly Language[] = LANGUAGES.map((l) => l.code);
  const chosen = known.find((code) => code === stored);
  if (chosen) return chosen;
  for (const wanted of browserLanguages ?? []) {
    const exact = known.find((code) => code.toLowerCase() === String(wanted).toLowerCase());
    if (exact) return exact;
    const base = String(wanted).split('-')[0]!.toLowerCase();
    const sameBase = known.find((code) => code.split('-')[0]!.toLowerCase() === base);
    if (sameBase) return sameBase;
  }
  return 'en';
}

function storedLanguage(): string | null {
  try {
    return localStorage.getItem(STORED_LANGUAGE);
  } catch {
    return null;
  }
}

const initial = pickLanguage(storedLanguage(), typeof navigator === 'undefined' ? [] : navigator.languages);

void i18next.init({
  lng: initial,
  fallbackLng: 'en',
  supportedLngs: LANGUAGES.map((l) => l.code),
  resources: { en: { translation: en }, 'pt-BR': { translation: ptBR } },
  // Preact escapes what it renders; i18next must not escape it a second time.
  interpolation: { escapeValue: false },
  // The dictionaries are already here: translate synchronously from the first render.
  initAsync: false,
  returnNull: false,
});
if (typeof document !== 'undefined') document.documentElement.lang = initial;

/**
 * A sentence kept for later (an announcement, a note): a function says it again in the language of
 * the moment when the person switches.
 */
export type Words = string | (() => string);

/** A kept sentence in the language of now. */
export function say(words: Words): string {
  return typeof words === 'function' ? words() : words;
}

/** A sentence by key, with `{{name}}` values and `count` for plurals. */
export function t(key: string, values?: Record<string, unknown>): string {
  return String(values ? i18next.t(key, values) : i18next.t(key));
}

/** Whether the dictionaries have a sentence for `key` (a code the page may not know yet has none). */
export function has(key: string): boolean {
  return i18next.exists(key);
}

/** The language in use now (`en`, `pt-BR`): dates and numbers are formatted for it. */
export function language(): string {
  return i18next.resolvedLanguage ?? i18next.language ?? 'en';
}

/** Switch language and remember the choice; `onChange` listeners re-render. */
export function setLanguage(code: string): Promise<unknown> {
  try {
    localStorage.setItem(STORED_LANGUAGE, code);
  } catch {
    // A browser that keeps nothing still switches for this page.
  }
  // The server's own pages (sign-in, the boot line) follow the choice too (page-language.ts).
  document.cookie = `openq_lang=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
  document.documentElement.lang = code;
  return i18next.changeLanguage(code);
}

/** Call `listener(code)` whenever the language changes; returns the unsubscribe. */
export function onLanguageChange(listener: (code: string) => void): () => void {
  i18next.on('languageChanged', listener);
  return () => i18next.off('languageChanged', listener);
}

/** Numbers for the current language ("1,234" / "1.234"). */
export function formatNumber(n: number): string {
  return new Intl.NumberFormat(language()).format(n);
}
