import { MessageRegistry, defineMessage } from '../registry';
import { AgentGateActivityDto, AgentGateStartedDto, AgentQaVerdictDto } from './agent-gate.dto';
import {
  AgentAnalysisFinishedDto,
  AgentRepoFreezeDto,
  AgentStoryUpsertedDto,
  AgentTaskCreatedDto,
  AgentTaskStatusDto,
} from './agent-pipeline.dto';
import { AgentQuestionAnswerDto, AgentQuestionDeclareDto } from './agent-question.dto';

export * from './agent-gate.dto';
export * from './agent-pipeline.dto';
export * from './agent-question.dto';

/** Inbound events the engine publishes on stream AGENT_EVENTS (SPEC §8), subject `<type>.<projectId>`. */
export const AgentEvent = {
  QuestionDeclare: 'agent.question.declare',
  QuestionAnswer: 'agent.question.answer',
  QaVerdict: 'agent.qa.verdict',
  GateStarted: 'agent.gate.started',
  GateActivity: 'agent.gate.activity',
  TaskCreated: 'agent.task.created',
  TaskStatus: 'agent.task.status',
  StoryUpserted: 'agent.story.upserted',
  AnalysisFinished: 'agent.analysis.finished',
  RepoFreeze: 'agent.repo.freeze',
} as const;

export type AgentEventType = (typeof AgentEvent)[keyof typeof AgentEvent];

export const AGENT_EVENT_TYPES: readonly AgentEventType[] = Object.values(AgentEvent);

/** The validated `data` of each agent event type. */
export interface AgentEventDataMap {
  'agent.question.declare': AgentQuestionDeclareDto;
  'agent.question.answer': AgentQuestionAnswerDto;
  'agent.qa.verdict': AgentQaVerdictDto;
  'agent.gate.started': AgentGateStartedDto;
  'agent.gate.activity': AgentGateActivityDto;
  'agent.task.created': AgentTaskCreatedDto;
  'agent.task.status': AgentTaskStatusDto;
  'agent.story.upserted': AgentStoryUpsertedDto;
  'agent.analysis.finished': AgentAnalysisFinishedDto;
  'agent.repo.freeze': AgentRepoFreezeDto;
}

export type AgentEventData<T extends AgentEventType> = AgentEventDataMap[T];

export const AgentEventDefinitions = {
  questionDeclare: defineMessage(AgentEvent.QuestionDeclare, AgentQuestionDeclareDto),
  questionAnswer: defineMessage(AgentEvent.QuestionAnswer, AgentQuestionAnswerDto),
  qaVerdict: defineMessage(AgentEvent.QaVerdict, AgentQaVerdictDto),
  gateStarted: defineMessage(AgentEvent.GateStarted, AgentGateStartedDto),
  gateActivity: defineMessage(AgentEvent.GateActivity, AgentGateActivityDto),
  taskCreated: defineMessage(AgentEvent.TaskCreated, AgentTaskCreatedDto),
  taskStatus: defineMessage(AgentEvent.TaskStatus, AgentTaskStatusDto),
  storyUpserted: defineMessage(AgentEvent.StoryUpserted, AgentStoryUpsertedDto),
  analysisFinished: defineMessage(AgentEvent.AnalysisFinished, AgentAnalysisFinishedDto),
  repoFreeze: defineMessage(AgentEvent.RepoFreeze, AgentRepoFreezeDto),
} as const;

export const agentEventRegistry = new MessageRegistry(Object.values(AgentEventDefinitions));

/** Agent events born from a tool call: an invalid one is answered with `question.rejected`. */
export const TOOL_CALL_EVENT_TYPES: readonly AgentEventType[] = [
  AgentEvent.QuestionDeclare,
  AgentEvent.QuestionAnswer,
];
