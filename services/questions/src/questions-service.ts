import { AgentEvent, agentEventRegistry, commandRegistry } from '@openq/contracts';
import {
  loadConfig,
  sqlGauge,
  startDomainService,
  type DomainService,
  type OpenqConfig,
} from '@openq/platform';
import { QuestionLog1764470100000 } from './questions/migrations/1764470100000-question-log';
import { rejectToolCall } from './questions/questions.messages.controller';
import { QuestionsModule } from './questions/questions.module';
import { AnswerKeys1764470500000 } from './questions/migrations/1764470500000-answer-keys';
import { QuestionWithdrawn1764490000000 } from './questions/migrations/1764490000000-question-withdrawn';

export const QUESTIONS_MIGRATIONS = [
  QuestionLog1764470100000,
  AnswerKeys1764470500000,
  QuestionWithdrawn1764490000000,
];

/** Read on each /metrics scrape: one row per project in `question_counts`, so the sum is cheap. */
export const QUESTIONS_GAUGES = [
  sqlGauge(
    'openq_open_questions',
    'Open questions across all projects (question_counts projection)',
    `SELECT coalesce(sum(open), 0) AS n FROM question_counts`,
  ),
];

/** Starts the questions service: the question log, its projection, declare/answer/list. */
export function startQuestions(
  config: OpenqConfig = loadConfig(process.env, { authSecrets: false }),
  overrides: { httpPort?: number; embedded?: boolean } = {},
): Promise<DomainService> {
  return startDomainService({
    name: 'questions',
    config,
    module: QuestionsModule,
    migrations: QUESTIONS_MIGRATIONS,
    gauges: QUESTIONS_GAUGES,
    transport: {
      eventRegistry: agentEventRegistry,
      commandRegistry,
      onInvalid: {
        [AgentEvent.QuestionDeclare]: rejectToolCall,
        [AgentEvent.QuestionAnswer]: rejectToolCall,
        [AgentEvent.QuestionWithdraw]: rejectToolCall,
      },
    },
    ...overrides,
  });
}
