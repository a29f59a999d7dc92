import { Nullable, IsOneOf } from '../validators';
import { LANGUAGES, type Language } from '../refusals';

/**
 * [openq] issue #30 `PUT /me/language` (the caller's, on every project) and `PUT
 * /projects/:projectId/language` (the project's, maintainers): the language openq writes to a
 * person in — e-mails, Slack messages, digests, one-tap pages. A person's own wins; else the
 * project's; else English. `null` forgets it.
 */
export class LanguageBody {
  @Nullable()
  @IsOneOf(LANGUAGES)
  language!: Language | null;
}
