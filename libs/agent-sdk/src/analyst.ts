/**
 * The analyst's side of the contract (SPEC §7, ADR-0053 §1): the instruction, the questions file's
 * template and manifest line, and its parser. All are defined once in the contracts, where the gates
 * pipeline takes the same DTO and normaliser from, so the engine's check and the pipeline never disagree.
 */
export {
  ANALYST_INSTRUCTION,
  ANALYST_QUESTIONS_FILE,
  QUESTIONS_FILE_MANIFEST_LINE,
  QUESTIONS_FILE_REASONS,
  QUESTIONS_FILE_TEMPLATE,
  QUESTIONS_FILE_TEMPLATE_PATH,
  normalizeAnalystQuestion,
  renderQuestionsFile,
  validateQuestionsFile,
  type AnalystQuestion,
  type NormalizedAnalystQuestion,
  type QuestionsFileError,
  type QuestionsFileReason,
  type QuestionsFileResult,
} from '@openq/contracts';
