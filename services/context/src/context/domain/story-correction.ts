import { refusal, type Refusal } from '@openq/contracts';
import type { Story, StoryContent, StoryStatus, TaskStatus } from './story';
import { STORY_CONTENT_FIELDS, storyContent } from './story';

export type StoryChanges = Partial<StoryContent>;

/** The two doors of ADR 0214 §8: a user (developer role, checked at the edge) and the PO agent. */
export type CorrectionActor = { kind: 'user'; id: string } | { kind: 'agent'; id: 'po' };

export interface StoryCorrectionRequest {
  storyId: string;
  /** The question whose answer motivates the correction; needed to correct a `ready` story. */
  questionId: string | null;
  changes: StoryChanges;
  actor: CorrectionActor;
}

/** A cited question as the project's question index knows it. */
export interface CitedQuestion {
  questionId: string;
  answered: boolean;
}

export interface StoryCorrectionFacts {
  /** null: no such story in the project. */
  story: Story | null;
  /** Statuses of the story's tasks. */
  taskStatuses: readonly TaskStatus[];
  /** The cited question looked up in the project; null when none was cited or it is unknown. */
  citedQuestion: CitedQuestion | null;
}

/**
 * Payload of `story.corrected`. `changes` holds only the fields whose value really changed; the
 * time is the envelope's `occurredAt`.
 */
export interface StoryCorrectedPayload {
  storyId: string;
  questionId: string | null;
  actor: CorrectionActor;
  changes: StoryChanges;
}

export interface StoryCorrection {
  /** The story content after the correction. */
  story: StoryContent;
  /** null: the story already reads like that (a retry), nothing to publish. */
  event: StoryCorrectedPayload | null;
}

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
 */
export function decideStoryCorrection(
  request: StoryCorrectionRequest,
  facts: StoryCorrectionFacts,
): StoryCorrection | Refusal {
  // null counts as "not given", as at the edge (`isPresent`): an optional field sent as null
  if (!STORY_CONTENT_FIELDS.some((field) => request.changes[field] != null))
    return refusal(400, 'correcao_vazia', 'changes must name at least one of title, rf, rnf, dod, dor');

  const { story } = facts;
  if (story === null || story.storyId !== request.storyId) {
    return refusal(404, 'historia_nao_encontrada', `story ${request.storyId} not found`);
  }
  if (story.archived) return refusal(409, 'historia_arquivada', 'an archived story cannot be corrected');
  if (facts.taskStatuses.some((status) => TASK_IN_EXECUTION.includes(status))) {
    return refusal(
      409,
      'historia_com_tarefa_em_execucao',
      'a task of this story is in progress or in review',
    );
  }
  const refused = statusRefusal(story.status, request.questionId, facts.citedQuestion);
  if (refused) return refused;

  const changes = changedFields(story, request.changes);
  const corrected = { ...storyContent(story), ...changes };
  if (Object.keys(changes).length === 0) return { story: corrected, event: null };
  return {
    story: corrected,
    event: {
      storyId: story.storyId,
      questionId: request.questionId,
      actor: request.actor,
      changes,
    },
  };
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
  for (const field of ['rf', 'rnf', 'dod', 'dor'] as const) {
    const next = requested[field];
    if (next != null && !sameList(next, current[field])) changes[field] = [...next];
  }
  return changes;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
