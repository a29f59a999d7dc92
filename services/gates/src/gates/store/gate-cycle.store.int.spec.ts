import type { AgentGateStartedDto } from '@openq/contracts';
import { OutboxWriter } from '@openq/messaging';
import { inOneStatement, recordStatements } from '@openq/persistence';
import { useServiceDatabase, waitFor } from '@openq/testing';
import { inGateTransaction } from '../__fixtures__/gate-transactions';
import { startCycle } from '../commands/cycle-activity/cycle-activity.handler';
import type { GateCycle } from '../domain/gate-cycle';
import { GateTransaction } from '../gate-transaction';
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

/*
 * A gate's start run as one statement (the inbox's `inOneStatement`): a new cycle is written
 * without being read; a cycle that is there makes the statement fail, and the start runs again
 * the usual way.
 */
describe('a start tried as one statement', () => {
  const started = (taskId: string, sessionAuthorId: string): AgentGateStartedDto =>
    ({ taskId, gate: 'qa', sessionAuthorId }) as AgentGateStartedDto;
  const oneStatement = (data: AgentGateStartedDto) =>
    inOneStatement(
      store.ds,
      async (manager) => {
        const outbox = new OutboxWriter(manager);
        await startCycle(new GateTransaction(manager, outbox), 'p2', data, 3, at);
        await outbox.flush();
      },
      { sql: 'SELECT 1 AS applied', params: [] },
    );
  const usual = (data: AgentGateStartedDto) =>
    inGateTransaction(store.ds, (_m, tx) => startCycle(tx, 'p2', data, 3, at));
  const authorOf = async (taskId: string) =>
    (
      await store.ds.query(
        `SELECT cycle->>'sessionAuthorId' AS author FROM gate_cycle WHERE project_id = 'p2' AND task_id = $1`,
        [taskId],
      )
    ).map((r: { author: string }) => r.author);

  it('writes a new cycle in that one statement, without reading it', async () => {
    const { value: outcome, sent } = await recordStatements(store.ds, () =>
      oneStatement(started('t-new', 'ana')),
    );
    expect(outcome.done).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('pg_advisory_xact_lock');
    expect(await authorOf('t-new')).toEqual(['ana']);
  });

  /** A cycle another replica started: its row is there, and this process has never seen it. */
  const startedElsewhere = async (taskId: string, author: string) => {
    await usual(started(`${taskId}-template`, author));
    await store.ds.query(
      `INSERT INTO gate_cycle (project_id, task_id, gate, state, parked_reason, waiting_on,
                               last_activity_at, last_redispatch_at, cycle, updated_at)
       SELECT project_id, $1, gate, state, parked_reason, waiting_on, last_activity_at,
              last_redispatch_at, jsonb_set(cycle, '{taskId}', to_jsonb($1::text)), updated_at
         FROM gate_cycle WHERE project_id = 'p2' AND task_id = $2`,
      [taskId, `${taskId}-template`],
    );
  };

  it('fails when the cycle is there, leaving it as it was; the usual way then decides a restart', async () => {
    await startedElsewhere('t-again', 'ana');
    const outcome = await oneStatement(started('t-again', 'bia'));
    expect(outcome).toMatchObject({ done: false, why: 'failed' });
    expect(await authorOf('t-again')).toEqual(['ana']);
    await usual(started('t-again', 'bia'));
    expect(await authorOf('t-again')).toEqual(['bia']);
  });

  it('a restart of a cycle this process has seen is not tried: nothing is sent, the usual way decides it', async () => {
    await usual(started('t-seen', 'ana'));
    const { value: outcome, sent } = await recordStatements(store.ds, () =>
      oneStatement(started('t-seen', 'bia')),
    );
    expect(outcome).toMatchObject({ done: false, why: 'statement' });
    expect(sent).toEqual([]);
    await usual(started('t-seen', 'bia'));
    expect(await authorOf('t-seen')).toEqual(['bia']);
  });

  it("waits for a usual start that holds the cycle's key, then fails instead of writing over it", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let looked!: () => void;
    const lookedUp = new Promise<void>((resolve) => (looked = resolve));
    // The usual start of a new cycle: the key's lock taken, nothing found, not committed yet.
    const first = inGateTransaction(store.ds, async (_m, tx) => {
      const state = await tx.cycles.lock(
        { projectId: 'p2', taskId: 't-race', gate: 'qa' },
        { creating: true },
      );
      looked();
      await held;
      return tx.decide(
        {
          type: 'start',
          data: {
            projectId: 'p2',
            taskId: 't-race',
            gate: 'qa',
            sessionAuthorId: 'ana',
            defaultMaxCorrections: 3,
          },
        },
        state,
        at,
      );
    });
    await lookedUp;
    const second = oneStatement(started('t-race', 'bia'));
    // The one statement waits on the key's lock while the first holds it.
    await waitFor(
      async () => {
        const [{ n }] = await store.ds.query(
          `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
        );
        return n > 0;
      },
      { what: 'the one statement waiting on the advisory lock' },
    );
    release();
    await first;
    expect(await second).toMatchObject({ done: false, why: 'failed' });
    expect(await authorOf('t-race')).toEqual(['ana']);
  });
});
