import {
  GATE_NAMES,
  QUESTION_AUTHOR_NAMES,
  isRefusalReason,
  refusalSentence,
  type Gate,
  type Language,
  type QuestionAuthor,
} from '@openq/contracts';
import { escapeHtml, pageHeaders, pageLayout } from '../http/page-layout';

/**
 * [openq] issue #17 the pages of a one-tap link, server-rendered like the sign-in pages: no
 * script at all, the inbox's stylesheet. Their URL holds the link token, so they are never
 * cached and never send a Referer. Issue #30: in the recipient's language (the link says it: theirs,
 * else the project's, else English, as the notifier minted it); a refusal's sentence is the
 * catalog's (libs/contracts refusals.ts).
 */
export function linkPageHeaders(): Record<string, string> {
  return { ...pageHeaders(), 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' };
}

/** What waits on the question: a gate on a task, or a task. */
export type LinkWait = { gate: string | null; taskId: string };

export interface LinkQuestion {
  projectId: string;
  questionId: string;
  pergunta: string;
  sugestao: string | null;
  autor: string;
  /** Tasks whose gate waits on this question ("QA gate on T-101"). */
  waiting: LinkWait[];
}

/** Where the card of a question is in the inbox. */
export function cardUrl(projectId: string, questionId: string): string {
  return `/?project=${encodeURIComponent(projectId)}#q-${questionId}`;
}

interface OneTapWords {
  suggestedAnswer: string;
  waitingOnIt: (list: string) => string;
  questionFrom: (autor: string, projectId: string) => string;
  gateOn: (gateName: string, taskId: string) => string;
  unknownGate: (gate: string) => string;
  openInstead: string;
  cannotAnswer: string;
  noSuggestion: string;
  accept: string;
  answeringAs: (userId: string, until: string) => string;
  confirmTitle: string;
  resumes: (what: string) => string;
  answeredTitle: string;
  youAccepted: string;
  goToInbox: string;
  notAnswered: string;
  nothingAnswered: string;
  openInbox: string;
  /** The title of a refusal's page; the sentence is the catalog's. */
  titles: Readonly<Record<string, string>>;
  /** `Intl` locale of the link's expiry. */
  locale: string;
}

/** The pages' own words, in every language. */
export const ONE_TAP_WORDS: Readonly<Record<Language, OneTapWords>> = {
  en: {
    suggestedAnswer: 'Suggested answer',
    waitingOnIt: (list) => `Waiting on it: ${list}.`,
    questionFrom: (autor, projectId) => `Question from ${autor} · project ${projectId}`,
    gateOn: (gateName, taskId) => `${gateName} on ${taskId}`,
    unknownGate: (gate) => `${gate} gate`,
    openInstead: 'Open it in the inbox instead',
    cannotAnswer: 'You cannot answer this question.',
    noSuggestion: 'This question has no suggestion to accept. Write your answer in the inbox.',
    accept: 'Accept the suggestion',
    answeringAs: (userId, until) => `Answering as ${userId}. This link works once and until ${until}.`,
    confirmTitle: 'Accept the suggestion?',
    resumes: (what) => `${what} resumes with your decision.`,
    answeredTitle: 'Answer recorded',
    youAccepted: 'You accepted the suggestion:',
    goToInbox: 'Go to the inbox',
    notAnswered: 'Not answered',
    nothingAnswered: 'Nothing was answered by this page.',
    openInbox: 'Open the inbox',
    titles: {
      link_expirado: 'This link has expired',
      link_ja_usado: 'This link was already used',
      link_invalido: 'This link is not valid',
      pergunta_ja_respondida: 'Already answered',
      pergunta_retirada: 'Question withdrawn',
      pergunta_nao_encontrada: 'Question not found',
      so_o_autor_da_sessao: 'Only the session author can answer',
      confirmacao_invalida: 'Please confirm again',
      origem_nao_confiavel: 'Please confirm again',
    },
    locale: 'en-GB',
  },
  'pt-BR': {
    suggestedAnswer: 'Resposta sugerida',
    waitingOnIt: (list) => `Esperando por ela: ${list}.`,
    questionFrom: (autor, projectId) => `Pergunta de ${autor} · projeto ${projectId}`,
    gateOn: (gateName, taskId) => `${gateName} em ${taskId}`,
    unknownGate: (gate) => `Gate ${gate}`,
    openInstead: 'Abrir na caixa de entrada',
    cannotAnswer: 'Você não pode responder a esta pergunta.',
    noSuggestion: 'Esta pergunta não tem sugestão para aceitar. Escreva sua resposta na caixa de entrada.',
    accept: 'Aceitar a sugestão',
    answeringAs: (userId, until) => `Respondendo como ${userId}. Este link vale uma vez e até ${until}.`,
    confirmTitle: 'Aceitar a sugestão?',
    resumes: (what) => `${what} é retomado com a sua decisão.`,
    answeredTitle: 'Resposta registrada',
    youAccepted: 'Você aceitou a sugestão:',
    goToInbox: 'Ir para a caixa de entrada',
    notAnswered: 'Não respondida',
    nothingAnswered: 'Nada foi respondido por esta página.',
    openInbox: 'Abrir a caixa de entrada',
    titles: {
      link_expirado: 'Este link expirou',
      link_ja_usado: 'Este link já foi usado',
      link_invalido: 'Este link não é válido',
      pergunta_ja_respondida: 'Já respondida',
      pergunta_retirada: 'Pergunta retirada',
      pergunta_nao_encontrada: 'Pergunta não encontrada',
      so_o_autor_da_sessao: 'Só o autor da sessão pode responder',
      confirmacao_invalida: 'Confirme de novo',
      origem_nao_confiavel: 'Confirme de novo',
    },
    locale: 'pt-BR',
  },
};

/** "QA gate on T-101" / "Gate de QA em T-101"; a task alone as its id. */
export function waitLabel(wait: LinkWait, language: Language): string {
  const words = ONE_TAP_WORDS[language];
  if (!wait.gate) return wait.taskId;
  const name = GATE_NAMES[wait.gate as Gate]?.[language] ?? words.unknownGate(wait.gate);
  return words.gateOn(name, wait.taskId);
}

/** A one-tap page: never indexed, never a Referer (its URL holds the token), no script. */
function linkPage(title: string, body: string, language: Language): string {
  return pageLayout({
    lang: language,
    title: `${title} — openq`,
    meta: { referrer: 'no-referrer', robots: 'noindex' },
    head: `<link rel="icon" href="/inbox/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/inbox/inbox.css">`,
    body: `<main class="signin one-tap" aria-labelledby="one-tap-title">
${body}
</main>`,
    bodyClass: 'plain',
  });
}

function questionBlock(q: LinkQuestion, language: Language): string {
  const words = ONE_TAP_WORDS[language];
  const suggestion = q.sugestao
    ? `<p class="one-tap-label">${escapeHtml(words.suggestedAnswer)}</p>
<p class="one-tap-suggestion">${escapeHtml(q.sugestao)}</p>`
    : '';
  const waiting = q.waiting.length
    ? `<p class="muted">${escapeHtml(words.waitingOnIt(q.waiting.map((w) => waitLabel(w, language)).join(', ')))}</p>`
    : '';
  const autor = QUESTION_AUTHOR_NAMES[q.autor as QuestionAuthor]?.[language] ?? q.autor;
  return `<p class="one-tap-label">${escapeHtml(words.questionFrom(autor, q.projectId))}</p>
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
    /** Why the person cannot answer: a reason code (said in their language) or words. */
    inertReason: string | null;
  },
  language: Language = 'en',
): string {
  const words = ONE_TAP_WORDS[language];
  const open = `<a class="quiet" href="${escapeHtml(cardUrl(q.projectId, q.questionId))}">${escapeHtml(words.openInstead)}</a>`;
  let action: string;
  if (!options.canAnswer) {
    // The questions service says why in English words (or a reason code): other languages say the gist.
    const why = !options.inertReason
      ? words.cannotAnswer
      : isRefusalReason(options.inertReason)
        ? refusalSentence(options.inertReason, language)
        : language === 'en'
          ? options.inertReason
          : words.cannotAnswer;
    action = `<p class="error" role="alert">${escapeHtml(why)}</p>
<p>${open}</p>`;
  } else if (q.sugestao === null) {
    action = `<p class="error" role="alert">${escapeHtml(words.noSuggestion)}</p>
<p>${open}</p>`;
  } else {
    const [before, after] = words
      .answeringAs('\u0000', formatDate(options.expiresAt, language))
      .split('\u0000');
    action = `<form method="post" class="one-tap-form">
<input type="hidden" name="confirm" value="${escapeHtml(options.confirm)}">
<button type="submit" class="primary">${escapeHtml(words.accept)}</button>
</form>
<p class="muted">${escapeHtml(before ?? '')}<strong>${escapeHtml(options.userId)}</strong>${escapeHtml(after ?? '')}</p>
<p>${open}</p>`;
  }
  return linkPage(
    words.confirmTitle,
    `${heading(words.confirmTitle)}\n${questionBlock(q, language)}\n${action}`,
    language,
  );
}

/** POST answered: what was recorded and what resumes. */
export function answeredPage(q: LinkQuestion, resposta: string, language: Language = 'en'): string {
  const words = ONE_TAP_WORDS[language];
  const resumes = q.waiting.length
    ? `<p>${q.waiting.map((w) => escapeHtml(words.resumes(waitLabel(w, language)))).join(' ')}</p>`
    : '';
  const body = `${heading(words.answeredTitle)}
<p role="status">${escapeHtml(words.youAccepted)} <strong>${escapeHtml(resposta)}</strong></p>
<blockquote class="one-tap-question">${escapeHtml(q.pergunta)}</blockquote>
${resumes}
<p><a class="button" href="${escapeHtml(cardUrl(q.projectId, q.questionId))}">${escapeHtml(words.goToInbox)}</a></p>`;
  return linkPage(words.answeredTitle, body, language);
}

/** A refusal, in words (the catalog's sentence for its reason), with a way on to the inbox. */
export function refusalPage(
  reason: string,
  message: string,
  where: { projectId: string; questionId: string } | null,
  language: Language = 'en',
): string {
  const words = ONE_TAP_WORDS[language];
  const title = words.titles[reason] ?? words.notAnswered;
  const inbox = where ? cardUrl(where.projectId, where.questionId) : '/';
  const body = `${heading(title)}
<p class="error" role="alert" data-reason="${escapeHtml(reason)}">${escapeHtml(refusalSentence(reason, language, {}, message))}</p>
<p class="muted">${escapeHtml(words.nothingAnswered)}</p>
<p><a class="button" href="${escapeHtml(inbox)}">${escapeHtml(words.openInbox)}</a></p>`;
  return linkPage(title, body, language);
}

function formatDate(date: Date, language: Language): string {
  if (language === 'en') return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `${new Intl.DateTimeFormat(ONE_TAP_WORDS[language].locale, {
    dateStyle: 'short',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(date)} UTC`;
}
