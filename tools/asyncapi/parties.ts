import {
  AGENT_EVENT_TABLE,
  Commands,
  LIVE_FAMILIES,
  OPENQ_EVENT_TABLE,
  type AgentEventType,
  type ConsumingService,
  type EventRow,
  type EventType,
  type OpenqEventType,
  type Party,
} from '@openq/contracts';

export type { ConsumingService, Party };

/**
 * Who publishes and who consumes each subject, derived from the event tables of libs/contracts
 * (`AGENT_EVENT_TABLE`, `OPENQ_EVENT_TABLE`: SPEC §1, §5, §7, §8). `parties.spec.ts` checks them
 * against the services' code (`@EventPattern(...)`, the commands each service requests, the
 * gateway's live families).
 */

export const PARTY_DESCRIPTIONS: Record<Party, string> = {
  engine: 'the external engine that runs the agents (libs/agent-sdk is its client)',
  questions: 'services/questions: the question log and decision records',
  gates: 'services/gates: gate cycles and the analyst pipeline profile',
  context: 'services/context: stories, the decision index, the agents’ context',
  notifier: 'services/notifier: reaches people (e-mail, Slack, webhooks) about questions and parked gates',
  gateway: 'services/gateway: the HTTP edge (REST for the UI and the engine, SSE live updates)',
};

const AGENT_ROWS: readonly EventRow<AgentEventType>[] = Object.values(AGENT_EVENT_TABLE);
const OPENQ_ROWS: readonly EventRow<OpenqEventType>[] = Object.values(OPENQ_EVENT_TABLE);
const ROWS: readonly EventRow<EventType>[] = [...AGENT_ROWS, ...OPENQ_ROWS];

const publishers = <T extends EventType>(rows: readonly EventRow<T>[]) =>
  Object.fromEntries(rows.map((row) => [row.type, row.publisher])) as Record<T, Party>;

/** SPEC §8: the engine is the only publisher on AGENT_EVENTS. */
export const AGENT_EVENT_PUBLISHER: Record<AgentEventType, Party> = publishers(AGENT_ROWS);

/** OPENQ_EVENTS: each type has one owning service, which publishes it through its outbox. */
export const OPENQ_EVENT_PUBLISHER: Record<OpenqEventType, Party> = publishers(OPENQ_ROWS);

export function publisherOf(type: EventType): Party {
  return (
    (AGENT_EVENT_PUBLISHER as Record<string, Party>)[type] ?? OPENQ_EVENT_PUBLISHER[type as OpenqEventType]
  );
}

const consumedBy = (service: ConsumingService) =>
  ROWS.filter((row) => row.consumers.includes(service)).map((row) => row.type);

/** Durable consumers (`@EventPattern(type)`: one durable `<service>__<type>` each). */
export const DURABLE_CONSUMERS: Record<ConsumingService, readonly EventType[]> = {
  questions: consumedBy('questions'),
  gates: consumedBy('gates'),
  context: consumedBy('context'),
  notifier: consumedBy('notifier'),
};

/** The OPENQ_EVENTS families the gateway streams to browsers (SSE; `story.*` is not sent). */
export const GATEWAY_SSE_FAMILIES: readonly string[] = LIVE_FAMILIES;

/**
 * The openq events addressed to the engine (outside this repository): only where SPEC names
 * something the engine does with them. Others may be read by it too; SPEC does not say.
 */
export const ENGINE_CONSUMES: Partial<Record<OpenqEventType, string>> = Object.fromEntries(
  OPENQ_ROWS.flatMap((row) => (row.engine ? [[row.type, row.engine]] : [])),
);

export function consumersOf(type: EventType): Party[] {
  const services = (Object.keys(DURABLE_CONSUMERS) as ConsumingService[]).filter((s) =>
    DURABLE_CONSUMERS[s].includes(type),
  );
  const sse = GATEWAY_SSE_FAMILIES.includes(type.split('.')[0]!) ? (['gateway'] as const) : [];
  const engine = type in ENGINE_CONSUMES ? (['engine'] as const) : [];
  return [...engine, ...services, ...sse];
}

/**
 * Who sends each request (`openq.<service>.<verb>`): the gateway sends every one (for the UI's
 * user routes and the engine's /internal routes) except those only services send each other;
 * gates also declares the questions of a QA verdict and of the analyst.
 */
export const OTHER_REQUESTERS: Readonly<Record<string, readonly Party[]>> = {
  [Commands.questions.declare.type]: ['gates'],
  // §11.2 read-your-writes: a service asks the owner before refusing on its read model.
  [Commands.questions.status.type]: ['gates', 'context'],
};

/**
 * Requests the gateway never sends: between services only. None today: the one-tap confirm page
 * (§11.6) reads a question's status too.
 */
export const SERVICE_ONLY_REQUESTS: ReadonlySet<string> = new Set<string>();

export function requestersOf(subject: string): Party[] {
  const gateway: Party[] = SERVICE_ONLY_REQUESTS.has(subject) ? [] : ['gateway'];
  return [...gateway, ...(OTHER_REQUESTERS[subject] ?? [])];
}
