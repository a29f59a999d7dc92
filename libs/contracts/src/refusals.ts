/**
 * [openq] issue #30 (ARCHITECTURE §11 "one vocabulary") every reason code openq answers with,
 * defined once: the code on the wire (Portuguese, like every reason), the HTTP status it answers
 * with, and a sentence for a person in each language openq speaks. `refusal()`, `errorReply()` and
 * the gateway's `httpError()` take a `RefusalReason`, so a code that is not here does not compile;
 * `refusals.spec.ts` fails on a reason literal in services/ or libs/ that is not here.
 *
 * Browser-safe on purpose: this module imports nothing, so the inbox bundles it by path
 * (`@openq/contracts/refusals`). Sentences may hold `{{name}}` placeholders (i18next's form), the
 * same ones in every language; `refusalSentence` fills them.
 */

/** The languages openq speaks to people. */
export const LANGUAGES = ['en', 'pt-BR'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The words of one reason, in every language. */
export type ReasonWords = Readonly<Record<Language, string>>;

/**
 * [openq] issue #30 each language's name, in every language: `LANGUAGE_NAMES['pt-BR'].en` is
 * "Portuguese (Brazil)"; in itself (`LANGUAGE_NAMES[code][code]`) for a switch of languages.
 */
export const LANGUAGE_NAMES: Readonly<Record<Language, ReasonWords>> = {
  en: { en: 'English', 'pt-BR': 'Inglês' },
  'pt-BR': { en: 'Portuguese (Brazil)', 'pt-BR': 'Português (Brasil)' },
};

/** A reason's status and words. `status: 0`: the page's own, never on the wire (no HTTP answer). */
export interface RefusalEntry extends ReasonWords {
  readonly status: number;
}

export const REFUSALS = {
  // ── Any service's HTTP framework (libs/platform http-errors.ts) ────────────────────────────
  corpo_invalido: {
    status: 400,
    en: 'The request could not be sent as written: a field is missing or not valid.',
    'pt-BR': 'Não foi possível enviar o pedido como está: falta um campo ou um campo não é válido.',
  },
  requisicao_invalida: {
    status: 400,
    en: 'openq could not take this request as it was sent.',
    'pt-BR': 'O openq não pôde aceitar este pedido como foi enviado.',
  },
  parametro_invalido: {
    status: 400,
    en: 'A value in the address of this request is not valid.',
    'pt-BR': 'Um valor no endereço deste pedido não é válido.',
  },
  nao_autenticado: {
    status: 401,
    en: 'Your sign-in has expired or is missing. Sign in again to go on.',
    'pt-BR': 'Seu login expirou ou não foi feito. Entre de novo para continuar.',
  },
  rota_nao_encontrada: {
    status: 404,
    en: 'This part of openq is not available on this server.',
    'pt-BR': 'Esta parte do openq não está disponível neste servidor.',
  },
  metodo_nao_permitido: {
    status: 405,
    en: 'This address of openq does not take that kind of request.',
    'pt-BR': 'Este endereço do openq não aceita esse tipo de pedido.',
  },
  corpo_grande_demais: {
    status: 413,
    en: 'That is too long to send.',
    'pt-BR': 'Isso é longo demais para enviar.',
  },
  tipo_de_conteudo_nao_suportado: {
    status: 415,
    en: 'openq takes this request only as JSON.',
    'pt-BR': 'O openq só aceita este pedido em JSON.',
  },
  cabecalhos_grandes_demais: {
    status: 431,
    en: 'The request’s headers are too large. Signing out and in again may shrink them.',
    'pt-BR': 'Os cabeçalhos do pedido são grandes demais. Sair e entrar de novo pode diminuí-los.',
  },
  erro_interno: {
    status: 500,
    en: 'Something went wrong on our side.',
    'pt-BR': 'Algo deu errado do nosso lado.',
  },
  servico_indisponivel: {
    status: 503,
    en: 'This part of openq is not answering right now.',
    'pt-BR': 'Esta parte do openq não está respondendo agora.',
  },

  // ── Between services (libs/messaging) ──────────────────────────────────────────────────────
  resposta_invalida: {
    status: 502,
    en: 'openq gave an answer that could not be read. Try again in a moment.',
    'pt-BR': 'O openq deu uma resposta que não pôde ser lida. Tente de novo daqui a pouco.',
  },
  servico_sem_resposta: {
    status: 504,
    en: 'openq took too long to answer. Try again in a moment.',
    'pt-BR': 'O openq demorou demais para responder. Tente de novo daqui a pouco.',
  },
  sobrecarregado: {
    status: 503,
    en: 'openq has more work than it can take right now. Try again in a few seconds.',
    'pt-BR': 'O openq tem mais trabalho do que consegue aceitar agora. Tente de novo em alguns segundos.',
  },
  json_invalido: {
    status: 400,
    en: 'The message is not valid JSON.',
    'pt-BR': 'A mensagem não é um JSON válido.',
  },
  envelope_invalido: {
    status: 400,
    en: 'The event’s envelope is missing a field or has one that is not valid.',
    'pt-BR': 'Falta um campo no envelope do evento, ou um campo dele não é válido.',
  },
  tipo_desconhecido: {
    status: 400,
    en: 'openq does not know this type of event.',
    'pt-BR': 'O openq não conhece este tipo de evento.',
  },
  payload_invalido: {
    status: 400,
    en: 'The event’s data is missing a field or has one that is not valid.',
    'pt-BR': 'Falta um campo nos dados do evento, ou um campo deles não é válido.',
  },

  // ── Probes (libs/platform probe-server.ts, health.ts) ──────────────────────────────────────
  nao_pronto: {
    status: 503,
    en: 'This service is not ready: a service it needs does not answer, or it is shutting down.',
    'pt-BR':
      'Este serviço não está pronto: um serviço de que ele precisa não responde, ou ele está desligando.',
  },
  sem_batimento: {
    status: 503,
    en: 'This service has stopped answering inside: its main loop is stuck.',
    'pt-BR': 'Este serviço parou de responder por dentro: seu laço principal está travado.',
  },

  // ── The gateway's own ──────────────────────────────────────────────────────────────────────
  sem_papel_no_projeto: {
    status: 403,
    en: 'You have no role on this project.',
    'pt-BR': 'Você não tem papel neste projeto.',
  },
  papel_insuficiente: {
    status: 403,
    en: 'Your role on this project does not allow this.',
    'pt-BR': 'Seu papel neste projeto não permite isso.',
  },
  token_de_servico_invalido: {
    status: 401,
    en: 'This internal address needs a valid service token.',
    'pt-BR': 'Este endereço interno precisa de um token de serviço válido.',
  },
  muitas_conexoes_ao_vivo: {
    status: 503,
    en: 'The server is busy; live updates will reconnect in a few seconds.',
    'pt-BR': 'O servidor está ocupado; as atualizações ao vivo voltam a se conectar em alguns segundos.',
  },
  // Issue #27 (SPEC §12.2): the edge and outbound requests.
  destino_nao_permitido: {
    status: 400,
    en: 'This address cannot receive notifications: it is not public. An operator may allow it (OPENQ_NOTIFY_ALLOWED_TARGETS).',
    'pt-BR':
      'Este endereço não pode receber notificações: não é público. Um operador pode permiti-lo (OPENQ_NOTIFY_ALLOWED_TARGETS).',
  },
  origem_nao_confiavel: {
    status: 403,
    en: 'This request did not come from an openq page, so it was not carried out.',
    'pt-BR': 'Este pedido não veio de uma página do openq, por isso não foi feito.',
  },
  muitas_requisicoes: {
    status: 429,
    en: 'Too many requests in a short time. Wait a moment and try again.',
    'pt-BR': 'Pedidos demais em pouco tempo. Espere um momento e tente de novo.',
  },
  // Issue #17 (SPEC §11.6): one-tap links.
  link_expirado: {
    status: 410,
    en: 'One-tap links work for a limited time. Answer the question in the inbox instead.',
    'pt-BR': 'Links de um toque valem por um tempo limitado. Responda à pergunta pela caixa de entrada.',
  },
  link_ja_usado: {
    status: 409,
    en: 'Each one-tap link answers once, and this one already did. The inbox shows the decision.',
    'pt-BR':
      'Cada link de um toque responde uma vez só, e este já respondeu. A caixa de entrada mostra a decisão.',
  },
  link_invalido: {
    status: 403,
    en: 'The link may have been cut short or changed. Open the inbox to answer.',
    'pt-BR': 'O link pode ter sido cortado ou alterado. Abra a caixa de entrada para responder.',
  },
  confirmacao_invalida: {
    status: 403,
    en: 'The confirmation page was too old, or did not come from openq. Open the link again.',
    'pt-BR': 'A página de confirmação era antiga demais, ou não veio do openq. Abra o link de novo.',
  },
  // Issue #34 (SPEC §12.5): engine subscriptions and Slack.
  inscricao_nao_encontrada: {
    status: 404,
    en: 'This engine has no event subscription.',
    'pt-BR': 'Este motor não tem inscrição de eventos.',
  },
  assinatura_invalida: {
    status: 401,
    en: 'This request is not signed by Slack, or its signature is too old.',
    'pt-BR': 'Este pedido não foi assinado pelo Slack, ou a assinatura é antiga demais.',
  },
  slack_ja_vinculado: {
    status: 409,
    en: 'This Slack user is already linked to another openq user.',
    'pt-BR': 'Este usuário do Slack já está vinculado a outro usuário do openq.',
  },
  // Issue #33: analytics (ANALYTICS_MAX_DAYS days; analytics.spec.ts holds the number equal).
  periodo_invalido: {
    status: 400,
    en: 'That period cannot be shown: the start must not be after the end, and it may span at most 366 days.',
    'pt-BR':
      'Esse período não pode ser mostrado: o início não pode ser depois do fim, e ele pode ter no máximo 366 dias.',
  },

  // ── Questions: answering, withdrawing, amending, ask once ──────────────────────────────────
  pergunta_invalida: {
    status: 400,
    en: 'The question could not be declared as written: a field is missing or not valid.',
    'pt-BR': 'Não foi possível declarar a pergunta como está: falta um campo ou um campo não é válido.',
  },
  pergunta_nao_encontrada: {
    status: 404,
    en: 'This question is not in this project any more.',
    'pt-BR': 'Esta pergunta não está mais neste projeto.',
  },
  pergunta_ja_respondida: {
    status: 409,
    en: 'This question was already answered elsewhere.',
    'pt-BR': 'Esta pergunta já foi respondida em outro lugar.',
  },
  pergunta_retirada: {
    status: 409,
    en: 'This question was withdrawn: it no longer needs an answer.',
    'pt-BR': 'Esta pergunta foi retirada: ela não precisa mais de resposta.',
  },
  pergunta_nao_decidida: {
    status: 409,
    en: 'The question offered as a precedent has no decision yet.',
    'pt-BR': 'A pergunta oferecida como precedente ainda não tem decisão.',
  },
  so_o_autor_da_sessao: {
    status: 403,
    en: 'Only the person who led the session where this question was born can answer it.',
    'pt-BR': 'Só quem conduziu a sessão em que esta pergunta nasceu pode respondê-la.',
  },
  so_quem_perguntou: {
    status: 403,
    en: 'Only the agent that asked this question, or the author of its session, can withdraw it.',
    'pt-BR': 'Só o agente que fez esta pergunta, ou o autor da sessão, pode retirá-la.',
  },
  nao_ha_o_que_separar: {
    status: 409,
    en: 'That agent is not joined to this question any more: there is nothing to split.',
    'pt-BR': 'Esse agente já não está junto desta pergunta: não há o que separar.',
  },
  decisao_nao_e_de_agente: {
    status: 409,
    en: 'Only a decision an agent recorded from the chat can be amended, and only once. This one stands.',
    'pt-BR':
      'Só uma decisão que um agente registrou a partir do chat pode ser corrigida, e uma vez só. Esta continua valendo.',
  },
  sem_sugestao: {
    status: 400,
    en: 'This question has no suggestion to accept. Write an answer instead.',
    'pt-BR': 'Esta pergunta não tem sugestão para aceitar. Escreva uma resposta.',
  },
  sem_resposta_nem_sugestao: {
    status: 400,
    en: 'No answer was given, and this question has no suggestion to take instead.',
    'pt-BR': 'Nenhuma resposta foi dada, e esta pergunta não tem sugestão para usar no lugar.',
  },
  idempotency_key_reutilizada: {
    status: 422,
    en: 'This request reused the key of another one. Send a new key for a new answer.',
    'pt-BR': 'Este pedido reutilizou a chave de outro. Envie uma chave nova para uma resposta nova.',
  },
  motivo_invalido: {
    status: 400,
    en: 'Write why you resume without the answer (1 to 500 characters).',
    'pt-BR': 'Escreva por que você retoma sem a resposta (de 1 a 500 caracteres).',
  },
  override_invalido: {
    status: 400,
    en: 'The resume without the answer could not be sent as written.',
    'pt-BR': 'Não foi possível enviar a retomada sem a resposta como está.',
  },
  // §12.1 project policies and delegation.
  delegacao_desligada: {
    status: 403,
    en: 'Delegation is off in this project: only the person who led the session answers its questions.',
    'pt-BR':
      'A delegação está desligada neste projeto: só quem conduziu a sessão responde às suas perguntas.',
  },
  delegacao_revogada: {
    status: 403,
    en: 'The author of this session revoked your delegation to answer for them.',
    'pt-BR': 'O autor desta sessão revogou sua delegação para responder por ele.',
  },
  delegacao_expirada: {
    status: 403,
    en: 'Your delegation to answer for the author of this session has expired.',
    'pt-BR': 'Sua delegação para responder pelo autor desta sessão expirou.',
  },
  delegacao_invalida: {
    status: 400,
    en: 'The delegation could not be saved as written: check who it is for and until when.',
    'pt-BR': 'Não foi possível salvar a delegação como está: confira para quem ela é e até quando.',
  },
  delegacao_nao_encontrada: {
    status: 404,
    en: 'This delegation is not in this project.',
    'pt-BR': 'Esta delegação não está neste projeto.',
  },
  delegacao_ja_revogada: {
    status: 409,
    en: 'This delegation was already revoked.',
    'pt-BR': 'Esta delegação já foi revogada.',
  },
  so_quem_delegou: {
    status: 403,
    en: 'Only the person who granted a delegation can revoke it.',
    'pt-BR': 'Só quem concedeu uma delegação pode revogá-la.',
  },
  override_desligado: {
    status: 403,
    en: 'Resuming without the answer is off in this project: only an answer resumes a gate parked on a decision.',
    'pt-BR':
      'Retomar sem a resposta está desligado neste projeto: só uma resposta retoma um gate estacionado numa decisão.',
  },

  // ── Gates and the pipeline ─────────────────────────────────────────────────────────────────
  gate_nao_encontrado: {
    status: 404,
    en: 'This task has no such gate.',
    'pt-BR': 'Esta tarefa não tem esse gate.',
  },
  gate_nao_estacionado: {
    status: 409,
    en: 'This gate is not parked any more — there is nothing to resume.',
    'pt-BR': 'Este gate não está mais estacionado — não há o que retomar.',
  },
  gate_aguarda_decisao: {
    status: 409,
    en: 'This gate waits for answers to its open questions. Answer them and it resumes by itself.',
    'pt-BR':
      'Este gate espera as respostas das suas perguntas em aberto. Responda-as e ele é retomado sozinho.',
  },
  gate_nao_aguarda_decisao: {
    status: 409,
    en: 'This gate is parked for inactivity, not on a decision: use “Resume gate”.',
    'pt-BR': 'Este gate está estacionado por inatividade, não por uma decisão: use “Retomar gate”.',
  },
  max_correcoes_invalido: {
    status: 400,
    en: 'The most corrections a gate allows must be a whole number, 0 or more.',
    'pt-BR': 'O máximo de correções de um gate deve ser um número inteiro, 0 ou mais.',
  },
  sem_perguntas: {
    status: 400,
    en: 'A gate parked on a decision must wait on at least one question.',
    'pt-BR': 'Um gate estacionado numa decisão deve esperar ao menos uma pergunta.',
  },
  rodada_vazia: {
    status: 400,
    en: 'A QA round needs at least one verdict.',
    'pt-BR': 'Uma rodada de QA precisa de ao menos um veredito.',
  },
  veredito_invalido: {
    status: 400,
    en: 'A verdict of this round is not one openq knows.',
    'pt-BR': 'Um veredito desta rodada não é um que o openq conheça.',
  },
  veredito_sem_pergunta: {
    status: 400,
    en: 'A verdict that needs a person’s decision must bring its question.',
    'pt-BR': 'Um veredito que precisa da decisão de uma pessoa deve trazer sua pergunta.',
  },
  tarefa_nao_encontrada: {
    status: 404,
    en: 'This task is not in this project.',
    'pt-BR': 'Esta tarefa não está neste projeto.',
  },
  tarefa_encerrada: {
    status: 409,
    en: 'This task has ended: it can no longer be paused or resumed.',
    'pt-BR': 'Esta tarefa foi encerrada: ela não pode mais ser pausada nem retomada.',
  },
  tarefa_ja_pausada: {
    status: 409,
    en: 'This task is already paused.',
    'pt-BR': 'Esta tarefa já está pausada.',
  },
  tarefa_nao_pausada: {
    status: 409,
    en: 'This task is not paused: there is nothing to resume.',
    'pt-BR': 'Esta tarefa não está pausada: não há o que retomar.',
  },

  // ── Stories (context) ──────────────────────────────────────────────────────────────────────
  historia_nao_encontrada: {
    status: 404,
    en: 'This story is not in this project.',
    'pt-BR': 'Esta história não está neste projeto.',
  },
  historia_arquivada: {
    status: 409,
    en: 'This story is archived: it can no longer be corrected.',
    'pt-BR': 'Esta história está arquivada: ela não pode mais ser corrigida.',
  },
  historia_nao_draft: {
    status: 409,
    en: 'Only a draft story can be changed this way (a ready one, only by citing an answered question).',
    'pt-BR':
      'Só uma história em rascunho pode ser mudada assim (uma pronta, só citando uma pergunta respondida).',
  },
  historia_com_tarefa_em_execucao: {
    status: 409,
    en: 'A task of this story is in progress or in review: the story cannot be corrected now.',
    'pt-BR':
      'Uma tarefa desta história está em andamento ou em revisão: a história não pode ser corrigida agora.',
  },
  correcao_vazia: {
    status: 400,
    en: 'A correction must change at least one of the title, the rules, the requirements or the definitions.',
    'pt-BR': 'Uma correção deve mudar ao menos um entre o título, as regras, os requisitos ou as definições.',
  },
  pergunta_nao_respondida: {
    status: 409,
    en: 'The cited question is still open: a ready story is corrected only by an answered question.',
    'pt-BR':
      'A pergunta citada ainda está em aberto: uma história pronta só é corrigida por uma pergunta respondida.',
  },

  // ── Notifications, channels, the clock (notifier) ──────────────────────────────────────────
  canal_email_invalido: {
    status: 400,
    en: 'The e-mail channel could not be saved: check the address.',
    'pt-BR': 'Não foi possível salvar o canal de e-mail: confira o endereço.',
  },
  canal_slack_invalido: {
    status: 400,
    en: 'The Slack channel could not be saved: check the webhook URL.',
    'pt-BR': 'Não foi possível salvar o canal do Slack: confira a URL do webhook.',
  },
  canal_webhook_invalido: {
    status: 400,
    en: 'The webhook could not be saved: check its URL and secret.',
    'pt-BR': 'Não foi possível salvar o webhook: confira a URL e o segredo.',
  },
  entrega_nao_encontrada: {
    status: 404,
    en: 'This delivery is not among yours on this project any more.',
    'pt-BR': 'Esta entrega não está mais entre as suas neste projeto.',
  },
  politica_invalida: {
    status: 400,
    en: 'The reminder policy could not be saved as written.',
    'pt-BR': 'Não foi possível salvar a política de lembretes como está.',
  },
  lembretes_fora_de_ordem: {
    status: 400,
    en: 'Each reminder must come after the one before it.',
    'pt-BR': 'Cada lembrete deve vir depois do anterior.',
  },
  lembrete_no_prazo: {
    status: 400,
    en: 'A reminder falls at the due time, which is notified anyway.',
    'pt-BR': 'Um lembrete cai no horário do prazo, que é avisado de qualquer forma.',
  },
  escalonamento_antes_do_prazo: {
    status: 400,
    en: 'Escalation must not come before the due time.',
    'pt-BR': 'O escalonamento não pode vir antes do prazo.',
  },
  escalonamento_antes_de_lembrete: {
    status: 400,
    en: 'Escalation must come after every reminder.',
    'pt-BR': 'O escalonamento deve vir depois de todos os lembretes.',
  },
  horario_invalido: {
    status: 400,
    en: 'The working hours could not be saved as written.',
    'pt-BR': 'Não foi possível salvar o horário de trabalho como está.',
  },
  fuso_horario_desconhecido: {
    status: 400,
    en: 'openq does not know that time zone.',
    'pt-BR': 'O openq não conhece esse fuso horário.',
  },
  silencio_cobre_o_expediente: {
    status: 400,
    en: 'The quiet hours cover the whole working day: nobody could ever be told anything.',
    'pt-BR': 'O horário de silêncio cobre todo o expediente: ninguém poderia ser avisado de nada.',
  },

  // ── The page's own (never on the wire) ─────────────────────────────────────────────────────
  sem_conexao: {
    status: 0,
    en: 'Cannot reach openq — check your connection.',
    'pt-BR': 'Não foi possível falar com o openq — verifique sua conexão.',
  },
  erro_desconhecido: {
    status: 0,
    en: 'openq gave an answer that is not its own (a proxy’s page?). Try again in a moment.',
    'pt-BR': 'Veio uma resposta que não é do openq (a página de um proxy?). Tente de novo daqui a pouco.',
  },
} as const satisfies Record<string, RefusalEntry>;

/** Every reason code openq answers with. */
export type RefusalReason = keyof typeof REFUSALS;

export const REFUSAL_REASONS = Object.keys(REFUSALS) as RefusalReason[];

export function isRefusalReason(value: unknown): value is RefusalReason {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(REFUSALS, value);
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The HTTP status a reason answers with (0: the page's own, never on the wire). */
export function refusalStatus(reason: RefusalReason): number {
  return REFUSALS[reason].status;
}

/**
 * A reason as a sentence for a person, in `language` (English when openq does not speak it).
 * `values` fill the `{{name}}` placeholders. A code not in the catalog (an older or newer server)
 * gives `fallback` when given, else the code itself.
 */
export function refusalSentence(
  reason: RefusalReason | string,
  language: Language | string,
  values: Readonly<Record<string, string | number>> = {},
  fallback?: string,
): string {
  if (!isRefusalReason(reason)) return fallback ?? reason;
  const words: ReasonWords = REFUSALS[reason];
  const sentence = words[isLanguage(language) ? language : 'en'];
  return sentence.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : String(values[name]),
  );
}

/** Some codes with their entries, typed (e.g. a module's own list). */
export function pickRefusals<const K extends RefusalReason>(
  ...codes: K[]
): { readonly [P in K]: (typeof REFUSALS)[P] } {
  return Object.fromEntries(codes.map((c) => [c, REFUSALS[c]])) as {
    readonly [P in K]: (typeof REFUSALS)[P];
  };
}
