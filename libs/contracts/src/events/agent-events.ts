import type { ClassConstructor } from 'class-transformer';
import { MessageRegistry } from '../registry';
import { definitionsOf, typesOf, type DataMapOf, type EventRow } from './event-table';
import { AgentGateActivityDto, AgentGateStartedDto, AgentQaVerdictDto } from './agent-gate.dto';
import {
  AgentAnalysisFinishedDto,
  AgentRepoFreezeDto,
  AgentStoryUpsertedDto,
  AgentTaskCreatedDto,
  AgentTaskStatusDto,
} from './agent-pipeline.dto';
import {
  AgentQuestionAnswerDto,
  AgentQuestionDeclareDto,
  AgentQuestionWithdrawDto,
} from './agent-question.dto';

export * from './agent-gate.dto';
export * from './agent-pipeline.dto';
export * from './agent-question.dto';

/** An agent event's row: the engine always publishes it; `toolCall` when a tool call makes it. */
export interface AgentEventRow<T extends string = string, Data extends object = object> extends EventRow<
  T,
  Data
> {
  readonly publisher: 'engine';
  /** Born from a tool call: an invalid one is answered with `question.rejected`. */
  readonly toolCall?: boolean;
}

function agentEvent<const T extends string, Data extends object>(
  row: Pick<AgentEventRow<T, Data>, 'type' | 'consumers' | 'toolCall' | 'schemaVersion'> & {
    dto: ClassConstructor<Data>;
  },
): AgentEventRow<T, Data> {
  return { ...row, publisher: 'engine' };
}

/**
 * Every inbound event the engine publishes on stream AGENT_EVENTS (SPEC §8), subject
 * `<type>.<projectId>`: wire type, DTO (its `data` type), the services with a durable consumer of
 * it, and whether a tool call makes it. The lists below and the AsyncAPI parties derive from it.
 */
export const AGENT_EVENT_TABLE = {
  QuestionDeclare: agentEvent({
    type: 'agent.question.declare',
    dto: AgentQuestionDeclareDto,
    consumers: ['questions'],
    toolCall: true,
  }),
  QuestionAnswer: agentEvent({
    type: 'agent.question.answer',
    dto: AgentQuestionAnswerDto,
    consumers: ['questions'],
    toolCall: true,
  }),
  QuestionWithdraw: agentEvent({
    type: 'agent.question.withdraw',
    dto: AgentQuestionWithdrawDto,
    consumers: ['questions'],
    toolCall: true,
  }),
  QaVerdict: agentEvent({
    type: 'agent.qa.verdict',
    dto: AgentQaVerdictDto,
    consumers: ['gates'],
  }),
  GateStarted: agentEvent({
    type: 'agent.gate.started',
    dto: AgentGateStartedDto,
    consumers: ['gates'],
  }),
  GateActivity: agentEvent({
    type: 'agent.gate.activity',
    dto: AgentGateActivityDto,
    consumers: ['gates'],
  }),
  TaskCreated: agentEvent({
    type: 'agent.task.created',
    dto: AgentTaskCreatedDto,
    consumers: ['gates'],
  }),
  TaskStatus: agentEvent({
    type: 'agent.task.status',
    dto: AgentTaskStatusDto,
    consumers: ['gates', 'context'],
  }),
  StoryUpserted: agentEvent({
    type: 'agent.story.upserted',
    dto: AgentStoryUpsertedDto,
    consumers: ['context'],
  }),
  AnalysisFinished: agentEvent({
    type: 'agent.analysis.finished',
    dto: AgentAnalysisFinishedDto,
    consumers: ['gates'],
  }),
  RepoFreeze: agentEvent({
    type: 'agent.repo.freeze',
    dto: AgentRepoFreezeDto,
    consumers: ['gates'],
  }),
} as const;

export type AgentEventTable = typeof AGENT_EVENT_TABLE;

export const AgentEvent = typesOf(AGENT_EVENT_TABLE);

export type AgentEventType = (typeof AgentEvent)[keyof typeof AgentEvent];

export const AGENT_EVENT_TYPES: readonly AgentEventType[] = Object.values(AgentEvent);

/** The validated `data` of each agent event type. */
export type AgentEventDataMap = DataMapOf<AgentEventTable>;

export type AgentEventData<T extends AgentEventType> = AgentEventDataMap[T];

export const AgentEventDefinitions = definitionsOf(AGENT_EVENT_TABLE);

export const agentEventRegistry = new MessageRegistry(Object.values(AgentEventDefinitions));

/** Agent events born from a tool call: an invalid one is answered with `question.rejected`. */
export const TOOL_CALL_EVENT_TYPES: readonly AgentEventType[] = Object.values<AgentEventRow>(
  AGENT_EVENT_TABLE,
)
  .filter((row) => row.toolCall)
  .map((row) => row.type as AgentEventType);
