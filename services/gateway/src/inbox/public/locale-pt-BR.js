// Palavras da caixa de entrada em português do Brasil, por chave (as mesmas de locale-en.js).
// Plurais com os sufixos do i18next: `_one`, `_other`.
export default {
  language: {
    label: 'Idioma',
  },
  messages: {
    reasons: {
      nao_autenticado: 'Seu login expirou ou não foi feito. Entre de novo para continuar.',
      sem_papel_no_projeto: 'Você não tem papel neste projeto.',
      papel_insuficiente: 'Seu papel neste projeto não permite isso.',
      so_o_autor_da_sessao: 'Só quem conduziu a sessão em que esta pergunta nasceu pode respondê-la.',
      pergunta_nao_encontrada: 'Esta pergunta não está mais neste projeto.',
      pergunta_ja_respondida: 'Esta pergunta já foi respondida em outro lugar.',
      pergunta_retirada: 'Esta pergunta foi retirada: ela não precisa mais de resposta.',
      decisao_nao_e_de_agente:
        'Só uma decisão que um agente registrou a partir do chat pode ser corrigida, e uma vez só. Esta continua valendo.',
      sem_sugestao: 'Esta pergunta não tem sugestão para aceitar. Escreva uma resposta.',
      corpo_invalido: 'Não foi possível enviar a resposta como está. Escreva de 1 a 2.000 caracteres.',
      gate_nao_estacionado: 'Este gate não está mais estacionado — não há o que retomar.',
      gate_aguarda_decisao:
        'Este gate espera as respostas das suas perguntas em aberto. Responda-as e ele é retomado sozinho.',
      gate_nao_aguarda_decisao:
        'Este gate está estacionado por inatividade, não por uma decisão: use “Retomar gate”.',
      motivo_invalido: 'Escreva por que você retoma sem a resposta (de 1 a 500 caracteres).',
      override_invalido: 'Não foi possível enviar a retomada sem a resposta como está.',
      servico_indisponivel: 'Esta parte do openq não está respondendo agora.',
      servico_sem_resposta: 'O openq demorou demais para responder. Tente de novo daqui a pouco.',
      resposta_invalida: 'O openq deu uma resposta que não pôde ser lida. Tente de novo daqui a pouco.',
      muitas_conexoes_ao_vivo:
        'O servidor está ocupado; as atualizações ao vivo voltam a se conectar em alguns segundos.',
      corpo_grande_demais: 'Isso é longo demais para enviar.',
      rota_nao_encontrada: 'Esta parte do openq não está disponível neste servidor.',
      sem_conexao: 'Não foi possível falar com o openq — verifique sua conexão.',
    },
    internalError: 'Algo deu errado do nosso lado ({{message}}).',
    somethingWrong: 'Algo deu errado.',
    agents: {
      criativo: 'Criativo',
      po: 'PO',
      arquiteto: 'Arquiteto',
      dev_lead: 'Dev Lead',
      'qa-agent': 'QA',
      analyst: 'Analista',
    },
    roles: {
      viewer: 'leitor',
      developer: 'desenvolvedor',
      maintainer: 'mantenedor',
      owner: 'dono',
    },
    rolesWithArticle: {
      viewer: 'leitor',
      developer: 'desenvolvedor',
      maintainer: 'mantenedor',
      owner: 'dono',
    },
    justNow: 'agora mesmo',
    waited: {
      lessThanAMinute: '<1 min',
      minutes_one: '{{count, number}} min',
      minutes_other: '{{count, number}} min',
      hours_one: '{{count, number}} h',
      hours_other: '{{count, number}} h',
      days_one: '{{count, number}} dia',
      days_other: '{{count, number}} dias',
    },
  },
  ui: {
    tryAgain: 'Tentar de novo',
    cancel: 'Cancelar',
  },
};
