/** Shared ids and helpers of the contract's example payloads. */

export const EXAMPLE_IDS = {
  projectId: 'proj-1',
  sessionId: 'sess-criativo-1',
  sessionAuthorId: 'user-author',
  otherUserId: 'user-other',
  delegateId: 'user-delegate',
  grantId: '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a7e',
  taskId: 'TASK-101',
  otherTaskId: 'TASK-100',
  storyId: 'STORY-7',
  repo: 'billing-api',
  ruleId: 'RN-858',
  questionId: '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6b',
  decisionEventId: '0190a3b8-7c1d-7e2f-8a3b-1c2d3e4f5a6c',
  toolCallId: 'toolu_01AbCdEf',
  roundId: 'round-1',
  at: '2026-11-05T12:00:00.000Z',
} as const;

/** Freezes an example so a test cannot change it for the next one. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** A deep, mutable copy of an example. */
export function clone<T>(value: T): T {
  return structuredClone(value) as T;
}

/** The `afeta` of every example question. */
export const EXAMPLE_AFETA = deepFreeze({
  regras: [EXAMPLE_IDS.ruleId],
  historias: [EXAMPLE_IDS.storyId],
  tarefas: [EXAMPLE_IDS.taskId],
});

/** The field a validation result names, or `null` when it passed: `expect(failingField(r)).toBe('pergunta')`. */
export function failingField(result: { ok: true } | { ok: false; field: string }): string | null {
  return result.ok ? null : result.field;
}
