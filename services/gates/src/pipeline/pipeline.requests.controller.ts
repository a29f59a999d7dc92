import { Controller, Inject } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  type BlockingQuestionsCommand,
  type BlockingQuestionsReply,
  type EnvelopeOrigin,
  type PipelinePauseReply,
  type PipelineQueueCommand,
  type PipelineQueueSnapshot,
  type PipelineTaskCommand,
  type Refusal,
  type RepoFreezeCommand,
  type RepoFreezeReply,
  type RepoUnfreezeCommand,
} from '@openq/contracts';
import { withOutbox, type JetStreamRequestContext } from '@openq/messaging';
import { CORRELATION_HEADER } from '@openq/platform';
import { freezeOrUnfreeze } from './commands/freeze-repo/freeze-repo.handler';
import { pauseOrResume } from './commands/pause-task/pause-task.handler';
import { PIPELINE_FLAGS, type PipelineFlags } from './pipeline.flags';
import { PipelineTransaction } from './pipeline-transaction';
import { blockingQuery } from './queries/blocking.query';
import { pipelineQueue } from './queries/pipeline-queue.query';

/** The request verbs of the pipeline profile (the gateway's `/projects/:p/pipeline/*`). */
@Controller()
export class PipelineRequestsController {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(PIPELINE_FLAGS) private readonly flags: PipelineFlags,
  ) {}

  @MessagePattern(Commands.gates.pipelineQueue.type)
  queue(@Payload() cmd: PipelineQueueCommand): Promise<PipelineQueueSnapshot> {
    return pipelineQueue(this.dataSource, this.flags, cmd);
  }

  /** [openq] issue #18 which open questions block work (parked gates, Needs Input, queued tasks). */
  @MessagePattern(Commands.gates.blocking.type)
  blocking(@Payload() cmd: BlockingQuestionsCommand): Promise<BlockingQuestionsReply> {
    return blockingQuery(this.dataSource, this.flags, cmd);
  }

  @MessagePattern(Commands.gates.pipelinePause.type)
  pause(
    @Payload() cmd: PipelineTaskCommand,
    @Ctx() ctx: JetStreamRequestContext,
  ): Promise<PipelinePauseReply | Refusal> {
    return this.operator(cmd, 'pause', ctx);
  }

  @MessagePattern(Commands.gates.pipelineResume.type)
  resume(
    @Payload() cmd: PipelineTaskCommand,
    @Ctx() ctx: JetStreamRequestContext,
  ): Promise<PipelinePauseReply | Refusal> {
    return this.operator(cmd, 'resume', ctx);
  }

  @MessagePattern(Commands.gates.pipelineFreeze.type)
  freeze(@Payload() cmd: RepoFreezeCommand, @Ctx() ctx: JetStreamRequestContext): Promise<RepoFreezeReply> {
    const { repo, userId: by, motivo: why } = cmd;
    return this.inPipeline(cmd.projectId, ctx, (tx) =>
      freezeOrUnfreeze(tx, { type: 'freeze', repo, by, why }),
    );
  }

  @MessagePattern(Commands.gates.pipelineUnfreeze.type)
  unfreeze(
    @Payload() cmd: RepoUnfreezeCommand,
    @Ctx() ctx: JetStreamRequestContext,
  ): Promise<RepoFreezeReply> {
    const { repo, userId: by } = cmd;
    return this.inPipeline(cmd.projectId, ctx, (tx) => freezeOrUnfreeze(tx, { type: 'unfreeze', repo, by }));
  }

  /** One pipeline change of the project: its lock, its outbox, one transaction. */
  private inPipeline<T>(
    projectId: string,
    ctx: JetStreamRequestContext,
    work: (tx: PipelineTransaction) => Promise<T>,
  ): Promise<T> {
    return withOutbox(this.dataSource, originOf(ctx), async (manager, outbox) =>
      work(await PipelineTransaction.open(manager, outbox, projectId, this.flags)),
    );
  }

  private operator(cmd: PipelineTaskCommand, type: 'pause' | 'resume', ctx: JetStreamRequestContext) {
    return this.inPipeline(cmd.projectId, ctx, (tx) => pauseOrResume(tx, cmd, type));
  }
}

/** The caller's correlation id (the gateway sends it as a NATS header) follows the events. */
function originOf(ctx: JetStreamRequestContext): EnvelopeOrigin {
  const correlationId = ctx.getArgs()[0]?.headers?.get(CORRELATION_HEADER);
  return correlationId ? { correlationId } : {};
}
