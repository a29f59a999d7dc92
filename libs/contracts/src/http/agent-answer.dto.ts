import { AgentAnswerFields } from '../dto/agent-answer-fields.dto';

/** `POST /internal/projects/:projectId/open-questions/:questionId/answer` (ADR 0258). */
export class AgentAnswerBody extends AgentAnswerFields {}
