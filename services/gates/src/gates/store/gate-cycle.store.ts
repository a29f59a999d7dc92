import { affectsFromWire, affectsToWire } from '@openq/contracts';
import { LRUCache } from 'lru-cache';
import type { EntityManager } from 'typeorm';
import { deferRows, runsAsOneStatement, sendAheadOfNext } from '@openq/persistence';
import { settledFrom, settledSql, type SettledQuestions, type SettledRow } from './answered-questions.store';
import {
  GATES,
  type GateCycle,
  type GateName,
  type PendingChange,
  type QuestionRequest,
} from '../domain/gate-cycle';

export interface CycleKey {
  projectId: string;
  taskId: string;
  gate: GateName;
}

/** A cycle's key as one string: its row's write key, and its key in a decider batch. */
export const cycleKeyOf = (c: CycleKey): string => `gate_cycle:${c.projectId}:${c.taskId}:${c.gate}`;

/** A question of a project, whose answer or withdrawal a parked cycle may wait on. */
export interface AskedQuestion {
  projectId: string;
  questionId: string;
}

/** A cycle locked by `lockWaitingOn`, and the questions it waited on when the look-up began. */
export interface WaitingCycle {
  cycle: GateCycle;
  waitingOn: readonly string[];
}

/** Where the sweep's keyset walk has got to (exclusive). */
export type SweepCursor = { lastActivityAt: Date } & CycleKey;

interface CycleRow {
  cycle: StoredCycle;
}

/** A pending change as the cycle's document keeps it (the wire's words, as ever). */
interface StoredChange {
  subspecialty: string;
  resumo: string | null;
  itens: readonly string[];
}

/** A round's question request as the cycle's document keeps it (the wire's words, as ever). */
interface StoredQuestionRequest {
  roundId: string;
  sessionAuthorId: string;
  autor: QuestionRequest['role'];
  origin: QuestionRequest['origin'];
  afeta: { regras: string[]; historias: string[]; tarefas: string[] };
  declare: { key: string; subspecialty: string; pergunta: string; sugestao: string | null }[];
  link: string[];
}

/**
 * `GateCycle` as JSON: its instants are ISO strings, its pending changes and question request in
 * the words the document has always had. `withdrawnQuestions` (§11.5) is absent from cycles saved
 * before it existed: none was withdrawn then.
 */
type StoredCycle = Omit<
  GateCycle,
  | 'lastActivityAt'
  | 'lastRedispatchAt'
  | 'updatedAt'
  | 'withdrawnQuestions'
  | 'pendingChanges'
  | 'pendingQuestionRequest'
> & {
  lastActivityAt: string;
  lastRedispatchAt: string | null;
  updatedAt: string;
  withdrawnQuestions?: readonly string[];
  pendingChanges: readonly StoredChange[];
  pendingQuestionRequest: StoredQuestionRequest | null;
};

const storedChange = (c: PendingChange): StoredChange => ({
  subspecialty: c.subspecialty,
  resumo: c.summary,
  itens: c.items,
});

const changeOf = (c: StoredChange): PendingChange => ({
  subspecialty: c.subspecialty,
  summary: c.resumo,
  items: c.itens,
});

function storedRequest(r: QuestionRequest): StoredQuestionRequest {
  return {
    roundId: r.roundId,
    sessionAuthorId: r.sessionAuthorId,
    autor: r.role,
    origin: r.origin,
    afeta: affectsToWire(r.affects),
    declare: r.declare.map((q) => ({
      key: q.key,
      subspecialty: q.subspecialty,
      pergunta: q.question,
      sugestao: q.suggestion,
    })),
    link: r.link,
  };
}

function requestOf(r: StoredQuestionRequest): QuestionRequest {
  return {
    roundId: r.roundId,
    sessionAuthorId: r.sessionAuthorId,
    role: r.autor,
    origin: r.origin,
    affects: affectsFromWire(r.afeta),
    declare: r.declare.map((q) => ({
      key: q.key,
      subspecialty: q.subspecialty,
      question: q.pergunta,
      suggestion: q.sugestao,
    })),
    link: r.link,
  };
}

