import type { NotificationChannel } from './notifications';
/**
 * The closed word lists of the contract. Each is a tuple (for validation) and a union type; the
 * ones people read have their words in every language next to them (issue #30: the inbox, the
 * notifier and the one-tap pages take them from here). Browser-safe: imports types only.
 */
import type { ReasonWords as Words } from './refusals';

/** §3.1 the four asking agents (tool `declare_open_question` / `answer_open_question`). */
export const ASKER_ROLES = ['criativo', 'po', 'arquiteto', 'dev_lead'] as const;
export type AskerRole = (typeof ASKER_ROLES)[number];

/** §3.1 `autor` of a question: an asker (tool), `qa-agent` (QA verdict) or `analyst` (pipeline). */
export const QUESTION_AUTHORS = [...ASKER_ROLES, 'qa-agent', 'analyst'] as const;
export type QuestionAuthor = (typeof QUESTION_AUTHORS)[number];

/** The name of each question author (agent) for a person, in every language. */
export const QUESTION_AUTHOR_NAMES: Readonly<Record<QuestionAuthor, Words>> = {
  criativo: { en: 'Criativo', 'pt-BR': 'Criativo' },
  po: { en: 'PO', 'pt-BR': 'PO' },
  arquiteto: { en: 'Arquiteto', 'pt-BR': 'Arquiteto' },
  dev_lead: { en: 'Dev Lead', 'pt-BR': 'Dev Lead' },
  'qa-agent': { en: 'QA', 'pt-BR': 'QA' },
  analyst: { en: 'Analyst', 'pt-BR': 'Analista' },
};

