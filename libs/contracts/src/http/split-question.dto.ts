import { IsToolCallId } from '../validators';

/**
 * `POST /projects/:projectId/open-questions/:questionId/split` (§12.3): the tool call of the asker
 * that joined this question by mistake; it gets an open question of its own.
 */
export class SplitQuestionBody {
  @IsToolCallId()
  toolCallId!: string;
}
