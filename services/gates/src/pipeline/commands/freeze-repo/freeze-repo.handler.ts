import { Logger } from '@nestjs/common';
import type { RepoFreezeReply, RepoFreezeView } from '@openq/contracts';
import { admitNext } from '../admit-next/admit-next.handler';
import { liftsFreeze, type RepoFreeze, type RepoFreezeCommand } from '../../domain/repo-freeze';
import type { PipelineTransaction } from '../../pipeline-transaction';

const logger = new Logger('pipeline:freeze');

export function freezeView(freeze: RepoFreeze): RepoFreezeView {
  return {
    repo: freeze.repo,
    by: freeze.by,
    motivo: freeze.why,
    frozenAt: freeze.frozenAt.toISOString(),
  };
}

/**
 * Freezes or unfreezes a repo of the project, for both doors (a maintainer's request and the
 * engine's `agent.repo.freeze`), under the project's pipeline lock: the freeze row and the event
 * commit together. Lifting a freeze runs admission again in the same transaction, so the repo's
 * first waiting task enters at once (as a pause lets the next task in).
 */
export async function freezeOrUnfreeze(
  tx: PipelineTransaction,
  command: RepoFreezeCommand,
): Promise<RepoFreezeReply> {
  const current = await tx.store.loadFreeze(tx.projectId, command.repo);
  const { state: next, events } = await tx.freezes.decideAccepted(command, current, tx.now);
  if (events.length > 0) {
    logger.log(
      `project ${tx.projectId}: ${command.by} ${command.type === 'freeze' ? 'froze' : 'unfroze'} ${command.repo}`,
    );
  }
  if (liftsFreeze(events)) {
    const admitted = await admitNext(tx);
    if (admitted.length > 0)
      logger.log(`project ${tx.projectId}: admitted ${admitted.join(', ')} on unfreeze`);
  }
  return {
    repo: command.repo,
    frozen: next !== null,
    freeze: next ? freezeView(next) : null,
    changed: events.length > 0,
  };
}