/** [openq] issue #17 SPEC §2's project roles, weakest first (as the tokens carry them). */
export const PROJECT_ROLES = ['viewer', 'developer', 'maintainer', 'owner'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** A role's name (`name`) and the complement of "you are" (`withArticle`), in every language. */
export const PROJECT_ROLE_NAMES: Readonly<Record<ProjectRole, { name: Words; withArticle: Words }>> = {
  viewer: { name: { en: 'viewer', 'pt-BR': 'leitor' }, withArticle: { en: 'a viewer', 'pt-BR': 'leitor' } },
  developer: {
    name: { en: 'developer', 'pt-BR': 'desenvolvedor' },
    withArticle: { en: 'a developer', 'pt-BR': 'desenvolvedor' },
  },
  maintainer: {
    name: { en: 'maintainer', 'pt-BR': 'mantenedor' },
    withArticle: { en: 'a maintainer', 'pt-BR': 'mantenedor' },
  },
  owner: { name: { en: 'owner', 'pt-BR': 'dono' }, withArticle: { en: 'an owner', 'pt-BR': 'dono' } },
};

/** A channel's name in a sentence ("sent by e-mail"), in every language (the channels: notifications.ts). */
export const NOTIFICATION_CHANNEL_NAMES: Readonly<Record<NotificationChannel, Words>> = {
  email: { en: 'e-mail', 'pt-BR': 'e-mail' },
  slack: { en: 'Slack', 'pt-BR': 'Slack' },
  webhook: { en: 'webhook', 'pt-BR': 'webhook' },
};

/** §3.1 where a question was born. */
export const QUESTION_ORIGINS = ['tool', 'qa_verdict', 'analyst'] as const;
export type QuestionOrigin = (typeof QUESTION_ORIGINS)[number];

/** The only `autor` values each origin admits. */
export const AUTHORS_BY_ORIGIN: Readonly<Record<QuestionOrigin, readonly QuestionAuthor[]>> = {
  tool: ASKER_ROLES,
  qa_verdict: ['qa-agent'],
  analyst: ['analyst'],
};

/** §3.2 / §11.5 a question is open until it is answered or withdrawn (each at most once, never both). */
export const QUESTION_STATUSES = ['open', 'answered', 'withdrawn'] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

/**
 * [openq] §11.2 what the question log (the owner of the fact) says of a question id asked about
 * in a project: `absent` when no question has that id in that project.
 */
export const QUESTION_FACT_STATUSES = ['absent', ...QUESTION_STATUSES] as const;
export type QuestionFactStatus = (typeof QUESTION_FACT_STATUSES)[number];

/** §4 `status` filter of the open-questions list. */
export const QUESTION_LIST_FILTERS = ['open', 'answered', 'withdrawn', 'all'] as const;
export type QuestionListFilter = (typeof QUESTION_LIST_FILTERS)[number];

/**
 * [openq] issue #18 whose questions a list shows: every one (`all`), those the caller may answer
 * (`mine`: the caller authored the session), or those they cannot (`others`).
 */
export const QUESTION_WHO_FILTERS = ['all', 'mine', 'others'] as const;
export type QuestionWhoFilter = (typeof QUESTION_WHO_FILTERS)[number];

/**
 * [openq] issue #18 the order of the open list: oldest first (§4's order, the default again per
 * §12.1), or what blocks most first (`blocking`, asked for by the inbox). Answered and withdrawn
 * questions block nothing: their lists stay oldest first.
 */
export const QUESTION_LIST_SORTS = ['blocking', 'oldest'] as const;
export type QuestionListSort = (typeof QUESTION_LIST_SORTS)[number];

/**
 * [openq] issue #18 what waits on an open question: a gate cycle parked on it, the analysis of a
 * task in Needs Input on it, or a task queued behind that one (the per-repo serial gate, or a
 * dependency).
 */
export const BLOCKED_WORK_KINDS = ['gate', 'analysis', 'queued'] as const;
export type BlockedWorkKind = (typeof BLOCKED_WORK_KINDS)[number];

/** §4 readiness actions. */
export const READINESS_ACTIONS = ['im_ready', 'confirm_architecture_ready'] as const;
export type ReadinessAction = (typeof READINESS_ACTIONS)[number];

/**
 * §5 the gate kinds, in pipeline order, each with the gate that runs after it approves (`null`:
 * the last; merge after it is always human). A new kind is a row here (and a migration widening
 * the CHECK of the gates' tables: gate-kinds.spec.ts holds them equal).
 */
export const GATE_TABLE = [
  { gate: 'qa', next: 'secops', name: { en: 'QA gate', 'pt-BR': 'Gate de QA' } },
  { gate: 'secops', next: null, name: { en: 'SecOps gate', 'pt-BR': 'Gate de SecOps' } },
] as const satisfies readonly { gate: string; next: string | null; name: Words }[];
type GateRow = (typeof GATE_TABLE)[number];

/** §5 gates, in pipeline order. */
export const GATES: readonly GateRow['gate'][] = GATE_TABLE.map((row) => row.gate);
export type Gate = GateRow['gate'];

/** A gate kind's name for a person ("QA gate"), in every language. */
export const GATE_NAMES = Object.fromEntries(GATE_TABLE.map((row) => [row.gate, row.name])) as Readonly<
  Record<Gate, Words>
>;

export const VEREDITOS = ['approved', 'changes_requested', 'blocked', 'needs_user_decision'] as const;
export type Veredito = (typeof VEREDITOS)[number];

export const GATE_STATES = ['running', 'approved', 'changes_requested', 'blocked', 'parked'] as const;
export type GateState = (typeof GATE_STATES)[number];

export const PARKED_REASONS = ['idle', 'user_decision'] as const;
export type ParkedReason = (typeof PARKED_REASONS)[number];

/** §5 `run_<gate>`: once a gate approves, the engine runs the next one. */
export type RunGateAction = `run_${NonNullable<GateRow['next']>}`;

const runNext = (row: GateRow): RunGateAction[] => (row.next === null ? [] : [`run_${row.next}`]);

/** §5 `gate.verdict_recorded.nextAction`. */
export const GATE_NEXT_ACTIONS = [
  'correct',
  ...GATE_TABLE.flatMap(runNext),
  'done',
  'blocked',
  'parked',
] as const;
export type GateNextAction = (typeof GATE_NEXT_ACTIONS)[number];

/** §5 `nextAction` once `gate` approves: run the gate after it, or `done` after the last. */
export function nextActionOnApproval(gate: Gate): GateNextAction {
  const row = GATE_TABLE.find((r) => r.gate === gate)!;
  return runNext(row)[0] ?? 'done';
}

/**
 * §5 / §11.1 / §11.5 what resumed a parked cycle: the last answer, a person (idle park), a
 * maintainer's override, or the withdrawal of the last question it waited on.
 */
export const RESUME_TRIGGERS = ['answer', 'human', 'override', 'withdrawn'] as const;
export type ResumeTrigger = (typeof RESUME_TRIGGERS)[number];

/** §11.1 why a QA round was refused (`gate.verdict_rejected.reason`). */
export const VERDICT_REJECTION_REASONS = ['pergunta_nao_encontrada'] as const;
export type VerdictRejectionReason = (typeof VERDICT_REJECTION_REASONS)[number];

/** §8 `agent.task.status.status`. */
export const TASK_STATUSES = ['todo', 'in_progress', 'in_review', 'done', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** §8 `agent.story.upserted.status`. */
export const STORY_STATUSES = ['draft', 'ready', 'in_progress', 'done'] as const;
export type StoryStatus = (typeof STORY_STATUSES)[number];

/** §7 who set or cleared `pausedAt`. */
export const PAUSE_SOURCES = ['engine', 'operator'] as const;
export type PauseSource = (typeof PAUSE_SOURCES)[number];

/** §7 the analyst's four deliverables and the signal file. */
export const ANALYST_DELIVERABLES = [
  '01-brd.md',
  '02-trz.md',
  '03-acceptance-criteria.md',
  '04-test-plan.yaml',
] as const;
export const ANALYST_QUESTIONS_FILE = '01-questions.md';
export const ANALYST_PACKAGE_FILES = [...ANALYST_DELIVERABLES, ANALYST_QUESTIONS_FILE] as const;
export type AnalystDeliverable = (typeof ANALYST_DELIVERABLES)[number];
export type AnalystPackageFile = (typeof ANALYST_PACKAGE_FILES)[number];

/** §7 queue snapshot. */
export const PIPELINE_TASK_STATES = ['active', 'paused', 'waiting', 'done', 'cancelled'] as const;
export type PipelineTaskState = (typeof PIPELINE_TASK_STATES)[number];

/** §7 blocking reasons, in precedence order (freeze > dependency > active task > none). */
export const BLOCKING_REASONS = ['freeze', 'dependency', 'active_task', 'none'] as const;
export type BlockingReason = (typeof BLOCKING_REASONS)[number];

/** §3.1 / §6.4 who acts: a person or an agent (`agent/po` corrects stories). */
export const ACTOR_KINDS = ['user', 'agent'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** viewer < developer < maintainer < owner. */
export function roleAtLeast(role: ProjectRole, minimum: ProjectRole): boolean {
  return PROJECT_ROLES.indexOf(role) >= PROJECT_ROLES.indexOf(minimum);
}

/** [openq] SPEC §11.6 the project's policies a maintainer turns on or off. */
export const PROJECT_POLICIES = ['delegacao', 'overrideDeMantenedor'] as const;
export type ProjectPolicy = (typeof PROJECT_POLICIES)[number];

/** §3.1 the groups of ids a question affects (`afeta`). */
export const AFFECTS_KEYS = ['regras', 'historias', 'tarefas'] as const;
export type AffectsKey = (typeof AFFECTS_KEYS)[number];
