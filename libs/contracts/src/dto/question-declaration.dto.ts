import { IsIn, IsOptional } from 'class-validator';
import {
  INSIST_MOTIVO_MAX_LENGTH,
  INSIST_MOTIVO_MIN_LENGTH,
  PERGUNTA_MAX_LENGTH,
  PERGUNTA_MIN_LENGTH,
  SUGESTAO_MAX_LENGTH,
} from '../limits';
import { AUTHORS_BY_ORIGIN, type QuestionOrigin } from '../vocabulary';
import { ClassRule, IsEntityId, Nested, OptionalTrimmedText, TrimmedText } from '../validators';
import { AfetaDto } from './afeta.dto';

/**
 * §3.1 the fields every question declaration carries, whoever declares it (tool, QA verdict,
 * analyst). Subclasses add `autor` (whose allowed values depend on the door) and the door's ids.
 *
 * `sugestao` is optional; absent, `null` or blank all mean "no suggestion" and come out `null`
 * after validation [openq]: a blank suggestion would otherwise become an empty answer when
 * accepted, and refusing the whole question for it would lose the question.
 */
export abstract class QuestionDeclarationFields {
  @IsEntityId()
  sessionId!: string;

  @IsEntityId()
  sessionAuthorId!: string;

  @TrimmedText(PERGUNTA_MIN_LENGTH, PERGUNTA_MAX_LENGTH)
  pergunta!: string;

  @OptionalTrimmedText(SUGESTAO_MAX_LENGTH)
  sugestao?: string | null;

  @Nested(() => AfetaDto)
  afeta!: AfetaDto;
}

/** §3.1 each origin admits only its own authors (tool → an asker, qa_verdict → qa-agent, …). */
export function authorMatchesOrigin(o: { autor?: unknown; origin?: unknown }): boolean {
  const allowed = AUTHORS_BY_ORIGIN[o.origin as QuestionOrigin] as readonly unknown[] | undefined;
  // An unknown origin is reported by the field's own validator; this rule stays quiet about it.
  return allowed === undefined || allowed.includes(o.autor);
}

export const AUTHOR_ORIGIN_MESSAGE =
  'autor does not match origin (tool: criativo|po|arquiteto|dev_lead, qa_verdict: qa-agent, analyst: analyst)';

/**
 * §12.3 a tool call may insist on asking a question already decided: `insistir: true` with a
 * `motivo` (1–500 characters); then a new question is recorded with `precedentOf` set instead of
 * the precedent coming back. `insistir` without `motivo` is refused (the failing field: `motivo`).
 */
@ClassRule<InsistFields>(
  'insistir|motivo',
  (o) => o.insistir !== true || typeof o.motivo === 'string',
  'insistir needs a motivo (1-500 characters)',
)
export abstract class InsistFields extends QuestionDeclarationFields {
  @IsOptional()
  @IsIn([true])
  insistir?: true;

  @IsOptional()
  @TrimmedText(INSIST_MOTIVO_MIN_LENGTH, INSIST_MOTIVO_MAX_LENGTH)
  motivo?: string;
}
