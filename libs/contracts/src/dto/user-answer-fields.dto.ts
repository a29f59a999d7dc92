import { Equals, IsOptional } from 'class-validator';
import { RESPOSTA_MAX_LENGTH, RESPOSTA_MIN_LENGTH } from '../limits';
import { ClassRule, TrimmedText, isPresent } from '../validators';

/** §4 the user answers with `{ resposta }` or `{ aceitarSugestao: true }`: exactly one of them. */
export function isExactlyOneAnswer(o: { resposta?: unknown; aceitarSugestao?: unknown }): boolean {
  return isPresent(o.resposta) !== isPresent(o.aceitarSugestao);
}

@ClassRule<UserAnswerFields>(
  'resposta|aceitarSugestao',
  isExactlyOneAnswer,
  'send exactly one of resposta or aceitarSugestao: true',
)
export abstract class UserAnswerFields {
  @IsOptional()
  @TrimmedText(RESPOSTA_MIN_LENGTH, RESPOSTA_MAX_LENGTH)
  resposta?: string;

  /** Only `true` means anything; `false` is refused rather than read as "no" [openq]. */
  @IsOptional()
  @Equals(true, { message: '$property, when sent, must be true' })
  aceitarSugestao?: true;
}
