// English words of the inbox, by key. Every key here is in locale-pt-BR.js too (a unit test checks).
// Plurals use i18next's suffixes: `_one`, `_other`.
export default {
  language: {
    label: 'Language',
  },
  signals: {
    title: 'openq — Inbox',
    notification: {
      title: 'A question waits for your answer',
    },
    notify: {
      off: 'Turn on notifications',
      on: 'Notifications on',
      onHint: 'Get a browser notification when a question you can answer arrives while this tab is hidden',
      offHint: 'Stop browser notifications',
      denied: 'Notifications blocked',
      deniedHint: 'Your browser blocks notifications for openq; allow them in its site settings',
    },
  },
};
