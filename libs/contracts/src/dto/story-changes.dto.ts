import { IsOptional } from 'class-validator';
import { STORY_ITEMS_MAX, STORY_ITEM_MAX_LENGTH, STORY_TITLE_MAX_LENGTH } from '../limits';
import { ClassRule, TrimmedText, TrimmedTextList, compose, isPresent } from '../validators';

/** §6.4 what a story correction may change; each given field replaces the story's one. */
export interface StoryChanges {
  title?: string;
  rf?: string[];
  rnf?: string[];
  dod?: string[];
  dor?: string[];
}

const CHANGE_FIELDS = ['title', 'rf', 'rnf', 'dod', 'dor'] as const;

const OptionalList = () => compose(IsOptional(), TrimmedTextList(STORY_ITEMS_MAX, STORY_ITEM_MAX_LENGTH));

@ClassRule<StoryChangesDto>(
  CHANGE_FIELDS.join('|'),
  (o) => CHANGE_FIELDS.some((f) => isPresent(o[f])),
  'changes must change at least one of title, rf, rnf, dod, dor',
)
export class StoryChangesDto implements StoryChanges {
  @IsOptional()
  @TrimmedText(1, STORY_TITLE_MAX_LENGTH)
  title?: string;

  @OptionalList()
  rf?: string[];

  @OptionalList()
  rnf?: string[];

  @OptionalList()
  dod?: string[];

  @OptionalList()
  dor?: string[];
}
