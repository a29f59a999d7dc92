import type { VerbPair } from './command';

const pair = <S extends string, V extends string>(service: S, verb: V) =>
  ({ service, verb }) as const satisfies VerbPair;

/** Every request/reply endpoint, as `(service, verb)`; the subject is `openq.<service>.<verb>`. */
export const Verb = {
  questions: {
    declare: pair('questions', 'declare'),
    answer: pair('questions', 'answer'),
    answerByAgent: pair('questions', 'answer-by-agent'),
    withdraw: pair('questions', 'withdraw'),
    amend: pair('questions', 'amend'),
    split: pair('questions', 'split'),
    list: pair('questions', 'list'),
    listAcross: pair('questions', 'list-across'),
    count: pair('questions', 'count'),
    readiness: pair('questions', 'readiness'),
    status: pair('questions', 'status'),
    declaredBy: pair('questions', 'declared-by'),
    delegationGrant: pair('questions', 'delegation-grant'),
    delegationRevoke: pair('questions', 'delegation-revoke'),
    delegationList: pair('questions', 'delegation-list'),
    policiesGet: pair('questions', 'policies-get'),
    policiesChange: pair('questions', 'policies-change'),
  },
  gates: {
    list: pair('gates', 'list'),
    resume: pair('gates', 'resume'),
    waiting: pair('gates', 'waiting'),
    pipelineQueue: pair('gates', 'pipeline-queue'),
    pipelinePause: pair('gates', 'pipeline-pause'),
    pipelineResume: pair('gates', 'pipeline-resume'),
    history: pair('gates', 'history'),
    blocking: pair('gates', 'blocking'),
    pipelineFreeze: pair('gates', 'pipeline-freeze'),
    pipelineUnfreeze: pair('gates', 'pipeline-unfreeze'),
  },
  context: {
    devContext: pair('context', 'dev-context'),
    qaCut: pair('context', 'qa-cut'),
    turnContext: pair('context', 'turn-context'),
    correctStory: pair('context', 'correct-story'),
    archiveStory: pair('context', 'archive-story'),
    analytics: pair('context', 'analytics'),
  },
  notifier: {
    channels: pair('notifier', 'channels'),
    setChannels: pair('notifier', 'set-channels'),
    deliveries: pair('notifier', 'deliveries'),
    redeliver: pair('notifier', 'redeliver'),
    clockPolicy: pair('notifier', 'clock-policy'),
    setClockPolicy: pair('notifier', 'set-clock-policy'),
    clockState: pair('notifier', 'clock-state'),
    workingTime: pair('notifier', 'working-time'),
    setWorkingTime: pair('notifier', 'set-working-time'),
    engineSubscription: pair('notifier', 'engine-subscription'),
    setEngineSubscription: pair('notifier', 'set-engine-subscription'),
    deleteEngineSubscription: pair('notifier', 'delete-engine-subscription'),
    slackLink: pair('notifier', 'slack-link'),
    setSlackLink: pair('notifier', 'set-slack-link'),
    slackUser: pair('notifier', 'slack-user'),
    language: pair('notifier', 'language'),
    setLanguage: pair('notifier', 'set-language'),
    projectLanguage: pair('notifier', 'project-language'),
    setProjectLanguage: pair('notifier', 'set-project-language'),
  },
} as const;

export type ServiceName = keyof typeof Verb;

/** The service names, also the NATS queue groups of their request handlers. */
export const SERVICES: readonly ServiceName[] = ['questions', 'gates', 'context', 'notifier'];
