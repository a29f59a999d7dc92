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
