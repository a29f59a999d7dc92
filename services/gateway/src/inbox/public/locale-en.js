// English words of the inbox, by key. Every key here is in locale-pt-BR.js too (a unit test checks).
// Plurals use i18next's suffixes: `_one`, `_other`.
export default {
  language: {
    label: 'Language',
  },
  delegation: {
    title: 'Delegate my answers',
    sub: 'Let someone answer the questions of your sessions in this project until a date. The answer stays yours, and says who clicked it.',
    to: 'User id',
    until: 'Until (end of the day)',
    grant: 'Delegate',
    granting: 'Delegating…',
    given: 'You delegated to',
    received: 'You answer for',
    none: 'No active delegation.',
    revoke: 'Revoke',
    activeTo: '{{to}}, until {{until}}',
    activeFrom: '{{from}}, until {{until}}',
    answersFor: 'You answer for {{from}} (until {{until}})',
    answeredFor: 'Answered by {{by}} for {{for}}',
    granted: 'Delegated to {{to}} until {{until}}.',
    revoked: 'Delegation to {{to}} revoked.',
    errors: {
      missing: 'Write the user id and choose the date.',
      to: 'Delegate to someone else: you already answer for yourself.',
      until: 'Choose a date from today up to 90 days ahead.',
      alreadyRevoked: 'This delegation was already revoked.',
      notFound: 'This delegation is not in this project any more.',
    },
  },
};
