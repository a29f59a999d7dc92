import { AgentQuestionDeclareDto } from '../events/agent-question.dto';

/**
 * `POST /internal/projects/:projectId/open-questions`: the declare fields (§3.1) + `toolCallId`,
 * the same shape as the `agent.question.declare` event (origin `tool`).
 */
export class DeclareQuestionBody extends AgentQuestionDeclareDto {}
