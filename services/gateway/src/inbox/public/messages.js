// Words for people: API reason codes as sentences, agent names, dates.

/** Known `reason` codes (SPEC §4 and the gateway's own) → what to tell the person. */
const SENTENCES = {
  nao_autenticado: 'Your sign-in has expired or is missing. Sign in again to go on.',
  sem_papel_no_projeto: 'You have no role on this project.',
  papel_insuficiente: 'Your role on this project does not allow this.',
  so_o_autor_da_sessao: 'Only the person who led the session where this question was born can answer it.',
  pergunta_nao_encontrada: 'This question is not in this project any more.',
  pergunta_ja_respondida: 'This question was already answered elsewhere.',
  pergunta_retirada: 'This question was withdrawn: it no longer needs an answer.',
  decisao_nao_e_de_agente:
    'Only a decision an agent recorded from the chat can be amended, and only once. This one stands.',
  sem_sugestao: 'This question has no suggestion to accept. Write an answer instead.',
  corpo_invalido: 'The answer could not be sent as written. Write 1 to 2,000 characters.',
  gate_nao_estacionado: 'This gate is not parked any more — there is nothing to resume.',
  gate_aguarda_decisao:
    'This gate waits for answers to its open questions. Answer them and it resumes by itself.',
  gate_nao_aguarda_decisao: 'This gate is parked for inactivity, not on a decision: use “Resume gate”.',
  motivo_invalido: 'Write why you resume without the answer (1 to 500 characters).',
  override_invalido: 'The resume without the answer could not be sent as written.',
  servico_indisponivel: 'This part of openq is not answering right now.',
  servico_sem_resposta: 'openq took too long to answer. Try again in a moment.',
  resposta_invalida: 'openq gave an answer that could not be read. Try again in a moment.',
  muitas_conexoes_ao_vivo: 'The server is busy; live updates will reconnect in a few seconds.',
  corpo_grande_demais: 'That is too long to send.',
  rota_nao_encontrada: 'This part of openq is not available on this server.',
};

/** An error as one sentence: the known reason's words, else the server's own message. */
export function sentenceFor(error) {
  if (!error) return '';
  if (error.reason && SENTENCES[error.reason]) return SENTENCES[error.reason];
  if (error.reason === 'erro_interno') return `Something went wrong on our side (${error.message}).`;
  const message =
    typeof error.message === 'string' && error.message ? error.message : 'Something went wrong.';
  const sentence = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

const AGENTS = {
  criativo: 'Criativo',
  po: 'PO',
  arquiteto: 'Arquiteto',
  dev_lead: 'Dev Lead',
  'qa-agent': 'QA',
  analyst: 'Analyst',
};

/** `dev_lead` → `Dev Lead`. */
export function agentName(id) {
  return AGENTS[id] ?? id;
}

const ROLE_NAMES = { viewer: 'viewer', developer: 'developer', maintainer: 'maintainer', owner: 'owner' };
export function roleName(role) {
  return ROLE_NAMES[role] ?? role;
}

/** `a viewer`, `an owner`. */
export function withArticle(word) {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const absolute = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** "3 minutes ago", "yesterday"… relative to `now` (ms). */
export function ago(iso, now) {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  // A time a little ahead of this browser's clock (skew) still reads "just now".
  const seconds = Math.min(0, Math.round((then - now) / 1000));
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 30 * 86400) return relative.format(Math.round(seconds / 86400), 'day');
  return absolute.format(then);
}

export function fullDate(iso) {
  const then = Date.parse(iso);
  return Number.isNaN(then) ? '' : absolute.format(then);
}

/** "1 question", "3 questions". */
export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** How long something has waited, short: "40 min", "2 h", "3 d" (issue #18's blocking cost). */
export function waited(iso, now) {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const minutes = Math.max(0, Math.floor((now - then) / 60000));
  if (minutes < 1) return '<1 min';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}
