// Words for people: API reason codes as sentences, agent names, dates — in the person's language.
import { QUESTION_AUTHORS, PROJECT_ROLES, isRefusalReason, refusalSentence } from '@openq/contracts/browser';
import { formatNumber, has, language, t } from './i18n';
import { isOneOf } from './vocabulary';

/**
 * A reason code's sentence in the person's language, `null` for a code without one: the refusal
 * catalog of libs/contracts (issue #30), unless this page words it its own way
 * (locale-*.ts `messages.reasonsHere`).
 */
export function reasonSentence(reason: unknown): string | null {
  if (typeof reason !== 'string' || !reason) return null;
  const here = `messages.reasonsHere.${reason}`;
  if (has(here)) return t(here);
  return isRefusalReason(reason) ? refusalSentence(reason, language()) : null;
}

/** An error as one sentence: the known reason's words, else the server's own message. */
export function sentenceFor(error: { reason?: unknown; message?: unknown } | null | undefined): string {
  if (!error) return '';
  const known = reasonSentence(error.reason);
  if (known) return known;
  // A 500, or a reply that was not openq's JSON (a proxy's page): "HTTP 502" in a sentence.
  if (error.reason === 'erro_interno' || error.reason === 'erro_desconhecido')
    return t('messages.internalError', { message: error.message });
  // The page's own checks carry their sentence, already in the person's language.
  const message =
    typeof error.message === 'string' && error.message ? error.message : t('messages.somethingWrong');
  const sentence = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** `dev_lead` → `Dev Lead`. */
export function agentName(id: string): string {
  return isOneOf(QUESTION_AUTHORS, id) ? t(`messages.agents.${id}`) : id;
}

/** SPEC §12.3 who asked a question: "PO and Arquiteto", "PO, Arquiteto and QA" in the person's language. */
export function askersSentence(askers: readonly { autor: string }[]): string {
  const names = askers.map((a) => agentName(a.autor));
  return new Intl.ListFormat(language(), { style: 'long', type: 'conjunction' }).format(names);
}

/** A role's name in words (`maintainer` → "maintainer" / "mantenedor"); an unknown one as it is. */
export function roleName(role: string): string {
  return isOneOf(PROJECT_ROLES, role) ? t(`messages.roles.${role}`) : role;
}

/** The Intl formatters of the language in use, made again when it changes. */
let formats: {
  lng: string;
  relative: Intl.RelativeTimeFormat;
  absolute: Intl.DateTimeFormat;
  plural: Intl.PluralRules;
} | null = null;
function formatters() {
  const lng = language();
  if (formats?.lng !== lng)
    formats = {
      lng,
      relative: new Intl.RelativeTimeFormat(lng, { numeric: 'auto' }),
      absolute: new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short' }),
      plural: new Intl.PluralRules(lng),
    };
  return formats!;
}

/** "3 minutes ago", "yesterday"… relative to `now` (ms), in the person's language. */
export function ago(iso: string | null | undefined, now: number): string {
  const then = Date.parse(iso ?? '');
  if (Number.isNaN(then)) return '';
  const { relative, absolute } = formatters();
  // A time a little ahead of this browser's clock (skew) still reads "just now".
  const seconds = Math.min(0, Math.round((then - now) / 1000));
  const abs = Math.abs(seconds);
  if (abs < 45) return t('messages.justNow');
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 30 * 86400) return relative.format(Math.round(seconds / 86400), 'day');
  return absolute.format(then);
}

export function fullDate(iso: string | null | undefined): string {
  const then = Date.parse(iso ?? '');
  return Number.isNaN(then) ? '' : formatters().absolute.format(then);
}

/** A role as the complement of "you are": "a viewer", "an owner" (in Portuguese, the bare name). */
export function roleWithArticle(role: string | null): string {
  return isOneOf(PROJECT_ROLES, role) ? t(`messages.rolesWithArticle.${role}`) : (role as string);
}

/**
 * `n` and the word that goes with it by the language's plural rules: `plural(3, { one: 'pergunta',
 * other: 'perguntas' })` → "3 perguntas". The words come translated; prefer `t(key, { count })`.
 */
export function plural(
  n: number,
  words: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string },
): string {
  const form = formatters().plural.select(n);
  return `${formatNumber(n)} ${words[form] ?? words.other}`;
}

/** How long something has waited, short: "40 min", "2 h", "3 d" (issue #18's blocking cost). */
export function waited(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const minutes = Math.max(0, Math.floor((now - then) / 60000));
  if (minutes < 1) return t('messages.waited.lessThanAMinute');
  if (minutes < 60) return t('messages.waited.minutes', { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t('messages.waited.hours', { count: hours });
  return t('messages.waited.days', { count: Math.floor(hours / 24) });
}
