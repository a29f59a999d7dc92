import { Logger } from '@nestjs/common';
import { nextAdmissions } from '../../domain/admission';
import type { PipelineTask } from '../../domain/pipeline-task';
import { admissionDegradations } from '../../pipeline.metrics';
import type { PipelineTaskStore, StoredFreezes } from '../../store/pipeline-task.store';
import type { PipelineTransaction } from '../../pipeline-transaction';

const logger = new Logger('pipeline:admission');

/** What the one serial-gate predicate reads, for admission and for the queue snapshot alike. */
export async function gateInputs(
  store: PipelineTaskStore,
  projectId: string,
  opts: { repo?: string | null; withFinished: boolean },
) {
  const stored = await store.queue(projectId, opts);
  const freezes: StoredFreezes = await store.freezes(projectId);
  if ('error' in freezes) {
    admissionDegradations.inc({ check: 'freeze' });
    logger.warn(`project ${projectId}: freeze check failed, every repo counts as frozen: ${freezes.error}`);
  }
  return { stored, freezes };
}

/**
 * Admits every task of the project that the serial gate lets in now (each one `task_admitted`
 * once: the domain admits only from the pending stage). The caller holds the project lock, so
 * two transactions never admit two tasks of one repo.
 */
export async function admitNext(tx: PipelineTransaction): Promise<string[]> {
  const { stored, freezes } = await gateInputs(tx.store, tx.projectId, { withFinished: false });
  const tasks = new Map<string, PipelineTask>(stored.map((s) => [s.task.taskId, s.task]));
  const admitted: string[] = [];
  for (const taskId of nextAdmissions([...tasks.values()], freezes, tx.flags.admission)) {
    const task = tasks.get(taskId);
    if (!task) continue;
    const data = { tasks: [...tasks.values()], freezes, flags: tx.flags.admission };
    const { state, events } = await tx.tasks.decideAccepted({ type: 'admit', data }, task, tx.now);
    if (state) tasks.set(taskId, state);
    if (events.length > 0) admitted.push(taskId);
  }
  return admitted;
}
