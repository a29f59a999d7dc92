import type { Notification } from '../channel';
import type { Language } from '@openq/contracts';
import { affectsLine, agentName, blocksOf, isWebLink, languageOf, NOTIFICATION_WORDS } from './wording';

/**
 * The pieces of an openq e-mail, HTML and plain text side by side, shared by the immediate
 * e-mail and the digest. HTML: every value escaped, inline styles only (mail clients drop
 * <style>), links styled as buttons with their words as the accessible name.
 */

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const FONT = 'font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif';
const STYLE = {
  body: `margin:0;padding:24px;background:#f4f5f7;color:#1f2328;${FONT};font-size:16px;line-height:1.5`,
  card: 'max-width:600px;margin:0 auto;background:#ffffff;border:1px solid #d0d7de;border-radius:8px;padding:24px',
  h1: 'margin:0 0 8px;font-size:20px;line-height:1.3;color:#1f2328',
  h2: 'margin:24px 0 8px;font-size:18px;line-height:1.3;color:#1f2328',
  h3: 'margin:16px 0 4px;font-size:16px;line-height:1.3;color:#1f2328',
  lead: 'margin:0 0 16px;color:#57606a',
  question: 'margin:16px 0 4px;font-size:17px;font-weight:600;color:#1f2328',
  meta: 'margin:0 0 8px;font-size:14px;color:#57606a',
  quote: 'margin:8px 0;padding:8px 12px;border-left:4px solid #0969da;background:#f6f8fa;color:#1f2328',
  blocks: 'margin:12px 0;font-size:15px;color:#1f2328',
  primary:
    'display:inline-block;margin:8px 8px 0 0;padding:10px 18px;background:#0969da;color:#ffffff;' +
    'text-decoration:none;border-radius:6px;font-weight:600',
  secondary:
    'display:inline-block;margin:8px 8px 0 0;padding:10px 18px;background:#ffffff;color:#0969da;' +
    'text-decoration:none;border-radius:6px;font-weight:600;border:1px solid #0969da',
  footer: 'max-width:600px;margin:16px auto 0;font-size:12px;color:#57606a;text-align:center',
};

/** A whole HTML document: `lang`, a title, one card holding `bodyHtml`. */
export function htmlDocument(
  title: string,
  bodyHtml: string,
  footer: string,
  language: Language = 'en',
): string {
  return [
    '<!DOCTYPE html>',
    `<html lang="${language}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head>`,
    `<body style="${STYLE.body}">`,
    `<div role="article" aria-label="${escapeHtml(title)}" style="${STYLE.card}">`,
    bodyHtml,
    '</div>',
    `<p style="${STYLE.footer}">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
}

export function headingHtml(level: 1 | 2 | 3, text: string): string {
  const style = level === 1 ? STYLE.h1 : level === 2 ? STYLE.h2 : STYLE.h3;
  return `<h${level} style="${style}">${escapeHtml(text)}</h${level}>`;
}

export function leadHtml(text: string): string {
  return `<p style="${STYLE.lead}">${escapeHtml(text)}</p>`;
}

/** A link that looks like a button; `primary` for the one-tap accept. */
export function buttonHtml(href: string, label: string, primary: boolean): string {
  return `<a href="${escapeHtml(href)}" style="${primary ? STYLE.primary : STYLE.secondary}">${escapeHtml(label)}</a>`;
}

type Question = Notification['questions'][number];

function questionHtml(q: Question, language: Language): string {
  const S = NOTIFICATION_WORDS[language];
  const affects = affectsLine(q.afeta, language);
  const meta = [S.askedBy(agentName(q.autor, language)), affects ? `${S.affects}: ${affects}` : null]
    .filter((part): part is string => part !== null)
    .map(escapeHtml)
    .join(' · ');
  const suggestion =
    q.sugestao !== null && q.sugestao.trim() !== ''
      ? `<blockquote style="${STYLE.quote}"><strong>${escapeHtml(S.suggestion)}:</strong> ${escapeHtml(q.sugestao)}</blockquote>`
      : `<p style="${STYLE.meta}">${escapeHtml(S.noSuggestion)}</p>`;
  return [
    `<p style="${STYLE.question}">${escapeHtml(q.pergunta)}</p>`,
    `<p style="${STYLE.meta}">${meta}</p>`,
    suggestion,
  ].join('\n');
}

function questionText(q: Question, language: Language): string {
  const S = NOTIFICATION_WORDS[language];
  const affects = affectsLine(q.afeta, language);
  const lines = [`• ${q.pergunta}`, `  ${S.askedBy(agentName(q.autor, language))}`];
  if (affects) lines.push(`  ${S.affects}: ${affects}`);
  lines.push(
    q.sugestao !== null && q.sugestao.trim() !== ''
      ? `  ${S.suggestion}: ${q.sugestao}`
      : `  ${S.noSuggestion}`,
  );
  return lines.join('\n');
}

/** The questions, what they block and the two buttons of one notification (HTML). */
export function notificationBodyHtml(n: Notification): string {
  const language = languageOf(n);
  const S = NOTIFICATION_WORDS[language];
  const parts = n.questions.map((q) => questionHtml(q, language));
  const blocks = blocksOf(n);
  if (blocks.length > 0) {
    parts.push(
      `<p style="${STYLE.blocks}"><strong>${escapeHtml(S.blocks)}:</strong> ${escapeHtml(blocks.join(', '))}</p>`,
    );
  }
  const buttons: string[] = [];
  if (isWebLink(n.links.accept)) buttons.push(buttonHtml(n.links.accept, S.accept, true));
  if (isWebLink(n.links.open)) buttons.push(buttonHtml(n.links.open, S.open, !isWebLink(n.links.accept)));
  if (buttons.length > 0) parts.push(`<p style="margin:12px 0 0">${buttons.join('\n')}</p>`);
  return parts.join('\n');
}

/** The same in plain text: links written out in full. */
export function notificationBodyText(n: Notification): string {
  const language = languageOf(n);
  const S = NOTIFICATION_WORDS[language];
  const parts = n.questions.map((q) => questionText(q, language));
  const blocks = blocksOf(n);
  if (blocks.length > 0) parts.push(`${S.blocks}: ${blocks.join(', ')}`);
  if (isWebLink(n.links.accept)) parts.push(`${S.accept}: ${n.links.accept}`);
  if (isWebLink(n.links.open)) parts.push(`${S.open}: ${n.links.open}`);
  return parts.join('\n\n');
}
