// Palavras da caixa de entrada em português do Brasil, por chave (as mesmas de locale-en.js).
// Plurais com os sufixos do i18next: `_one`, `_other`.
export default {
  language: {
    label: 'Idioma',
  },
  signals: {
    title: 'openq — Caixa de entrada',
    notification: {
      title: 'Uma pergunta aguarda a sua resposta',
    },
    notify: {
      off: 'Ativar notificações',
      on: 'Notificações ativadas',
      onHint:
        'Receba uma notificação do navegador quando chegar uma pergunta que você pode responder enquanto esta aba estiver oculta',
      offHint: 'Parar as notificações do navegador',
      denied: 'Notificações bloqueadas',
      deniedHint: 'Seu navegador bloqueia as notificações do openq; permita-as nas configurações do site',
    },
  },
};
