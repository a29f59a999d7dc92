import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional } from 'class-validator';
import { SEARCH_TEXT_MAX_LENGTH } from '../limits';
import {
  QUESTION_AUTHORS,
  QUESTION_WHO_FILTERS,
  type QuestionAuthor,
  type QuestionWhoFilter,
} from '../vocabulary';
import { IsEntityId, IsOneOf, OptionalTrimmedText, compose } from '../validators';

/**
 * A query-string list: `role=po&role=dev_lead` (an array) or `role=po,dev_lead` (a comma list),
 * or both; blanks dropped, duplicates once. Anything else stays as sent (and fails `IsArray`).
 */
const CommaList = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    if (value === undefined || value === null) return undefined;
    const parts = (Array.isArray(value) ? value : [value]).flatMap((v: unknown) =>
      typeof v === 'string' ? v.split(',') : [v],
    );
    const words = parts.map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== '');
    return [...new Set(words)];
  });

/**
 * [openq] issue #18 the filters of a question list, the same on the project's list
 * (`GET /projects/:projectId/open-questions`), the cross-project one (`GET /me/open-questions`)
 * and the `openq.questions.list*` commands behind them. Every one narrows the set `total` counts.
 */
export class QuestionFilterFields {
  /** `mine`: questions of sessions the caller authored (the ones they may answer); `others`: the rest. */
  @IsOneOf(QUESTION_WHO_FILTERS)
  who?: QuestionWhoFilter = 'all';

  /** The asking agent roles (`autor`), any of them. */
  @IsOptional()
  @compose(
    CommaList(),
    IsArray(),
    ArrayMaxSize(QUESTION_AUTHORS.length),
    IsOneOf(QUESTION_AUTHORS, { each: true }),
  )
  role?: QuestionAuthor[];

  /** §12.1 the session where the question was born (its log is that session's). */
  @IsOptional()
  @IsEntityId()
  session?: string;

  /** A task id the question affects (`afeta.tarefas`). */
  @IsOptional()
  @IsEntityId()
  task?: string;

  /** A story id the question affects (`afeta.historias`). */
  @IsOptional()
  @IsEntityId()
  story?: string;

  /** A rule the question affects (`afeta.regras`), as written there. */
  @OptionalTrimmedText(SEARCH_TEXT_MAX_LENGTH)
  rule?: string | null;

  /**
   * Full text over `pergunta` and `sugestao` (Portuguese and English stemming, accents ignored;
   * web-search syntax: `"a phrase"`, `-word`, `or`; the last word also matches as a prefix).
   */
  @OptionalTrimmedText(SEARCH_TEXT_MAX_LENGTH)
  q?: string | null;
}

/** True when any filter narrows the list (the unfiltered lists keep their counter-table path). */
export function isFiltered(f: Partial<QuestionFilterFields>): boolean {
  return (
    (f.who !== undefined && f.who !== 'all') ||
    (f.role?.length ?? 0) > 0 ||
    Boolean(f.session) ||
    Boolean(f.task) ||
    Boolean(f.story) ||
    Boolean(f.rule) ||
    Boolean(f.q)
  );
}