/** The cycle as its jsonb document: what `JSON.stringify` makes of it, in the document's words. */
function toDocument(cycle: GateCycle) {
  return {
    ...cycle,
    pendingQuestionRequest: cycle.pendingQuestionRequest && storedRequest(cycle.pendingQuestionRequest),
    pendingChanges: cycle.pendingChanges.map(storedChange),
  };
}

function revive(stored: StoredCycle): GateCycle {
  return {
    ...stored,
    withdrawnQuestions: stored.withdrawnQuestions ?? [],
    pendingQuestionRequest: stored.pendingQuestionRequest && requestOf(stored.pendingQuestionRequest),
    pendingChanges: stored.pendingChanges.map(changeOf),
    lastActivityAt: new Date(stored.lastActivityAt),
    lastRedispatchAt: stored.lastRedispatchAt === null ? null : new Date(stored.lastRedispatchAt),
    updatedAt: new Date(stored.updatedAt),
  };
}

/** Cycles as rows of one statement (`deferRows`); `waiting_on` as an array literal, one a row. */
const CYCLE_ROWS = `INSERT INTO gate_cycle (project_id, task_id, gate, state, parked_reason, waiting_on,
    last_activity_at, last_redispatch_at, cycle, updated_at)
  SELECT p, t, g, s, r, w::uuid[], a, d, c::jsonb, u
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                $7::timestamptz[], $8::timestamptz[], $9::text[], $10::timestamptz[]) AS x (p, t, g, s, r, w, a, d, c, u)`;

/** Cycles written whether they are new or not. */
const SAVE_CYCLES = `${CYCLE_ROWS}
  ON CONFLICT (project_id, task_id, gate) DO UPDATE SET
    state = EXCLUDED.state, parked_reason = EXCLUDED.parked_reason, waiting_on = EXCLUDED.waiting_on,
    last_activity_at = EXCLUDED.last_activity_at, last_redispatch_at = EXCLUDED.last_redispatch_at,
    cycle = EXCLUDED.cycle, updated_at = EXCLUDED.updated_at`;

/**
 * A new cycle written by a unit tried as one statement (`GateCycleStore.lock`, `creating`): under
 * the key's advisory lock, as `lock` takes it, and only if the cycle is not there. If it is (a
 * restart, or a first message that committed meanwhile), the `DO UPDATE`'s condition divides by
 * zero: the statement fails, nothing of the unit is kept, and the unit runs again the usual way,
 * deciding on the cycle it finds.
 */
const CREATE_CYCLES = `${CYCLE_ROWS}
         CROSS JOIN LATERAL (SELECT pg_advisory_xact_lock(hashtextextended('gate-cycle:' || p || ':' || t || ':' || g, 0))) AS l
  ON CONFLICT (project_id, task_id, gate) DO UPDATE SET updated_at = EXCLUDED.updated_at
    WHERE 1 / (CASE WHEN gate_cycle.project_id IS NULL THEN 1 ELSE 0 END) = 1`;

/**
 * Keys of cycles this process has seen a row of: a start of one is a restart, so it is not tried
 * as one statement, which would fail on the row (a failed statement, and an error line in
 * PostgreSQL's log, before the usual way). A hint, never the truth: a key missing here (another
 * replica saw the cycle, the process is new) pays that once, as before; a key here whose row is
 * gone takes the usual way, which is right for any cycle.
 */
const knownCycles = new LRUCache<string, true>({ max: 10_000 });

/** A cycle's row by its key (`$1` – `$3`), locked. */
const CYCLE_FOR_UPDATE = `SELECT cycle FROM gate_cycle WHERE project_id = $1 AND task_id = $2 AND gate = $3 FOR UPDATE`;

const byGateOrder = (a: GateCycle, b: GateCycle) => GATES.indexOf(a.gate) - GATES.indexOf(b.gate);

/**
 * Gate cycles in PostgreSQL, inside a caller's transaction. The domain state is one jsonb
 * document; the columns beside it are derived on every save, for the sweep and answer routing.
 */
export class GateCycleStore {
  /** Cycles this unit takes to be new without reading them (a unit tried as one statement). */
  private readonly assumedNew = new Set<string>();

  constructor(private readonly manager: EntityManager) {}

