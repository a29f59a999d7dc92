import { RESPOSTA_MAX_LENGTH, RESPOSTA_MIN_LENGTH } from '../limits';
import { TrimmedText } from '../validators';

/**
 * `POST /projects/:projectId/open-questions/:questionId/amend` (§11.5): the session author's own
 * answer, which supersedes the decision an agent recorded. `resposta` 1–2,000 characters after
 * trim (400 `corpo_invalido` otherwise, as for an answer).
 */
export class AmendDecisionBody {
  @TrimmedText(RESPOSTA_MIN_LENGTH, RESPOSTA_MAX_LENGTH)
  resposta!: string;
}
