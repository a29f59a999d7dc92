import { UserAnswerFields } from '../dto/user-answer-fields.dto';

/**
 * `POST /projects/:projectId/open-questions/:questionId/answer`:
 * `{ resposta }` or `{ aceitarSugestao: true }`, exactly one (400 `corpo_invalido` otherwise).
 */
export class AnswerQuestionBody extends UserAnswerFields {}
