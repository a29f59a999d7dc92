import type { DataSource } from 'typeorm';
import type { TurnContext, TurnContextCommand } from '@openq/contracts';
import { buildTurnContext } from '../domain';
import { openQuestionsForTurn } from './open-questions.query';
import { recentDecisionsForTurn } from './recent-decisions.query';

/** `openq.context.turn-context` (SPEC §6.3, §11.2): an asker's turn, its open questions and decisions. */
export async function turnContextOf(dataSource: DataSource, cmd: TurnContextCommand): Promise<TurnContext> {
  // One snapshot for both reads, so they agree with each other. (Closing a question and indexing
  // its decision are two events, applied by two consumers: for a moment an answered question can
  // be in neither list — the next turn has it.)
  const [open, decisions] = await dataSource.transaction('REPEATABLE READ', async (manager) => [
    await openQuestionsForTurn(manager, cmd.projectId),
    await recentDecisionsForTurn(manager, cmd.projectId),
  ]);
  return buildTurnContext(cmd.role, open.newest, open.total, decisions);
}
