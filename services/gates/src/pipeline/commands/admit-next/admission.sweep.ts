import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { withOutbox } from '@openq/messaging';
import { PeriodicTask } from '@openq/platform';
import { PIPELINE_FLAGS, type PipelineFlags } from '../../pipeline.flags';
import { PipelineTaskStore } from '../../store/pipeline-task.store';
import { PipelineTransaction } from '../../pipeline-transaction';
import { admitNext } from './admit-next.handler';

/** Every this often (and at boot), pending tasks are looked at again. */
export const ADMISSION_SWEEP_INTERVAL_MS = 30_000;

/**
 * Admission runs on every pipeline event of the project; this sweep covers what no event
 * announces: a freeze lifted by an operator (a row deleted from `pipeline_repo_freeze`).
 * Replicas may sweep together: the project lock serialises them and the second admits nothing.
 */
@Injectable()
export class AdmissionSweep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('pipeline:sweep');
  private readonly periodic = new PeriodicTask(
    ADMISSION_SWEEP_INTERVAL_MS,
    () => this.sweep(),
    (error) => this.logger.warn(`admission sweep failed: ${String(error)}`),
  );

  constructor(
    private readonly dataSource: DataSource,
    @Inject(PIPELINE_FLAGS) private readonly flags: PipelineFlags,
  ) {}

  onApplicationBootstrap(): void {
    this.periodic.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.periodic.stop();
  }

  /** One transaction per project, so one project's trouble never holds up another's. */
  async sweep(): Promise<void> {
    const projects = await new PipelineTaskStore(this.dataSource.manager).projectsWithPendingTasks();
    for (const projectId of projects) {
      if (!this.periodic.running) return;
      const admitted = await withOutbox(this.dataSource, {}, async (manager, outbox) =>
        admitNext(await PipelineTransaction.open(manager, outbox, projectId, this.flags)),
      );
      if (admitted.length > 0)
        this.logger.log(`project ${projectId}: admitted ${admitted.join(', ')} on sweep`);
    }
  }
}
