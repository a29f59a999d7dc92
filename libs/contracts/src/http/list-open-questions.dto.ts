import { IsOptional } from 'class-validator';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN } from '../limits';
import { QUESTION_LIST_FILTERS, type QuestionListFilter } from '../vocabulary';
import { IntFromString, IntRange, IsCursor, IsOneOf } from '../validators';

/**
 * `GET /projects/:projectId/open-questions?status=&limit=&cursor=` (query strings).
 * Absent parameters take their defaults; a bad one is 400 `parametro_invalido`
 * (validate with `validateAs(ListOpenQuestionsQuery, query, 'parametro_invalido')`).
 */
export class ListOpenQuestionsQuery {
  @IsOneOf(QUESTION_LIST_FILTERS)
  status: QuestionListFilter = 'open';

  @IntFromString()
  @IntRange(LIST_LIMIT_MIN, LIST_LIMIT_MAX)
  limit: number = LIST_LIMIT_DEFAULT;

  @IsOptional()
  @IsCursor()
  cursor?: string;
}
