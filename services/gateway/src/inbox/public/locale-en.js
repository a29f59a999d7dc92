// English words of the inbox, by key. Every key here is in locale-pt-BR.js too (a unit test checks).
// Plurals use i18next's suffixes: `_one`, `_other`.
export default {
  language: {
    label: 'Language',
  },
  filters: {
    label: 'Filter the questions',
    search: 'Search the questions and suggestions',
    searchPlaceholder: 'Search questions and suggestions…',
    whoLabel: 'Whose questions',
    who: {
      all: 'All',
      mine: 'Mine',
      others: "Can't answer",
    },
    more: 'More filters',
    moreSet_one: 'More filters ({{count}} set)',
    moreSet_other: 'More filters ({{count}} set)',
    role: 'Asked by',
    task: 'Task',
    story: 'Story',
    rule: 'Rule',
    taskPlaceholder: 'e.g. T-101',
    storyPlaceholder: 'e.g. S-7',
    rulePlaceholder: 'e.g. RN-858',
    matching_one: '{{count}} question matches.',
    matching_other: '{{count}} questions match.',
    searching: 'Searching…',
    clear: 'Clear filters',
    noMatch: 'No open question matches these filters.',
  },
  allProjects: {
    option: 'All projects',
    title: 'Inbox of all your projects',
    empty: 'No open questions in any of your projects.',
    newQuestion: 'New question in {{project}}.',
    answered: 'Answered: {{pergunta}}',
    withdrawn: 'Withdrawn: {{pergunta}}',
  },
};
