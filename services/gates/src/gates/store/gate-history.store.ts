import type { EntityManager } from 'typeorm';
import { deferWrite } from '@openq/persistence';
import type { GateHistoryCommand, GateHistoryEntry, GateHistoryReply } from '@openq/contracts';
import type { WireGateEvent } from '../gate-transaction';

interface HistoryRow {
  task_id: string;
  gate: GateHistoryEntry['gate'];
  type: GateHistoryEntry['type'];
  data: GateHistoryEntry['data'];
  occurred_at: Date;
}

/** [openq] `gate_history`: the events each cycle published, appended with the decision that made them. */
export class GateHistory {
  constructor(private readonly manager: EntityManager) {}

  /**
   * One statement for a decision's events, in their order (ids ascend with it), sent with the
   * transaction's next statement (`deferWrite`: an append is read by no one in it).
   */
  async append(projectId: string, events: readonly WireGateEvent[]): Promise<void> {
    if (events.length === 0) return;
    const values: unknown[] = [];
    const rows = events.map((e, i) => {
      values.push(projectId, e.data.taskId, e.data.gate, e.type, JSON.stringify(e.data), e.occurredAt);
      const n = i * 6;
      return `($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}::jsonb, $${n + 6})`;
    });
    await deferWrite(
      this.manager,
      `INSERT INTO gate_history (project_id, task_id, gate, type, data, occurred_at) VALUES ${rows.join(', ')}`,
      values,
    );
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
