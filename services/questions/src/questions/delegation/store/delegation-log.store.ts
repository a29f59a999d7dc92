import type { EntityManager } from 'typeorm';
import { fold, type DelegationGranted, type DelegationRevoked } from '@openq/contracts';
import type { WireEvent } from '@openq/messaging';
import { delegation, type Delegation, type DelegationEvent } from '../domain/delegation';
import { sendAheadOfNext } from '@openq/persistence';

/** A delegation event as the log keeps it and the wire carries it, with its id in both. */
export type DelegationWireEvent = (
  | { type: 'delegation.granted'; data: DelegationGranted }
  | { type: 'delegation.revoked'; data: DelegationRevoked }
) &
  WireEvent & { eventId: string };

interface LogRow {
  grant_id: string;
  type: DelegationEvent['type'];
  data: DelegationGranted | DelegationRevoked;
  recorded_at: Date;
}

/** Who may answer for whom in a project: a session author (`from`) and a clicker (`to`). */
export interface DelegationPair {
  projectId: string;
  from: string;
  to: string;
}

export const pairKey = (p: DelegationPair): string => JSON.stringify([p.projectId, p.from, p.to]);

const COLUMNS = `grant_id, type, data, recorded_at`;

/**
 * Reads and appends the delegation log (§11.6, the source of truth for grants) inside a caller's
 * transaction. Grants are folded from their rows with the decider's `evolve` on every read.
 */
export class DelegationLog {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Serialises a revocation with the answers that rely on grants between the same two people in
   * a project (an answer never stands on a grant revoked before it committed), in one statement,
   * in one order (by key), so two transactions never deadlock on them.
   */
  async lockPairs(pairs: readonly DelegationPair[]): Promise<void> {
    if (pairs.length === 0) return;
    await sendAheadOfNext(
      this.manager,
      `SELECT count(pg_advisory_xact_lock(k)) FROM (
         SELECT DISTINCT hashtext('delegation:' || p) AS k FROM unnest($1::text[]) AS p ORDER BY k) AS keys`,
      [[...new Set(pairs.map(pairKey))]],
    );
  }

  /** The grants from `from` to `to` in the project, for each pair (by `pairKey`), in one statement. */
  async loadBetween(pairs: readonly DelegationPair[]): Promise<Map<string, Delegation[]>> {
    const out = new Map<string, Delegation[]>(pairs.map((p) => [pairKey(p), []]));
    if (pairs.length === 0) return out;
    const rows: LogRow[] = await this.manager.query(
      `SELECT ${COLUMNS} FROM delegation_log
        WHERE grant_id IN (SELECT g.grant_id FROM delegation_log g
                             JOIN unnest($1::text[], $2::text[], $3::text[]) AS t(p, f, o)
                               ON g.project_id = t.p AND g.data->>'from' = t.f AND g.data->>'to' = t.o
                            WHERE g.type = 'delegation.granted')
        ORDER BY grant_id, position`,
      [pairs.map((p) => p.projectId), pairs.map((p) => p.from), pairs.map((p) => p.to)],
    );
    for (const grant of foldByGrant(rows).values()) {
      if (!grant) continue;
      const { projectId, from, to } = grant.granted;
      out.get(pairKey({ projectId, from, to }))?.push(grant);
    }
    return out;
  }

  /** The grants of a project from `userId` or to `userId`, in one statement. */
  async loadOf(projectId: string, userId: string): Promise<Delegation[]> {
    const rows: LogRow[] = await this.manager.query(
      `SELECT ${COLUMNS} FROM delegation_log
        WHERE grant_id IN (SELECT grant_id FROM delegation_log
                            WHERE type = 'delegation.granted' AND project_id = $1
                              AND (data->>'from' = $2 OR data->>'to' = $2))
        ORDER BY grant_id, position`,
      [projectId, userId],
    );
    return [...foldByGrant(rows).values()].filter((g): g is Delegation => g !== null);
  }

  /** The grants of a project to `userId` (who may answer for whom), in one statement. */
  async loadTo(projectId: string, userId: string): Promise<Delegation[]> {
    const rows: LogRow[] = await this.manager.query(
      `SELECT ${COLUMNS} FROM delegation_log
        WHERE grant_id IN (SELECT grant_id FROM delegation_log
                            WHERE type = 'delegation.granted' AND project_id = $1 AND data->>'to' = $2)
        ORDER BY grant_id, position`,
      [projectId, userId],
    );
    return [...foldByGrant(rows).values()].filter((g): g is Delegation => g !== null);
  }

  async load(grantId: string): Promise<Delegation | null> {
    const rows: LogRow[] = await this.manager.query(
      `SELECT ${COLUMNS} FROM delegation_log WHERE grant_id = $1 ORDER BY position`,
      [grantId],
    );
    return foldByGrant(rows).get(grantId) ?? null;
  }

  /** Appends events in one statement, each under its wire id (the outbox publishes it with that id). */
  async append(events: readonly DelegationWireEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.manager.query(
      `INSERT INTO delegation_log (event_id, project_id, grant_id, type, data)
       SELECT e, p, g, ty, d
         FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::jsonb[]) WITH ORDINALITY AS t(e, p, g, ty, d, o)
        ORDER BY o`,
      [
        events.map((e) => e.eventId),
        events.map((e) => e.data.projectId),
        events.map((e) => e.data.grantId),
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.data)),
      ],
    );
  }
}

function foldByGrant(rows: readonly LogRow[]): Map<string, Delegation | null> {
  const events = new Map<string, DelegationEvent[]>();
  for (const row of rows) {
    const list = events.get(row.grant_id) ?? [];
    list.push({ type: row.type, data: row.data, occurredAt: new Date(row.recorded_at) } as DelegationEvent);
    events.set(row.grant_id, list);
  }
  return new Map([...events].map(([id, list]) => [id, fold(delegation, list)]));
}
