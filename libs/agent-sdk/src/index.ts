export * from './instruction';
export * from './tools';
export * from './client';
export * from './analyst';

/**
 * What an engine reads back from openq (SPEC §8): the event names, their envelope and payloads,
 * the streams and the subject rule, and the internal routes' replies (SPEC §6), re-exported so the
 * installed package needs no second import.
 */
export {
  AgentEvent,
  AGENT_EVENT_TYPES,
  OpenqEvent,
  STREAMS,
  eventSubject,
  eventFilter,
  verifySignature,
  signatureHeader,
  SIGNATURE_HEADER,
  DELIVERY_ID_HEADER,
  EVENT_HEADER,
  STREAM_SEQ_HEADER,
  DEFAULT_TOLERANCE_S,
  ENGINE_EVENT_SELECTORS,
  type VerifyResult,
  type EngineSubscriptionView,
  type EngineSubscriptionDeleted,
  type TurnOpenQuestion,
  type TurnDecision,
  type QuestionRejected,
  type GateResumed,
  type GateRescueParked,
  type QuestionAnswered,
  type QuestionDeclared,
  type DecisionRecorded,
  type AgentEventDataMap,
  type AnswerByAgentReply,
  type ArchiveStoryReply,
  type CorrectStoryReply,
  type DevContext,
  type QaCut,
  type StoryChanges,
  type TurnContext,
  type AgentEventType,
  type EventEnvelope,
  type OpenqEventDataMap,
  type OpenqEventType,
} from '@openq/contracts';
