import { refusal, type Actor, type DomainEvent, type Refusal } from '@openq/contracts';
import type { Story, StoryContent, StoryStatus, TaskStatus } from './story';
import { STORY_CONTENT_FIELDS } from './story';

export type StoryChanges = Partial<StoryContent>;

/** The two doors of ADR 0214 §8: a user (developer role, checked at the edge) and the PO agent. */
export type CorrectionActor = { kind: 'user'; id: string } | { kind: 'agent'; id: 'po' };

/** Only two doors exist: a user, or the PO agent (the internal route); archives too (§11.3). */
export function correctionActor(actor: Actor): CorrectionActor | Refusal {
  if (actor.kind === 'user') return { kind: 'user', id: actor.id };
  if (actor.id === 'po') return { kind: 'agent', id: 'po' };
  return refusal(400, 'corpo_invalido', 'actor: only agent/po corrects a story on behalf of an agent');
}

/** A cited question as the project's question index knows it. */
export interface CitedQuestion {
  questionId: string;
  answered: boolean;
}

/**
 * Correct a story's content (§6.4). The facts beyond the story itself travel with the command,
 * loaded by the handler under the story's lock: the statuses of its tasks, and the cited
 * question as the project knows it (null when none was cited or it is unknown).
 */
export interface CorrectStory {
  type: 'correct';
  storyId: string;
  /** The question whose answer motivates the correction; needed to correct a `ready` story. */
  questionId: string | null;
  changes: StoryChanges;
  actor: CorrectionActor;
  /** Statuses of the story's tasks. */
  taskStatuses: readonly TaskStatus[];
  citedQuestion: CitedQuestion | null;
}

/**
 * `story.corrected`: `changes` holds only the fields whose value really changed; the time is the
 * event's `occurredAt`.
 */
export type StoryCorrected = DomainEvent<
  'story.corrected',
  { storyId: string; questionId: string | null; actor: CorrectionActor; changes: StoryChanges }
>;

const LIST_FIELDS = ['rf', 'rnf', 'dod', 'dor'] as const;

const TASK_IN_EXECUTION: readonly TaskStatus[] = ['in_progress', 'in_review'];

/**
 * ADR 0212 as revised by ADR 0214 §8, one rule for both doors. Checks, in this order:
 * 400 `correcao_vazia` (no field to change), 404 `historia_nao_encontrada`,
 * 409 `historia_arquivada`, 409 `historia_com_tarefa_em_execucao` (a task in_progress or in_review),
 * then the status: `draft` may always be corrected; `ready` only when the request cites a question
 * that is answered (404 `pergunta_nao_encontrada` if it is unknown, 409 `pergunta_nao_respondida`
 * if it is still open, 409 `historia_nao_draft` if none is cited); any other status →
 * 409 `historia_nao_draft`. A draft correction that cites a question is held to the same truth:
 * the citation ends up on `story.corrected`, so it must name an answered question of the project.
 * A correction that changes nothing (a retry) decides no event.
 */
export function decideCorrection(
  command: CorrectStory,
  story: Story | null,
  now: Date,
): StoryCorrected[] | Refusal {
  // null counts as "not given", as at the edge (`isPresent`): an optional field sent as null
  if (!STORY_CONTENT_FIELDS.some((field) => command.changes[field] != null))
    return refusal(400, 'correcao_vazia', 'changes must name at least one of title, rf, rnf, dod, dor');

  if (story === null || story.storyId !== command.storyId) {
    return refusal(404, 'historia_nao_encontrada', `story ${command.storyId} not found`);
  }
  if (story.archived) return refusal(409, 'historia_arquivada', 'an archived story cannot be corrected');
  if (command.taskStatuses.some((status) => TASK_IN_EXECUTION.includes(status))) {
    return refusal(
      409,
      'historia_com_tarefa_em_execucao',
      'a task of this story is in progress or in review',
    );
  }
  const refused = statusRefusal(story.status, command.questionId, command.citedQuestion);
  if (refused) return refused;

  const changes = changedFields(story, command.changes);
  if (Object.keys(changes).length === 0) return [];
  return [
    {
      type: 'story.corrected',
      data: { storyId: story.storyId, questionId: command.questionId, actor: command.actor, changes },
      occurredAt: now,
    },
  ];
}

/** The story with the corrected fields (`changes` names only those that changed). */
export function applyCorrection(story: Story, event: StoryCorrected): Story {
  const { changes } = event.data;
  const corrected: Story = { ...story };
  if (changes.title != null) corrected.title = changes.title;
  for (const field of LIST_FIELDS) {
    const next = changes[field];
    if (next != null) corrected[field] = [...next];
  }
  return corrected;
}

/** Archiving stays draft-only (ADR 0212, unchanged by ADR 0214 §8). */
export function canArchive(story: Pick<Story, 'status'>): boolean {
  return story.status === 'draft';
}

function statusRefusal(
  status: StoryStatus,
  questionId: string | null,
  cited: CitedQuestion | null,
): Refusal | null {
  if (status !== 'draft' && status !== 'ready') return notDraft();
  if (questionId === null) return status === 'draft' ? null : notDraft();
  if (cited === null || cited.questionId !== questionId) {
    return refusal(404, 'pergunta_nao_encontrada', `question ${questionId} not found`);
  }
  if (!cited.answered) {
    return refusal(
      409,
      'pergunta_nao_respondida',
      `question ${questionId} is still open: a ready story is corrected only by an answered question`,
    );
  }
  return null;
}

function notDraft(): Refusal {
  return refusal(
    409,
    'historia_nao_draft',
    'only a draft story may be corrected, or a ready one citing an answered questionId',
  );
}

function changedFields(current: StoryContent, requested: StoryChanges): StoryChanges {
  const changes: StoryChanges = {};
  if (requested.title != null && requested.title !== current.title) changes.title = requested.title;
  for (const field of LIST_FIELDS) {
    const next = requested[field];
    if (next != null && !sameList(next, current[field])) changes[field] = [...next];
  }
  return changes;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
