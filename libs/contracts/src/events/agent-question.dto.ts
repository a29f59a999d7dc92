import { ASKER_ROLES, type AskerRole } from '../vocabulary';
import { WITHDRAW_MOTIVO_MAX_LENGTH, WITHDRAW_MOTIVO_MIN_LENGTH } from '../limits';
import { IsOptional } from 'class-validator';
import { IsEntityId, IsOneOf, IsToolCallId, IsUuidString, TrimmedText } from '../validators';
import { AgentAnswerFields } from '../dto/agent-answer-fields.dto';
import { InsistFields } from '../dto/question-declaration.dto';

/** `agent.question.declare`: a `declare_open_question` tool call (§3.1 fields + `toolCallId`). */
export class AgentQuestionDeclareDto extends InsistFields {
  /** Only the four askers call the tool; `qa-agent` and `analyst` questions come by other doors. */
  @IsOneOf(ASKER_ROLES)
  autor!: AskerRole;

  /** The dedupe key: the same `toolCallId` again yields the same `questionId`. */
  @IsToolCallId()
  toolCallId!: string;
}

/** `agent.question.answer`: an `answer_open_question` tool call (ADR 0258). */
export class AgentQuestionAnswerDto extends AgentAnswerFields {
  @IsToolCallId()
  toolCallId!: string;

  @IsUuidString()
  questionId!: string;
}

/**
 * `agent.question.withdraw`: a `withdraw_open_question` tool call (§11.5). §12.1 only the agent
 * that asked may withdraw: the same role (`viaAgente` = the declaration's `autor`) in the same
 * session (`sessionId` = the declaration's); anyone else is rejected `so_quem_perguntou` (an
 * answer, not a withdrawal, is what lets the user's decision go). Absent `sessionId` is nobody's.
 */
export class AgentQuestionWithdrawDto {
  @IsToolCallId()
  toolCallId!: string;

  @IsUuidString()
  questionId!: string;

  @TrimmedText(WITHDRAW_MOTIVO_MIN_LENGTH, WITHDRAW_MOTIVO_MAX_LENGTH)
  motivo!: string;

  @IsOneOf(ASKER_ROLES)
  viaAgente!: AskerRole;

  /** The asking agent's session: the `sessionId` it declared the question in. */
  @IsOptional()
  @IsEntityId()
  sessionId?: string;
}
