import { escapeHtml, pageHeaders } from '../inbox/pages';

/**
 * [openq] issue #17 the pages of a one-tap link, server-rendered like the sign-in pages: no
 * script at all, the inbox's stylesheet. Their URL holds the link token, so they are never
 * cached and never send a Referer.
 */
export function linkPageHeaders(): Record<string, string> {
  return { ...pageHeaders(), 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' };
}

export interface LinkQuestion {
  projectId: string;
  questionId: string;
  pergunta: string;
  sugestao: string | null;
  autor: string;
  /** Tasks whose gate waits on this question ("QA gate on T-101"). */
  waiting: string[];
}

/** Where the card of a question is in the inbox. */
export function cardUrl(projectId: string, questionId: string): string {
  return `/?project=${encodeURIComponent(projectId)}#q-${questionId}`;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} — openq</title>
<link rel="icon" href="/inbox/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/inbox/inbox.css">
</head>
<body class="plain">
<main class="signin one-tap" aria-labelledby="one-tap-title">
${body}
</main>
</body>
</html>
`;
}

function questionBlock(q: LinkQuestion): string {
  const suggestion = q.sugestao
    ? `<p class="one-tap-label">Suggested answer</p>
<p class="one-tap-suggestion">${escapeHtml(q.sugestao)}</p>`
    : '';
  const waiting = q.waiting.length
    ? `<p class="muted">Waiting on it: ${q.waiting.map(escapeHtml).join(', ')}.</p>`
    : '';
  return `<p class="one-tap-label">Question from ${escapeHtml(q.autor)} · project ${escapeHtml(q.projectId)}</p>
<blockquote class="one-tap-question">${escapeHtml(q.pergunta)}</blockquote>
${suggestion}
${waiting}`;
}

const heading = (text: string) =>
  `<h1 id="one-tap-title"><span class="logo" aria-hidden="true">oq</span> ${escapeHtml(text)}</h1>`;

/** GET: the question and one button that POSTs; nothing is answered until it is pressed. */
export function confirmPage(
  q: LinkQuestion,
  options: {
    confirm: string;
    userId: string;
    expiresAt: Date;
    canAnswer: boolean;
    inertReason: string | null;
  },
): string {
  const open = `<a class="quiet" href="${escapeHtml(cardUrl(q.projectId, q.questionId))}">Open it in the inbox instead</a>`;
  let action: string;
  if (!options.canAnswer) {
    action = `<p class="error" role="alert">${escapeHtml(options.inertReason ?? 'You cannot answer this question.')}</p>
<p>${open}</p>`;
  } else if (q.sugestao === null) {
    action = `<p class="error" role="alert">This question has no suggestion to accept. Write your answer in the inbox.</p>
<p>${open}</p>`;
  } else {
    action = `<form method="post" class="one-tap-form">
<input type="hidden" name="confirm" value="${escapeHtml(options.confirm)}">
<button type="submit" class="primary">Accept the suggestion</button>
</form>
<p class="muted">Answering as <strong>${escapeHtml(options.userId)}</strong>. This link works once and until ${escapeHtml(formatDate(options.expiresAt))}.</p>
<p>${open}</p>`;
  }
  return layout(
    'Accept the suggestion?',
    `${heading('Accept the suggestion?')}\n${questionBlock(q)}\n${action}`,
  );
}

/** POST answered: what was recorded and what resumes. */
export function answeredPage(q: LinkQuestion, resposta: string): string {
  const resumes = q.waiting.length
    ? `<p>${q.waiting.map((w) => `${escapeHtml(w)} resumes with your decision.`).join(' ')}</p>`
    : '';
  const body = `${heading('Answer recorded')}
<p role="status">You accepted the suggestion: <strong>${escapeHtml(resposta)}</strong></p>
<blockquote class="one-tap-question">${escapeHtml(q.pergunta)}</blockquote>
${resumes}
<p><a class="button" href="${escapeHtml(cardUrl(q.projectId, q.questionId))}">Go to the inbox</a></p>`;
  return layout('Answer recorded', body);
}

const TITLES: Readonly<Record<string, string>> = {
  link_expirado: 'This link has expired',
  link_ja_usado: 'This link was already used',
  link_invalido: 'This link is not valid',
  pergunta_ja_respondida: 'Already answered',
  pergunta_retirada: 'Question withdrawn',
  pergunta_nao_encontrada: 'Question not found',
  so_o_autor_da_sessao: 'Only the session author can answer',
  confirmacao_invalida: 'Please confirm again',
  origem_nao_confiavel: 'Please confirm again',
};

const SENTENCES: Readonly<Record<string, string>> = {
  link_expirado: 'One-tap links work for a limited time. Answer the question in the inbox instead.',
  link_ja_usado: 'Each one-tap link answers once, and this one already did. The inbox shows the decision.',
  link_invalido: 'The link may have been cut short or changed. Open the inbox to answer.',
  pergunta_ja_respondida: 'Someone answered this question already; nothing was changed.',
  pergunta_retirada: 'This question was withdrawn: it no longer needs an answer.',
  pergunta_nao_encontrada: 'This question does not exist (any more) in this project.',
  so_o_autor_da_sessao: 'Only the author of the session where this question was born can answer it.',
  confirmacao_invalida: 'The confirmation page was too old, or did not come from openq. Open the link again.',
  origem_nao_confiavel: 'The answer did not come from the confirmation page. Open the link again.',
};

/** A refusal, in words, with a way on to the inbox. */
export function refusalPage(
  reason: string,
  message: string,
  where: { projectId: string; questionId: string } | null,
): string {
  const title = TITLES[reason] ?? 'Not answered';
  const inbox = where ? cardUrl(where.projectId, where.questionId) : '/';
  const body = `${heading(title)}
<p class="error" role="alert" data-reason="${escapeHtml(reason)}">${escapeHtml(SENTENCES[reason] ?? message)}</p>
<p class="muted">Nothing was answered by this page.</p>
<p><a class="button" href="${escapeHtml(inbox)}">Open the inbox</a></p>`;
  return layout(title, body);
}

function formatDate(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
