/** A story as the context service keeps it (from `agent.story.upserted`, SPEC §8). */

export type StoryStatus = 'draft' | 'ready' | 'in_progress' | 'done';
export type TaskStatus = 'todo' | 'in_progress' | 'in_review' | 'done' | 'cancelled';

/** The correctable content; each requirement list holds one requirement per item. */
export interface StoryContent {
  title: string;
  rf: string[];
  rnf: string[];
  dod: string[];
  dor: string[];
}

export const STORY_CONTENT_FIELDS = [
  'title',
  'rf',
  'rnf',
  'dod',
  'dor',
] as const satisfies readonly (keyof StoryContent)[];

export interface Story extends StoryContent {
  storyId: string;
  status: StoryStatus;
  archived: boolean;
  /** The business rules the story follows (the wire's `regras`). */
  rules: string[];
}

export function storyContent(story: StoryContent): StoryContent {
  return {
    title: story.title,
    rf: [...story.rf],
    rnf: [...story.rnf],
    dod: [...story.dod],
    dor: [...story.dor],
  };
}

const SECTIONS: readonly [keyof Omit<StoryContent, 'title'>, string][] = [
  ['rf', 'FR'],
  ['rnf', 'NFR'],
  ['dod', 'DoD'],
  ['dor', 'DoR'],
];

/** The task and its story as text for an agent's prompt. */
export function renderTaskAndStory(
  taskId: string,
  story: (StoryContent & { storyId: string }) | null,
): string {
  if (story === null) return `Task ${taskId} (no story)`;
  const lines = [`Task ${taskId} — story ${story.storyId}: ${story.title}`];
  for (const [field, label] of SECTIONS) {
    const items = story[field];
    lines.push(items.length === 0 ? `${label}: (none)` : `${label}:`, ...items.map((item) => `- ${item}`));
  }
  return lines.join('\n');
}
