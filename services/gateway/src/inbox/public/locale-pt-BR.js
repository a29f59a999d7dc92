// Palavras da caixa de entrada em português do Brasil, por chave (as mesmas de locale-en.js).
// Plurais com os sufixos do i18next: `_one`, `_other`.
export default {
  language: {
    label: 'Idioma',
  },
  filters: {
    label: 'Filtrar as perguntas',
    search: 'Buscar nas perguntas e sugestões',
    searchPlaceholder: 'Buscar em perguntas e sugestões…',
    whoLabel: 'De quem são as perguntas',
    who: {
      all: 'Todas',
      mine: 'Minhas',
      others: 'Não posso responder',
    },
    more: 'Mais filtros',
    moreSet_one: 'Mais filtros ({{count}} ativo)',
    moreSet_other: 'Mais filtros ({{count}} ativos)',
    role: 'Perguntado por',
    task: 'Tarefa',
    story: 'História',
    rule: 'Regra',
    taskPlaceholder: 'ex.: T-101',
    storyPlaceholder: 'ex.: S-7',
    rulePlaceholder: 'ex.: RN-858',
    matching_one: '{{count}} pergunta encontrada.',
    matching_other: '{{count}} perguntas encontradas.',
    searching: 'Buscando…',
    clear: 'Limpar filtros',
    noMatch: 'Nenhuma pergunta aberta corresponde a estes filtros.',
  },
  allProjects: {
    option: 'Todos os projetos',
    title: 'Caixa de entrada de todos os seus projetos',
    empty: 'Nenhuma pergunta aberta em nenhum dos seus projetos.',
    newQuestion: 'Nova pergunta em {{project}}.',
    answered: 'Respondida: {{pergunta}}',
    withdrawn: 'Retirada: {{pergunta}}',
  },
};
