// English words of the inbox, by key. Every key here is in locale-pt-BR.js too (a unit test checks).
// Plurals use i18next's suffixes: `_one`, `_other`.
export default {
  language: {
    label: 'Language',
  },
};
