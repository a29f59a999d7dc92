import { ContextReadModels1764470300000 } from './1764470300000-context-read-models';
import { ContextReplayCheckpoint1764470400000 } from './1764470400000-context-replay-checkpoint';
import { ContextDecisionAgentSession1764470650000 } from './1764470650000-decision-agent-session';
import { ContextStoryArchivedVersion1764475300000 } from './1764475300000-context-story-archived-version';
import { ContextQuestionWithdrawn1764490000000 } from './1764490000000-context-question-withdrawn';
import { ContextDecisionAnsweredBy1764500000000 } from './1764500000000-decision-answered-by';
import { ContextQuestionAnalytics1764520000000 } from './1764520000000-question-analytics';

export const CONTEXT_MIGRATIONS: (new () => unknown)[] = [
  ContextReadModels1764470300000,
  ContextReplayCheckpoint1764470400000,
  ContextDecisionAgentSession1764470650000,
  ContextStoryArchivedVersion1764475300000,
  ContextQuestionWithdrawn1764490000000,
  ContextDecisionAnsweredBy1764500000000,
  ContextQuestionAnalytics1764520000000,
];
