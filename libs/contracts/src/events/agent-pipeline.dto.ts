import { IsBoolean, IsObject, IsOptional, ValidateBy } from 'class-validator';
import {
  ANALYST_QUESTIONS_MAX,
  FREEZE_MOTIVO_MAX_LENGTH,
  FREEZE_MOTIVO_MIN_LENGTH,
  LABELS_MAX,
  LABEL_MAX_LENGTH,
  PERGUNTA_MAX_LENGTH,
  PERGUNTA_MIN_LENGTH,
  STORY_ITEMS_MAX,
  STORY_ITEM_MAX_LENGTH,
  STORY_RULES_MAX,
  STORY_TASKS_MAX,
  STORY_TITLE_MAX_LENGTH,
  SUGESTAO_MAX_LENGTH,
  TASK_DEPS_MAX,
} from '../limits';
import {
  ANALYST_PACKAGE_FILES,
  STORY_STATUSES,
  TASK_STATUSES,
  type AnalystPackageFile,
  type StoryStatus,
  type TaskStatus,
} from '../vocabulary';
import {
  ClassRule,
  IntRange,
  IsEntityId,
  IsEntityIdList,
  IsOneOf,
  NestedList,
  OptionalTrimmedText,
  TrimmedText,
  TrimmedTextList,
  compose,
  isPresent,
  isTimestamp,
} from '../validators';

const Labels = () => TrimmedTextList(LABELS_MAX, LABEL_MAX_LENGTH);
const StoryTexts = () => TrimmedTextList(STORY_ITEMS_MAX, STORY_ITEM_MAX_LENGTH);

/** `agent.task.created` (§7): `order` is the FIFO key inside a repo (lower goes first). */
export class AgentTaskCreatedDto {
  @IsEntityId()
  taskId!: string;

  @IsEntityId()
  repo!: string;

  @IntRange(Number.MIN_SAFE_INTEGER)
  order!: number;

  @IsEntityIdList(TASK_DEPS_MAX)
  deps!: string[];

  @Labels()
  labels!: string[];
}

/**
 * `agent.task.status`: the board status, the pipeline stage, or both. `stage` is an id-shaped
 * word (`analysis`, `architecture`, `done`, …) [openq]: SPEC names stages but does not close the list.
 */
@ClassRule<AgentTaskStatusDto>(
  'status|stage',
  (o) => isPresent(o.status) || isPresent(o.stage),
  'send status, stage or both',
)
export class AgentTaskStatusDto {
  @IsEntityId()
  taskId!: string;

  @IsOptional()
  @IsEntityId()
  storyId?: string | null;

  @IsOptional()
  @IsOneOf(TASK_STATUSES)
  status?: TaskStatus | null;

  @IsOptional()
  @IsEntityId()
  stage?: string | null;
}

/** `agent.story.upserted`: the whole story as it stands now (FR/RNF/DoD/DoR, rules, tasks). */
export class AgentStoryUpsertedDto {
  @IsEntityId()
  storyId!: string;

  @IsOneOf(STORY_STATUSES)
  status!: StoryStatus;

  @IsBoolean()
  archived!: boolean;

  @TrimmedText(1, STORY_TITLE_MAX_LENGTH)
  title!: string;

  @StoryTexts()
  rf!: string[];

  @StoryTexts()
  rnf!: string[];

  @StoryTexts()
  dod!: string[];

  @StoryTexts()
  dor!: string[];

  @IsEntityIdList(STORY_RULES_MAX)
  regras!: string[];

  @IsEntityIdList(STORY_TASKS_MAX)
  taskIds!: string[];
}

export class AnalystQuestionDto {
  @TrimmedText(PERGUNTA_MIN_LENGTH, PERGUNTA_MAX_LENGTH)
  pergunta!: string;

  @OptionalTrimmedText(SUGESTAO_MAX_LENGTH)
  sugestao?: string | null;
}

/** The package's file → mtime (ISO) or `null` (absent). A file left out counts as absent [openq]. */
export type AnalystPackage = Partial<Record<AnalystPackageFile, string | null>>;

function packageProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object';
  for (const [file, mtime] of Object.entries(value)) {
    if (!(ANALYST_PACKAGE_FILES as readonly string[]).includes(file)) {
      return `has an unknown file ${JSON.stringify(file)} (expected ${ANALYST_PACKAGE_FILES.join(', ')})`;
    }
    if (mtime !== null && !isTimestamp(mtime)) return `[${file}] must be an ISO-8601 timestamp or null`;
  }
  return null;
}

const IsAnalystPackage = () =>
  compose(
    IsObject(),
    ValidateBy({
      name: 'isAnalystPackage',
      validator: {
        validate: (value: unknown) => packageProblem(value) === null,
        defaultMessage: (args) =>
          `${args?.property ?? 'package'} ${packageProblem(args?.value) ?? 'is invalid'}`,
      },
    }),
  );

/** `agent.analysis.finished` (§7): what the analyst left behind, and its questions. */
export class AgentAnalysisFinishedDto {
  @IsEntityId()
  taskId!: string;

  @IsEntityId()
  repo!: string;

  @Labels()
  labels!: string[];

  @IsEntityId()
  sessionId!: string;

  @IsEntityId()
  sessionAuthorId!: string;

  @IsAnalystPackage()
  package!: AnalystPackage;

  @NestedList(() => AnalystQuestionDto, 0, ANALYST_QUESTIONS_MAX)
  questions!: AnalystQuestionDto[];
}

/**
 * `agent.repo.freeze` (§11.3): the engine freezes (`frozen: true`, with `motivo`) or unfreezes a
 * repo. `motivo` is required to freeze [openq]: a freeze always says why; optional to unfreeze.
 */
@ClassRule<AgentRepoFreezeDto>(
  'frozen|motivo',
  (o) => o.frozen !== true || isPresent(o.motivo),
  'motivo is required to freeze a repo',
)
export class AgentRepoFreezeDto {
  @IsEntityId()
  repo!: string;

  @IsBoolean()
  frozen!: boolean;

  @IsOptional()
  @TrimmedText(FREEZE_MOTIVO_MIN_LENGTH, FREEZE_MOTIVO_MAX_LENGTH)
  motivo?: string | null;
}
