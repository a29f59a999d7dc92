import type { EntityManager } from 'typeorm';
import { fold, type ProjectPolicyChanged } from '@openq/contracts';
import type { WireEvent } from '@openq/messaging';
import { projectPolicy, type ProjectPolicy, type ProjectPolicyEvent } from '../domain/project-policy';
import { sendAheadOfNext } from '@openq/persistence';

export type PolicyWireEvent = { type: 'project.policy_changed'; data: ProjectPolicyChanged } & WireEvent & {
    eventId: string;
  };

interface LogRow {
  project_id: string;
  data: ProjectPolicyChanged;
  recorded_at: Date;
}

/** The policy lock of a project: a change takes it alone, the decisions that read the policy share it. */
const LOCK_KEY = `hashtext('policy:' || p)`;

/**
 * Reads and appends the project policy log (§12.1, the source of truth for the policies) inside a
 * caller's transaction. A project's changes are few: every read folds them with `evolve`.
 */
export class PolicyLog {
  constructor(private readonly manager: EntityManager) {}

  /** A policy change, alone: the decisions reading the policy wait for it, or it for them. */
  async lockForChange(projectId: string): Promise<void> {
    await sendAheadOfNext(
      this.manager,
      `SELECT pg_advisory_xact_lock(${LOCK_KEY}) FROM (SELECT $1::text AS p) t`,
      [projectId],
    );
  }

  /**
   * A decision that relies on the policy (a delegate's click, a grant): shared, so such decisions
   * never wait for each other, and a change turning delegation off never lands between the read
   * and the commit. One statement, keys in one order, so two transactions never deadlock on them.
   */
  async lockForRead(projectIds: readonly string[]): Promise<void> {
    if (projectIds.length === 0) return;
    await sendAheadOfNext(
      this.manager,
      `SELECT count(pg_advisory_xact_lock_shared(k)) FROM (
         SELECT DISTINCT ${LOCK_KEY} AS k FROM unnest($1::text[]) AS p ORDER BY k) AS keys`,
      [[...new Set(projectIds)]],
    );
  }

  /** The policies in force in each project (the seeds' rules for a project with no change). */
  async loadMany(projectIds: readonly string[]): Promise<Map<string, ProjectPolicy>> {
    const ids = [...new Set(projectIds)];
    const rows: LogRow[] =
      ids.length === 0
        ? []
        : await this.manager.query(
            `SELECT project_id, data, recorded_at FROM project_policy_log
              WHERE project_id = ANY($1::text[]) ORDER BY position`,
            [ids],
          );
    return new Map(
      ids.map((id) => {
        const events = rows.filter((r) => r.project_id === id).map((r) => policyFromLog(r));
        return [id, fold(projectPolicy, events)];
      }),
    );
  }

  async load(projectId: string): Promise<ProjectPolicy> {
    return (await this.loadMany([projectId])).get(projectId)!;
  }

  async append(events: readonly PolicyWireEvent[]): Promise<void> {
    for (const e of events) {
      await this.manager.query(
        `INSERT INTO project_policy_log (event_id, project_id, type, data) VALUES ($1, $2, $3, $4)`,
        [e.eventId, e.data.projectId, e.type, JSON.stringify(e.data)],
      );
    }
  }
}

/** The wire → domain map, for a row read back from the log. */
function policyFromLog({ data, recorded_at }: LogRow): ProjectPolicyEvent {
  const { projectId, by, motivo, delegacao, overrideDeMantenedor, changedAt } = data;
  return {
    type: 'project.policy_changed',
    data: {
      projectId,
      by,
      reason: motivo,
      delegation: delegacao,
      maintainerOverride: overrideDeMantenedor,
      changedAt,
    },
    occurredAt: new Date(recorded_at),
  };
}
