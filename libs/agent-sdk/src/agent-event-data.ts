import type { AgentEventDataMap } from '@openq/contracts';

/** The `data` of each agent event, as the engine fills it (the contract's DTO shapes). */
export type DeclareOpenQuestionEvent = AgentEventDataMap['agent.question.declare'];
export type AnswerOpenQuestionEvent = AgentEventDataMap['agent.question.answer'];
export type WithdrawOpenQuestionEvent = AgentEventDataMap['agent.question.withdraw'];
export type QaVerdictEvent = AgentEventDataMap['agent.qa.verdict'];
export type GateStartedEvent = AgentEventDataMap['agent.gate.started'];
export type GateActivityEvent = AgentEventDataMap['agent.gate.activity'];
export type TaskCreatedEvent = AgentEventDataMap['agent.task.created'];
export type TaskStatusEvent = AgentEventDataMap['agent.task.status'];
export type StoryUpsertedEvent = AgentEventDataMap['agent.story.upserted'];
export type AnalysisFinishedEvent = AgentEventDataMap['agent.analysis.finished'];
export type RepoFreezeEvent = AgentEventDataMap['agent.repo.freeze'];
