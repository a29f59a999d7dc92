// Palavras da caixa de entrada em português do Brasil, por chave (as mesmas de locale-en.js).
// Plurais com os sufixos do i18next: `_one`, `_other`.
export default {
  language: {
    label: 'Idioma',
  },
  delegation: {
    title: 'Delegar minhas respostas',
    sub: 'Deixe alguém responder às perguntas das suas sessões neste projeto até uma data. A resposta continua sendo sua e registra quem clicou.',
    to: 'Id do usuário',
    until: 'Até (fim do dia)',
    grant: 'Delegar',
    granting: 'Delegando…',
    given: 'Você delegou para',
    received: 'Você responde por',
    none: 'Nenhuma delegação ativa.',
    revoke: 'Revogar',
    activeTo: '{{to}}, até {{until}}',
    activeFrom: '{{from}}, até {{until}}',
    answersFor: 'Você responde por {{from}} (até {{until}})',
    answeredFor: 'Respondida por {{by}} em nome de {{for}}',
    granted: 'Delegado para {{to}} até {{until}}.',
    revoked: 'Delegação para {{to}} revogada.',
    errors: {
      missing: 'Escreva o id do usuário e escolha a data.',
      to: 'Delegue para outra pessoa: você já responde por si.',
      until: 'Escolha uma data entre hoje e daqui a 90 dias.',
      alreadyRevoked: 'Esta delegação já foi revogada.',
      notFound: 'Esta delegação não está mais neste projeto.',
    },
  },
};
