import type { DataSource } from 'typeorm';
import { useServiceDatabase } from '@openq/testing';
import { QuestionLog1764470100000 } from '../migrations/1764470100000-question-log';
import { AnswerKeys1764470500000 } from '../migrations/1764470500000-answer-keys';
import { QuestionWithdrawn1764490000000 } from '../migrations/1764490000000-question-withdrawn';
import { DecisionSuperseded1764495000000 } from '../migrations/1764495000000-decision-superseded';
import { QuestionSearch1764500000000 } from '../migrations/1764500000000-question-search';
import { DelegationLog1764510000000 } from '../migrations/1764510000000-delegation-log';
import { ProjectPolicyLog1764520000000 } from '../migrations/1764520000000-project-policy-log';

/** The question log's migrations (the answer keys, withdrawals, amendments, delegations and project policies too). */
export const QUESTION_LOG_MIGRATIONS = [
  QuestionLog1764470100000,
  AnswerKeys1764470500000,
  QuestionWithdrawn1764490000000,
  DecisionSuperseded1764495000000,
  QuestionSearch1764500000000,
  DelegationLog1764510000000,
  ProjectPolicyLog1764520000000,
];

/**
 * For an integration spec: a throwaway database with the question log's schema, opened before
 * the spec's tests (handed to `opened`) and dropped after them.
 */
export function useQuestionsDatabase(
  opened: (ds: DataSource) => void,
  options: { poolSize?: number } = {},
): void {
  const store = useServiceDatabase('questions', QUESTION_LOG_MIGRATIONS, options);
  beforeAll(() => opened(store.ds));
}
