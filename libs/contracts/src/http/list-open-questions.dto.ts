import { IsOptional } from 'class-validator';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN } from '../limits';
import {
  QUESTION_LIST_FILTERS,
  QUESTION_LIST_SORTS,
  type QuestionListFilter,
  type QuestionListSort,
} from '../vocabulary';
import { QuestionFilterFields } from '../dto/question-filters.dto';
import { IntFromString, IntRange, IsCursor, IsEntityId, IsOneOf } from '../validators';

/**
 * `GET /projects/:projectId/open-questions?status=&limit=&cursor=&sort=` and the filters of issue
 * #18 (`who`, `role`, `task`, `story`, `rule`, `q`) and §12.1 (`session`; query strings).
 * Absent parameters take their defaults; a bad one is 400 `parametro_invalido`
 * (validate with `validateAs(ListOpenQuestionsQuery, query, 'parametro_invalido')`).
 */
export class ListOpenQuestionsQuery extends QuestionFilterFields {
  @IsOneOf(QUESTION_LIST_FILTERS)
  status: QuestionListFilter = 'open';

  @IntFromString()
  @IntRange(LIST_LIMIT_MIN, LIST_LIMIT_MAX)
  limit: number = LIST_LIMIT_DEFAULT;

  @IsOptional()
  @IsCursor()
  cursor?: string;

  /**
   * §4 / §12.1 `oldest` (the default: §4's order) or `blocking` (what blocks most first; the
   * inbox asks for it).
   */
  @IsOneOf(QUESTION_LIST_SORTS)
  sort: QuestionListSort = 'oldest';
}

/**
 * [openq] issue #18 `GET /me/open-questions?…the same…&project=`: the caller's questions in every
 * project where the token gives them a role, or in the one `project` named (which must be one).
 */
export class ListMyQuestionsQuery extends ListOpenQuestionsQuery {
  @IsOptional()
  @IsEntityId()
  project?: string;
}
