import { IsOptional } from 'class-validator';
import { IsUuidString, Nested } from '../validators';
import { StoryChangesDto } from '../dto/story-changes.dto';

/** `POST /projects/:projectId/stories/:storyId/corrections` and its `/internal/...` twin. */
export class StoryCorrectionBody {
  /** Cite an answered question to correct a `ready` story (§6.4). */
  @IsOptional()
  @IsUuidString()
  questionId?: string | null;

  @Nested(() => StoryChangesDto)
  changes!: StoryChangesDto;
}
