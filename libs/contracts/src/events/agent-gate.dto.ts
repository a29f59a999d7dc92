import { ArrayUnique, IsOptional } from 'class-validator';
import {
  MAX_CORRECTIONS_MAX,
  MAX_CORRECTIONS_MIN,
  PERGUNTA_MAX_LENGTH,
  PERGUNTA_MIN_LENGTH,
  RESUMO_MAX_LENGTH,
  SUBSPECIALTY_MAX_LENGTH,
  SUGESTAO_MAX_LENGTH,
  VERDICT_ITEMS_MAX,
  VERDICT_ITEM_MAX_LENGTH,
  VERDICTS_MAX,
} from '../limits';
import { GATES, VEREDITOS, type Gate, type Veredito } from '../vocabulary';
import {
  ClassRule,
  IntRange,
  IsEntityId,
  IsOneOf,
  IsUuidString,
  NestedList,
  OptionalTrimmedText,
  TrimmedText,
  TrimmedTextList,
  compose,
  isPresent,
} from '../validators';

const MaxCorrections = () => compose(IsOptional(), IntRange(MAX_CORRECTIONS_MIN, MAX_CORRECTIONS_MAX));

/**
 * One subspecialty's verdict. `needs_user_decision` carries either a new question (`pergunta`,
 * optional `sugestao`) or an existing `openQuestionId`, exactly one of the two. On other verdicts
 * those fields are checked for shape but ignored [openq]: refusing a whole QA round for a stray
 * field would cost more than it protects.
 */
@ClassRule<QaVerdictItemDto>(
  'pergunta|openQuestionId',
  (o) => o.veredito !== 'needs_user_decision' || isPresent(o.pergunta) !== isPresent(o.openQuestionId),
  'needs_user_decision carries exactly one of pergunta or openQuestionId',
)
export class QaVerdictItemDto {
  @TrimmedText(1, SUBSPECIALTY_MAX_LENGTH)
  subspecialty!: string;

  @IsOneOf(VEREDITOS)
  veredito!: Veredito;

  @TrimmedText(1, RESUMO_MAX_LENGTH)
  resumo!: string;

  /** The findings (may be empty, e.g. on `approved`). */
  @TrimmedTextList(VERDICT_ITEMS_MAX, VERDICT_ITEM_MAX_LENGTH)
  itens!: string[];

  @IsOptional()
  @TrimmedText(PERGUNTA_MIN_LENGTH, PERGUNTA_MAX_LENGTH)
  pergunta?: string | null;

  @OptionalTrimmedText(SUGESTAO_MAX_LENGTH)
  sugestao?: string | null;

  @IsOptional()
  @IsUuidString()
  openQuestionId?: string | null;
}

function subspecialtyOf(item: unknown): unknown {
  return typeof item === 'object' && item !== null ? (item as { subspecialty?: unknown }).subspecialty : item;
}

/** `agent.qa.verdict`: one QA round (all subspecialties); `roundId` makes redelivery harmless. */
export class AgentQaVerdictDto {
  @IsEntityId()
  roundId!: string;

  @IsEntityId()
  taskId!: string;

  @IsOneOf(GATES)
  gate!: Gate;

  @IsEntityId()
  sessionId!: string;

  /** The author of the execution session: who answers a `needs_user_decision` question. */
  @IsEntityId()
  sessionAuthorId!: string;

  @NestedList(() => QaVerdictItemDto, 1, VERDICTS_MAX)
  @ArrayUnique(subspecialtyOf, { message: 'verdicts must name each subspecialty once' })
  verdicts!: QaVerdictItemDto[];

  @MaxCorrections()
  maxCorrections?: number;
}

/** `agent.gate.started`: the engine opened (or re-opened) a gate cycle. */
export class AgentGateStartedDto {
  @IsEntityId()
  taskId!: string;

  @IsOneOf(GATES)
  gate!: Gate;

  @IsEntityId()
  sessionId!: string;

  @IsEntityId()
  sessionAuthorId!: string;

  @MaxCorrections()
  maxCorrections?: number;
}

/** `agent.gate.activity`: a heartbeat; refreshes the cycle's `lastActivityAt`. */
export class AgentGateActivityDto {
  @IsEntityId()
  taskId!: string;

  @IsOneOf(GATES)
  gate!: Gate;
}
