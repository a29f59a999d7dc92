import { WITHDRAW_MOTIVO_MAX_LENGTH, WITHDRAW_MOTIVO_MIN_LENGTH } from '../limits';
import { FieldReasons } from '../validation';
import { TrimmedText } from '../validators';

/**
 * `POST /projects/:projectId/open-questions/:questionId/withdraw` (§11.5): why the question no
 * longer needs the user. A missing, blank or too long `motivo` (1–500 characters after trim) is
 * 400 `motivo_invalido`, as for an override (§11.1) and a repo freeze (§11.3).
 */
@FieldReasons({ motivo: 'motivo_invalido' })
export class WithdrawQuestionBody {
  @TrimmedText(WITHDRAW_MOTIVO_MIN_LENGTH, WITHDRAW_MOTIVO_MAX_LENGTH)
  motivo!: string;
}
