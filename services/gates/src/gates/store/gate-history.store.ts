import type { EntityManager } from 'typeorm';
import { deferRows } from '@openq/persistence';
import type { GateHistoryCommand, GateHistoryEntry, GateHistoryReply } from '@openq/contracts';
import type { WireGateEvent } from '../gate-transaction';

interface HistoryRow {
  task_id: string;
  gate: GateHistoryEntry['gate'];
  type: GateHistoryEntry['type'];
  data: GateHistoryEntry['data'];
  occurred_at: Date;
}

/** Events as rows of one statement, inserted in the order given (`deferRows`). */
const APPEND = `INSERT INTO gate_history (project_id, task_id, gate, type, data, occurred_at)
  SELECT p, t, g, y, d::jsonb, o
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
         WITH ORDINALITY AS x (p, t, g, y, d, o, i)
   ORDER BY i`;

/** [openq] `gate_history`: the events each cycle published, appended with the decision that made them. */
export class GateHistory {
  constructor(private readonly manager: EntityManager) {}

  /**
   * A decision's events, in their order (ids ascend with it), as rows of one statement that the
   * decisions of a batch share (`deferRows`: an append is read by no one in the transaction), sent
   * with the transaction's next statement.
   */
  async append(projectId: string, events: readonly WireGateEvent[]): Promise<void> {
    for (const e of events)
      await deferRows(this.manager, APPEND, [
        projectId,
        e.data.taskId,
        e.data.gate,
        e.type,
        JSON.stringify(e.data),
        e.occurredAt,
      ]);
  }

  /** Newest first: one gate of a task, every gate of a task, or the whole project; with the total. */
  async list(cmd: GateHistoryCommand): Promise<GateHistoryReply> {
    const where = ['project_id = $1'];
    const params: unknown[] = [cmd.projectId];
    if (cmd.taskId) where.push(`task_id = $${params.push(cmd.taskId)}`);
    if (cmd.gate) where.push(`gate = $${params.push(cmd.gate)}`);
    const filter = where.join(' AND ');
    const rows: HistoryRow[] = await this.manager.query(
      `SELECT task_id, gate, type, data, occurred_at FROM gate_history WHERE ${filter}
        ORDER BY id DESC LIMIT $${params.length + 1}`,
      [...params, cmd.limit],
    );
    const [count]: { total: number }[] = await this.manager.query(
      `SELECT count(*)::int AS total FROM gate_history WHERE ${filter}`,
      params,
    );
    const items = rows.map(
      (r) =>
        ({
          taskId: r.task_id,
          gate: r.gate,
          type: r.type,
          occurredAt: r.occurred_at.toISOString(),
          data: r.data,
        }) as GateHistoryEntry,
    );
    return { items, total: count?.total ?? 0 };
  }
}
