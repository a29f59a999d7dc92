import { IsOptional } from 'class-validator';
import { RESPOSTA_MAX_LENGTH, RESPOSTA_MIN_LENGTH } from '../limits';
import { ASKER_ROLES, type AskerRole } from '../vocabulary';
import { IsEntityId, IsOneOf, TrimmedText } from '../validators';

/**
 * §3.3 / ADR 0258 an agent records the user's chat answer. Without `resposta` the question's own
 * `sugestao` is the answer. A blank `resposta` is refused rather than read as "accept the
 * suggestion" [openq]: silently switching meaning is worse than a `question.rejected`.
 */
export abstract class AgentAnswerFields {
  @IsOptional()
  @TrimmedText(RESPOSTA_MIN_LENGTH, RESPOSTA_MAX_LENGTH)
  resposta?: string | null;

  @IsOneOf(ASKER_ROLES)
  viaAgente!: AskerRole;

  /** The agent's own chat session, for the audit trail (the decision stays the session author's). */
  @IsOptional()
  @IsEntityId()
  agentSessionId?: string | null;
}
