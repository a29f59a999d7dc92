import { useServiceDatabase } from '@openq/testing';
import type { GateCycle } from '../domain/gate-cycle';
import { GATES_MIGRATIONS } from '../migrations';
import { GateCycleStore } from './gate-cycle.store';

const store = useServiceDatabase('gates', GATES_MIGRATIONS);

const at = new Date('2026-06-17T10:00:00.000Z');
const key = { projectId: 'p1', taskId: 't1', gate: 'qa' as const };

/** A cycle parked on a decision, with a change asked for and a question request not linked yet. */
const cycle: GateCycle = {
  ...key,
  status: 'parked',
  parkedReason: 'user_decision',
  correctionCount: 1,
  maxCorrections: 3,
  questionIds: [],
  linkedQuestionIds: [],
  answeredQuestions: {},
  withdrawnQuestions: [],
  pendingQuestionRequest: {
    roundId: 'r2',
    sessionAuthorId: 'u-exec',
    role: 'qa-agent',
    origin: 'qa_verdict',
    affects: { rules: [], stories: [], tasks: ['t1'] },
    declare: [{ key: 'r2:rules', subspecialty: 'rules', question: '404 or 410?', suggestion: '410' }],
    link: [],
  },
  pendingChanges: [{ subspecialty: 'api', summary: 'GET /:codigo 404', items: ['fix route'] }],
  processedRoundIds: ['r1', 'r2'],
  sessionAuthorId: 'u-exec',
  lastActivityAt: at,
  lastRedispatchAt: null,
  blockedReason: null,
  updatedAt: at,
};

describe('GateCycleStore', () => {
  it('keeps the cycle document in the words it always had, and reads it back as the domain cycle', async () => {
    const { document, loaded } = await store.ds.transaction(async (manager) => {
      const cycles = new GateCycleStore(manager);
      await cycles.save(cycle);
      const [row]: { cycle: unknown }[] = await manager.query(
        `SELECT cycle FROM gate_cycle WHERE project_id = $1 AND task_id = $2 AND gate = $3`,
        [key.projectId, key.taskId, key.gate],
      );
      return { document: row?.cycle, loaded: await cycles.load(key) };
    });
    expect(document).toEqual({
      ...cycle,
      pendingQuestionRequest: {
        roundId: 'r2',
        sessionAuthorId: 'u-exec',
        autor: 'qa-agent',
        origin: 'qa_verdict',
        afeta: { regras: [], historias: [], tarefas: ['t1'] },
        declare: [{ key: 'r2:rules', subspecialty: 'rules', pergunta: '404 or 410?', sugestao: '410' }],
        link: [],
      },
      pendingChanges: [{ subspecialty: 'api', resumo: 'GET /:codigo 404', itens: ['fix route'] }],
      lastActivityAt: at.toISOString(),
      updatedAt: at.toISOString(),
    });
    expect(loaded).toEqual(cycle);
  });
});