  /**
   * Loads a cycle and holds its row lock until the transaction ends, so concurrent messages on
   * one cycle run one after the other. A cycle that does not exist yet has no row to lock: its
   * key is locked instead (advisory), so that two first messages do not both create it. A caller
   * that expects to create it (`creating`: a gate starting) takes the key's lock first and reads
   * once, two statements instead of three; the read must come after that lock in a statement of
   * its own, to see a cycle that a concurrent first message committed meanwhile. Tried as one
   * statement (`runsAsOneStatement`), such a caller reads nothing: the cycle is taken to be new,
   * and its save is an insert that fails if it is not (`CREATE_CYCLES`), unless this process has
   * seen the cycle (`knownCycles`): its read is then refused, and the unit runs the usual way.
   */
  async lock(key: CycleKey, opts: { creating?: boolean } = {}): Promise<GateCycle | null> {
    if (opts.creating && runsAsOneStatement(this.manager) && !knownCycles.has(cycleKeyOf(key))) {
      this.assumedNew.add(cycleKeyOf(key));
      return null;
    }
    if (!opts.creating) {
      const found = await this.selectForUpdate(key);
      if (found) return found;
    }
    // The key's lock as `CREATE_CYCLES` takes it too: keep the two keys the same.
    await sendAheadOfNext(this.manager, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `gate-cycle:${key.projectId}:${key.taskId}:${key.gate}`,
    ]);
    return this.selectForUpdate(key);
  }

  /**
   * `lock`, and in the same statement what is settled of `questionIds` (`settledSql`),
   * for a caller that took the questions' locks in an earlier statement (issue #29: a verdict's
   * reads under its locks, one statement instead of two). The statement's snapshot is taken after
   * those locks were granted, so it sees every answer and withdrawal of them committed before;
   * the cycle's row is read as it is when its lock is granted, as `lock` reads it. A cycle not
   * there yet is then locked by its key, as `lock` does.
   */
  async lockWithSettled(
    key: CycleKey,
    questionIds: readonly string[],
  ): Promise<{ cycle: GateCycle | null; settled: SettledQuestions }> {
    const rows: (SettledRow & { cycle: StoredCycle | null })[] = await this.manager.query(
      `WITH c AS (${CYCLE_FOR_UPDATE})
       SELECT cycle, NULL::uuid AS question_id, NULL::uuid AS decision_event_id FROM c
       UNION ALL
       SELECT NULL, question_id, decision_event_id FROM (${settledSql(1, 4)}) AS s`,
      [key.projectId, key.taskId, key.gate, [...questionIds]],
    );
    const stored = rows.find((r) => r.cycle !== null)?.cycle;
    const settled = settledFrom(rows.filter((r) => r.cycle === null));
    if (!stored) return { cycle: await this.lock(key, { creating: true }), settled };
    knownCycles.set(cycleKeyOf(key), true);
    return { cycle: revive(stored), settled };
  }

  /**
   * Reads a cycle without locking it: what it was a moment ago, for work done before a
   * transaction (a verdict's calls to another service); the transaction then locks it again.
   */
  async load(key: CycleKey): Promise<GateCycle | null> {
    const rows: CycleRow[] = await this.manager.query(
      `SELECT cycle FROM gate_cycle WHERE project_id = $1 AND task_id = $2 AND gate = $3`,
      [key.projectId, key.taskId, key.gate],
    );
    return rows[0] ? revive(rows[0].cycle) : null;
  }

  /**
   * The cycles whose park waits on one of these questions (each of its own project), locked in key
   * order, each with the questions it waited on when the look-up began: one statement for a batch
   * of answers (issue #29).
   */
  async lockWaitingOn(asked: readonly AskedQuestion[]): Promise<WaitingCycle[]> {
    if (asked.length === 0) return [];
    const rows: (CycleRow & { waiting_on: string[] })[] = await this.manager.query(
      // Question ids are unique, so the GIN index on waiting_on alone finds the few rows; the
      // materialised step keeps the planner from AND-ing it with the project's primary-key range
      // (EXPLAIN ANALYZE, 1M cycles, 100k in the project: 12.9 ms BitmapAnd → 0.26 ms this way;
      // session 22, the batch's `&&`, 300k parked cycles, two answers: a GIN bitmap scan, 0.35 ms).
      `WITH candidates AS MATERIALIZED (
         SELECT project_id, task_id, gate, waiting_on FROM gate_cycle WHERE waiting_on && $2::uuid[]
       )
       SELECT g.cycle, c.waiting_on FROM gate_cycle g JOIN candidates c USING (project_id, task_id, gate)
        WHERE EXISTS (SELECT 1 FROM unnest($1::text[], $2::uuid[]) AS a (p, q)
                       WHERE a.p = c.project_id AND a.q = ANY (c.waiting_on))
        ORDER BY g.project_id, g.task_id, g.gate FOR UPDATE OF g`,
      [asked.map((a) => a.projectId), asked.map((a) => a.questionId)],
    );
    return rows.map((r) => ({ cycle: revive(r.cycle), waitingOn: r.waiting_on }));
  }

  /**
   * Running cycles without activity since `idleSince`, oldest first, after `cursor`, locked.
   * Rows another transaction holds (an event being handled, another replica's sweep) are
   * skipped, never waited for: nobody processes a row twice at once.
   */
  async lockIdle(idleSince: Date, cursor: SweepCursor | null, limit: number): Promise<GateCycle[]> {
    const after = cursor ? `AND (last_activity_at, project_id, task_id, gate) > ($3, $4, $5, $6)` : '';
    const rows: CycleRow[] = await this.manager.query(
      `SELECT cycle FROM gate_cycle
        WHERE state = 'running' AND last_activity_at < $1 ${after}
        ORDER BY last_activity_at, project_id, task_id, gate
        LIMIT $2 FOR UPDATE SKIP LOCKED`,
      cursor
        ? [idleSince, limit, cursor.lastActivityAt, cursor.projectId, cursor.taskId, cursor.gate]
        : [idleSince, limit],
    );
    return rows.map((r) => revive(r.cycle));
  }

  async listTask(projectId: string, taskId: string): Promise<GateCycle[]> {
    const rows: CycleRow[] = await this.manager.query(
      `SELECT cycle FROM gate_cycle WHERE project_id = $1 AND task_id = $2`,
      [projectId, taskId],
    );
    return rows.map((r) => revive(r.cycle)).sort(byGateOrder);
  }

  /** Parked cycles of the project, longest parked first, and how many there are in all. */
  async listParked(projectId: string, limit: number): Promise<{ cycles: GateCycle[]; total: number }> {
    const rows: CycleRow[] = await this.manager.query(
      `SELECT cycle FROM gate_cycle WHERE project_id = $1 AND state = 'parked'
        ORDER BY updated_at, task_id, gate LIMIT $2`,
      [projectId, limit],
    );
    const [count]: { total: number }[] = await this.manager.query(
      `SELECT count(*)::int AS total FROM gate_cycle WHERE project_id = $1 AND state = 'parked'`,
      [projectId],
    );
    return { cycles: rows.map((r) => revive(r.cycle)), total: count?.total ?? 0 };
  }

  /**
   * Writes the cycle (the caller holds its lock, from `lock` or one of the `lock*` reads). Its
   * row is locked and nothing reads the result, so the write goes with the transaction's next
   * statement (`deferRows`: usually the outbox insert), and the cycles a batch decides go as one
   * statement's rows (a cycle saved twice sends the first row ahead: its key).
   */
  async save(cycle: GateCycle): Promise<void> {
    knownCycles.set(cycleKeyOf(cycle), true);
    await deferRows(
      this.manager,
      this.assumedNew.has(cycleKeyOf(cycle)) ? CREATE_CYCLES : SAVE_CYCLES,
      [
        cycle.projectId,
        cycle.taskId,
        cycle.gate,
        cycle.status,
        cycle.status === 'parked' ? cycle.parkedReason : null,
        `{${cycle.parkedReason === 'user_decision' ? cycle.questionIds.join(',') : ''}}`,
        cycle.lastActivityAt,
        cycle.lastRedispatchAt,
        JSON.stringify(toDocument(cycle)),
        cycle.updatedAt,
      ],
      { key: cycleKeyOf(cycle) },
    );
  }

  private async selectForUpdate(key: CycleKey): Promise<GateCycle | null> {
    const rows: CycleRow[] = await this.manager.query(CYCLE_FOR_UPDATE, [
      key.projectId,
      key.taskId,
      key.gate,
    ]);
    if (!rows[0]) return null;
    knownCycles.set(cycleKeyOf(key), true);
    return revive(rows[0].cycle);
  }
}
