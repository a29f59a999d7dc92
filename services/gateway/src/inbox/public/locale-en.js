// English words of the inbox, by key. Every key here is in locale-pt-BR.js too (a unit test checks).
// Plurals use i18next's suffixes: `_one`, `_other`.
export default {
  language: {
    label: 'Language',
  },
  messages: {
    reasons: {
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
      sem_conexao: 'Cannot reach openq — check your connection.',
    },
    internalError: 'Something went wrong on our side ({{message}}).',
    somethingWrong: 'Something went wrong.',
    agents: {
      criativo: 'Criativo',
      po: 'PO',
      arquiteto: 'Arquiteto',
      dev_lead: 'Dev Lead',
      'qa-agent': 'QA',
      analyst: 'Analyst',
    },
    roles: {
      viewer: 'viewer',
      developer: 'developer',
      maintainer: 'maintainer',
      owner: 'owner',
    },
    rolesWithArticle: {
      viewer: 'a viewer',
      developer: 'a developer',
      maintainer: 'a maintainer',
      owner: 'an owner',
    },
    justNow: 'just now',
    waited: {
      lessThanAMinute: '<1 min',
      minutes_one: '{{count, number}} min',
      minutes_other: '{{count, number}} min',
      hours_one: '{{count, number}} h',
      hours_other: '{{count, number}} h',
      days_one: '{{count, number}} d',
      days_other: '{{count, number}} d',
    },
  },
  ui: {
    tryAgain: 'Try again',
    cancel: 'Cancel',
  },
};
