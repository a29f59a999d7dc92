export * from './actor.dto';
export * from './afeta.dto';
export * from './agent-answer-fields.dto';
export * from './question-declaration.dto';
export * from './story-changes.dto';
export * from './user-answer-fields.dto';
export * from './override-fields.dto';
export * from './question-filters.dto';
