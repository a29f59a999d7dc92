import { AgentEvent, agentEventRegistry, commandRegistry } from '@openq/contracts';
import {
  loadConfig,
  sqlGauge,
  startDomainService,
  type DomainService,
  type OpenqConfig,
  type ServiceGauge,
} from '@openq/platform';
import { rejectToolCall } from './questions/questions.events.controller';
import { QuestionsModule } from './questions/questions.module';
import { QUESTIONS_MIGRATIONS } from './questions/migrations';

export { QUESTIONS_MIGRATIONS };

/** At most this many `project` series for the oldest open question (the projects waiting longest). */
export const OLDEST_OPEN_QUESTION_PROJECTS = 20;

/** Read on each /metrics scrape: one row per project in `question_counts`, so the sum is cheap. */
export const QUESTIONS_GAUGES: ServiceGauge[] = [
  sqlGauge(
    'openq_open_questions',
    'Open questions across all projects (question_counts projection)',
    `SELECT coalesce(sum(open), 0) AS n FROM question_counts`,
  ),
  {
    // Per project with open questions, its first open one (index question_view_by_status), then
    // the log row's time; only the projects waiting longest, so the cardinality stays bounded.
    name: 'openq_oldest_open_question_age_seconds',
    help: `Age of the oldest open question of a project, for the ${OLDEST_OPEN_QUESTION_PROJECTS} projects whose oldest open question is oldest (no series for a project with none)`,
    labelNames: ['project'],
    collect: async (ds) =>
      (
        (await ds.query(
          `SELECT o.project_id, extract(epoch FROM now() - l.recorded_at)::float8 AS age
             FROM (SELECT c.project_id,
                          (SELECT min(v.declared_position) FROM question_view v
                            WHERE v.project_id = c.project_id AND v.status = 'open') AS position
                     FROM question_counts c WHERE c.open > 0) o
             JOIN question_log l ON l.position = o.position
            ORDER BY l.recorded_at, o.project_id LIMIT $1`,
          [OLDEST_OPEN_QUESTION_PROJECTS],
        )) as { project_id: string; age: number }[]
      ).map((r) => ({ labels: { project: r.project_id }, value: Math.max(0, r.age) })),
  },
];

/** Starts the questions service: the question log, its projection, declare/answer/list. */
export function startQuestions(
  config: OpenqConfig = loadConfig(process.env, { authSecrets: false }),
  overrides: { httpPort?: number; embedded?: boolean; poolSize?: number } = {},
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
