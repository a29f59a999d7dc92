import type { DataSource } from 'typeorm';
import { useServiceDatabase } from '@openq/testing';
import { QUESTIONS_MIGRATIONS } from '../migrations';

/**
 * For an integration spec: a throwaway database with the question log's schema, opened before
 * the spec's tests (handed to `opened`) and dropped after them.
 */
export function useQuestionsDatabase(
  opened: (ds: DataSource) => void,
  options: { poolSize?: number } = {},
): void {
  const store = useServiceDatabase('questions', QUESTIONS_MIGRATIONS, options);
  beforeAll(() => opened(store.ds));
}
