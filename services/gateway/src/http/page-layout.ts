/**
 * The one shell of the gateway's server-rendered pages — the inbox's (its shells, sign-in, the
 * embeddable block, the dev sign-in) and a one-tap link's — and the headers they answer with.
 */

/** Text → HTML text or attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Headers every page answers with; `scripts`: the page runs the inbox's own modules (never an
 * inline script). `frameAncestors`: the origins that may frame the page — none but for the embeddable pending
 * block (SPEC §12.1, `OPENQ_EMBED_ANCESTORS`); every other page refuses to be framed.
 */
export function pageHeaders(scripts = false, frameAncestors: readonly string[] = []): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': [
      `default-src 'self'`,
      `script-src ${scripts ? `'self'` : `'none'`}`,
      `style-src 'self'`,
      `img-src 'self' data:`,
      `connect-src 'self'`,
      `object-src 'none'`,
      `base-uri 'none'`,
      `form-action 'self'`,
      `frame-ancestors ${frameAncestors.length ? frameAncestors.join(' ') : `'none'`}`,
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
  };
}

export interface PageShell {
  lang: string;
  /** Text (escaped here). */
  title: string;
  /** `<meta name content>` pairs after the three every page has (values escaped here). */
  meta?: Readonly<Record<string, string>>;
  /** HTML after the title: icon, stylesheets, the page's module. */
  head: string;
  /** HTML. */
  body: string;
  bodyClass?: string;
}

/** A whole page: the doctype, its language, charset, viewport and color scheme, then the page's own parts. */
export function pageLayout({ lang, title, meta = {}, head, body, bodyClass = '' }: PageShell): string {
  const metas = Object.entries(meta)
    .map(([name, content]) => `\n<meta name="${escapeHtml(name)}" content="${escapeHtml(content)}">`)
    .join('');
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">${metas}
<title>${escapeHtml(title)}</title>
${head}
</head>
<body${bodyClass ? ` class="${bodyClass}"` : ''}>
${body}
</body>
</html>
`;
}
