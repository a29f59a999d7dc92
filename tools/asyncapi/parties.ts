import {
  AgentEvent,
  Commands,
  OpenqEvent,
  type AgentEventType,
  type EventType,
  type OpenqEventType,
} from '@openq/contracts';

/**
 * Who publishes and who consumes each subject: a reviewed map (SPEC §1, §5, §7, §8 and the
 * services' READMEs). `render-asyncapi.spec.ts` checks the openq side against the services'
 * code (`@EventPattern(...)`, the commands each service requests, the gateway's live families).
 */
export type Party = 'engine' | 'questions' | 'gates' | 'context' | 'gateway';

/** The openq services that hold durable JetStream consumers. */
export type ConsumingService = 'questions' | 'gates' | 'context';

export const PARTY_DESCRIPTIONS: Record<Party, string> = {
  engine: 'the external engine that runs the agents (libs/agent-sdk is its client)',
  questions: 'services/questions: the question log and decision records',
  gates: 'services/gates: gate cycles and the analyst pipeline profile',
  context: 'services/context: stories, the decision index, the agents’ context',
  gateway: 'services/gateway: the HTTP edge (REST for the UI and the engine, SSE live updates)',
};

/** SPEC §8: the engine is the only publisher on AGENT_EVENTS. */
export const AGENT_EVENT_PUBLISHER: Record<AgentEventType, Party> = {
  [AgentEvent.QuestionDeclare]: 'engine',
  [AgentEvent.QuestionAnswer]: 'engine',
  [AgentEvent.QaVerdict]: 'engine',
  [AgentEvent.GateStarted]: 'engine',
  [AgentEvent.GateActivity]: 'engine',
  [AgentEvent.TaskCreated]: 'engine',
  [AgentEvent.TaskStatus]: 'engine',
  [AgentEvent.StoryUpserted]: 'engine',
  [AgentEvent.AnalysisFinished]: 'engine',
  [AgentEvent.RepoFreeze]: 'engine',
};

/** OPENQ_EVENTS: each type has one owning service, which publishes it through its outbox. */
export const OPENQ_EVENT_PUBLISHER: Record<OpenqEventType, Party> = {
  [OpenqEvent.QuestionDeclared]: 'questions',
  [OpenqEvent.QuestionAnswered]: 'questions',
  [OpenqEvent.QuestionRejected]: 'questions',
  [OpenqEvent.DecisionRecorded]: 'questions',
  [OpenqEvent.GateVerdictRecorded]: 'gates',
  [OpenqEvent.GateRescueParked]: 'gates',
  [OpenqEvent.GateResumed]: 'gates',
  [OpenqEvent.GateRedispatchRequested]: 'gates',
  [OpenqEvent.GateVerdictRejected]: 'gates',
  [OpenqEvent.PipelineTaskAdmitted]: 'gates',
  [OpenqEvent.PipelineNeedsInput]: 'gates',
  [OpenqEvent.PipelineInReview]: 'gates',
  [OpenqEvent.PipelineAdvanced]: 'gates',
  [OpenqEvent.PipelineAnalysisIncomplete]: 'gates',
  [OpenqEvent.PipelineTaskPaused]: 'gates',
  [OpenqEvent.PipelineTaskUnpaused]: 'gates',
  [OpenqEvent.PipelineAnalystRelaunch]: 'gates',
  [OpenqEvent.StoryCorrected]: 'context',
  [OpenqEvent.PipelineRepoFrozen]: 'gates',
  [OpenqEvent.PipelineRepoUnfrozen]: 'gates',
  [OpenqEvent.StoryArchived]: 'context',
};

export function publisherOf(type: EventType): Party {
  return (
    (AGENT_EVENT_PUBLISHER as Record<string, Party>)[type] ?? OPENQ_EVENT_PUBLISHER[type as OpenqEventType]
  );
}

/** Durable consumers (`@EventPattern(type)`: one durable `<service>__<type>` each). */
export const DURABLE_CONSUMERS: Record<ConsumingService, readonly EventType[]> = {
  questions: [AgentEvent.QuestionDeclare, AgentEvent.QuestionAnswer],
  gates: [
    AgentEvent.GateStarted,
    AgentEvent.GateActivity,
    AgentEvent.QaVerdict,
    AgentEvent.TaskCreated,
    AgentEvent.TaskStatus,
    AgentEvent.AnalysisFinished,
    OpenqEvent.QuestionAnswered,
    AgentEvent.RepoFreeze,
  ],
  context: [
    AgentEvent.StoryUpserted,
    AgentEvent.TaskStatus,
    OpenqEvent.DecisionRecorded,
    OpenqEvent.QuestionDeclared,
    OpenqEvent.QuestionAnswered,
  ],
};

/** The OPENQ_EVENTS families the gateway streams to browsers (SSE; `story.*` is not sent). */
export const GATEWAY_SSE_FAMILIES: readonly string[] = ['question', 'decision', 'gate', 'pipeline'];

/**
 * The openq events addressed to the engine (outside this repository): only where SPEC names
 * something the engine does with them. Others may be read by it too; SPEC does not say.
 */
export const ENGINE_CONSUMES: Partial<Record<OpenqEventType, string>> = {
  [OpenqEvent.QuestionRejected]: 'SPEC §8: tells the engine its tool call was refused',
  [OpenqEvent.GateVerdictRecorded]: 'SPEC §5: `nextAction` (correct, run_secops, done, blocked, parked)',
  [OpenqEvent.GateResumed]: 'SPEC §5: the engine re-runs the gate with the decision in context',
  [OpenqEvent.GateRedispatchRequested]: 'SPEC §5: the engine re-dispatches the stale cycle',
  [OpenqEvent.GateVerdictRejected]: 'SPEC §11.1: tells the engine its QA round was refused, and why',
  [OpenqEvent.PipelineTaskAdmitted]: 'SPEC §7: the engine may start the analyst',
  [OpenqEvent.PipelineAnalystRelaunch]: 'SPEC §7: the engine relaunches the analyst',
};

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

/** Requests the gateway never sends: between services only. */
export const SERVICE_ONLY_REQUESTS: ReadonlySet<string> = new Set([Commands.questions.status.type]);

export function requestersOf(subject: string): Party[] {
  const gateway: Party[] = SERVICE_ONLY_REQUESTS.has(subject) ? [] : ['gateway'];
  return [...gateway, ...(OTHER_REQUESTERS[subject] ?? [])];
}
