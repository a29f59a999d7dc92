import { MessageRegistry } from '../registry';
import { ContextCommand } from './context.commands';
import { GatesCommand } from './gates.commands';
import { NotifierCommand } from './notifier.commands';
import { QuestionsCommand } from './questions.commands';

/** Every command, by service then verb: `Commands.questions.answer`. */
export const Commands = {
  questions: QuestionsCommand,
  gates: GatesCommand,
  context: ContextCommand,
  notifier: NotifierCommand,
} as const;

/** Validates request payloads; keyed by request subject (`openq.questions.answer`). */
export const commandRegistry = new MessageRegistry([
  ...Object.values(QuestionsCommand),
  ...Object.values(GatesCommand),
  ...Object.values(ContextCommand),
  ...Object.values(NotifierCommand),
]);
