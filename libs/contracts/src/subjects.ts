import { isId } from './ids';

/** Streams of SPEC §8: who may publish on which subjects. */
export const STREAMS = {
  agentEvents: { name: 'AGENT_EVENTS', subjects: ['agent.>'] },
  openqEvents: {
    name: 'OPENQ_EVENTS',
    subjects: ['question.>', 'decision.>', 'gate.>', 'pipeline.>', 'story.>', 'delegation.>', 'project.>'],
  },
} as const;

export type StreamKey = keyof typeof STREAMS;

/** `<type>.<projectId>`: the subject an event of `type` about `projectId` is published on. */
export function eventSubject(type: string, projectId: string): string {
  if (!isId(projectId)) throw new Error(`projectId is not a subject-safe id: ${JSON.stringify(projectId)}`);
  return `${type}.${projectId}`;
}

/**
 * [openq] issue #34 the `@EventPattern` of one durable consumer over the whole OPENQ_EVENTS stream,
 * every type of every project in stream order (the notifier's engine subscriptions): its consumer
 * has no filter subject and is named `<service>__openq_events`.
 */
export const EVERY_OPENQ_EVENT = 'openq_events';

/**
 * The services with a consumer of `EVERY_OPENQ_EVENT`: their types of that stream ride it
 * (libs/messaging folds them in; docs/decisions.md, "A service's types ride its whole-stream
 * durable"), so they hold no durable of their own. The notifier handles the whole stream (the
 * engine fan-out); the context service, a background service with a handler for each of nine types
 * and none of the whole stream, takes them in one batch rather than one per type.
 */
export const WHOLE_STREAM_CONSUMERS: readonly string[] = ['notifier', 'context'];

/** A filter that matches every project's events of `type` (`question.declared.*`). */
export function eventFilter(type: string): string {
  return `${type}.*`;
}

/** The event type of a subject built by `eventSubject` (drops the trailing projectId token). */
export function typeOfSubject(subject: string): string {
  const cut = subject.lastIndexOf('.');
  return cut < 0 ? subject : subject.slice(0, cut);
}

/** `openq.<service>.<verb>`: request/reply between the gateway and the services. */
export function requestSubject(service: string, verb: string): string {
  return `openq.${service}.${verb}`;
}

export function streamOfType(type: string): StreamKey {
  return type.startsWith('agent.') ? 'agentEvents' : 'openqEvents';
}
