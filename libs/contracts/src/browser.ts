/**
 * [openq] issue #30 the contract a browser may import (`@openq/contracts/browser`): the modules of
 * plain data and pure functions, none of which brings class-validator, Node or Nest. The web inbox
 * (apps/inbox) takes its word lists from here; tools/build-inbox.spec.ts fails if this entry ever
 * pulls in a module outside libs/contracts.
 */
export * from './vocabulary';
export * from './refusals';
export * from './limits';
export * from './edge-reasons';
export * from './integration-reasons';
export * from './notifications';
export * from './live';
export * from './events/openq-event-types';
export * from './analytics/analytics-fields';

// The shapes of what the gateway sends the page (erased from the bundle: types only).
export type * from './events/openq-payloads';
export type * from './commands/notifier.views';
export type * from './commands/questions.views';
export type * from './commands/gates.views';
export type { AcceptSuggestionResult, AcceptSuggestionsReply } from './http/accept-suggestions.dto';
