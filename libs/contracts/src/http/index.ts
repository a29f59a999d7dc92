export * from './agent-answer.dto';
export * from './answer-question.dto';
export * from './context-queries.dto';
export * from './declare-question.dto';
export * from './list-open-questions.dto';
export * from './story-correction.dto';
export * from './resume-gate.dto';
export * from './gate-history.dto';
