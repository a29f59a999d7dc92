import { ArrayMinSize, ArrayUnique } from 'class-validator';
import { ACCEPT_SUGGESTIONS_MAX } from '../limits';
import { compose, IsUuidList } from '../validators';

/**
 * [openq] issue #18 `POST /projects/:projectId/open-questions/accept-suggestions`: accept the
 * suggestion of several questions at once. 1–50 distinct question UUIDs (400 `corpo_invalido`
 * otherwise). Each one goes through the same answer as a click on "Accept suggestion".
 */
export class AcceptSuggestionsBody {
  @compose(
    IsUuidList(ACCEPT_SUGGESTIONS_MAX),
    ArrayMinSize(1, { message: '$property must hold at least one questionId' }),
    ArrayUnique(undefined, { message: '$property must not repeat a questionId' }),
  )
  questionIds!: string[];
}

/** What became of one question of a bulk accept: its own result, in the order asked. */
export interface AcceptSuggestionResult {
  questionId: string;
  /**
   * `answered`: its suggestion is the answer now (also when this is a retry of a batch whose
   * answer was already recorded: the same `decisionEventId` comes back); `already_answered`: it
   * had been answered before, by anyone (`pergunta_ja_respondida`); `refused`: not answered, `reason` says why.
   */
  status: 'answered' | 'already_answered' | 'refused';
  /** For `refused` (and `already_answered`): the same reason code a single answer gets. */
  reason?: string;
  message?: string;
  /** For `answered`: the decision recorded. */
  decisionEventId?: string;
}

export interface AcceptSuggestionsReply {
  results: AcceptSuggestionResult[];
}
