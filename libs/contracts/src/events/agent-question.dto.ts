import { ASKER_ROLES, type AskerRole } from '../vocabulary';
import { IsOneOf, IsToolCallId, IsUuidString } from '../validators';
import { AgentAnswerFields } from '../dto/agent-answer-fields.dto';
import { QuestionDeclarationFields } from '../dto/question-declaration.dto';

/** `agent.question.declare`: a `declare_open_question` tool call (§3.1 fields + `toolCallId`). */
export class AgentQuestionDeclareDto extends QuestionDeclarationFields {
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
