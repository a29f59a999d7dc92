import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  AgentEvent,
  OpenqEvent,
  type AgentAnalysisFinishedDto,
  type AgentRepoFreezeDto,
  type AgentTaskCreatedDto,
  type AgentTaskStatusDto,
  type QuestionAnswered,
  type QuestionWithdrawn,
} from '@openq/contracts';
import { DataSource } from 'typeorm';
import {
  BEFORE_TRANSACTION,
  WHOLE_BATCH,
  type EventContext,
  type EventUnit,
  type JetStreamEventContext,
  type JetStreamPrepareContext,
} from '@openq/messaging';
import { changeTaskStatus } from './commands/change-task-status/change-task-status.handler';
import { freezeOrUnfreeze } from './commands/freeze-repo/freeze-repo.handler';
import {
  prepareAnalysis,
  recordAnalysis,
  type PreparedAnalysis,
} from './commands/record-analysis/record-analysis.handler';
import { recordAnswers } from './commands/record-answer/record-answer.handler';
import { registerTask } from './commands/register-task/register-task.handler';
import { AGENT_FREEZER } from './domain/repo-freeze';
import { PIPELINE_FLAGS, type PipelineFlags } from './pipeline.flags';
import { PipelineTransaction } from './pipeline-transaction';
import { QuestionDeclarer } from '../gates/adapters/question-declarer';

/**
 * The pipeline's inbound events. Each runs in the message's inbox transaction (effects, outbox
 * rows and the inbox id commit together), under the project's pipeline lock. `question.answered`
 * and `question.withdrawn` are also handled by the gates module: the transport runs both handlers
 * in that one transaction.
 */
@Controller()
export class PipelineEventsController {
  constructor(
    @Inject(PIPELINE_FLAGS) private readonly flags: PipelineFlags,
    private readonly questions: QuestionDeclarer,
    private readonly dataSource: DataSource,
  ) {}

  @EventPattern(AgentEvent.TaskCreated)
  async onTaskCreated(
    @Payload() data: AgentTaskCreatedDto,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    await registerTask(await this.open(ctx.event), data);
  }

  @EventPattern(AgentEvent.TaskStatus)
  async onTaskStatus(@Payload() data: AgentTaskStatusDto, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    await changeTaskStatus(await this.open(ctx.event), data);
  }

  /** Before the analysis's transaction: its questions are declared (no lock held across the calls). */
  @EventPattern(AgentEvent.AnalysisFinished, BEFORE_TRANSACTION)
  declareBeforeAnalysis(
    @Payload() data: AgentAnalysisFinishedDto,
    @Ctx() ctx: JetStreamPrepareContext,
  ): Promise<PreparedAnalysis> {
    const { projectId, correlationId } = ctx.envelope;
    return prepareAnalysis(this.dataSource.manager, data, this.questions, {
      projectId,
      correlationId,
      flags: this.flags,
      now: new Date(),
      applied: () => ctx.applied(),
    });
  }

  @EventPattern(AgentEvent.AnalysisFinished)
  async onAnalysisFinished(
    @Payload() data: AgentAnalysisFinishedDto,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const prepared = ctx.event.prepared as PreparedAnalysis | undefined;
    await recordAnalysis(await this.open(ctx.event), data, prepared);
  }

  /** A batch's answers at once (`WHOLE_BATCH`: the gates module's handler of the type is one too). */
  @EventPattern(OpenqEvent.QuestionAnswered, WHOLE_BATCH)
  async onQuestionAnswered(@Payload() units: EventUnit[]): Promise<void> {
    await recordAnswers(
      units.map(({ data, event: { manager, outbox, envelope } }) => ({
        tx: PipelineTransaction.unlocked(manager, outbox, envelope.projectId, this.flags),
        questionId: (data as QuestionAnswered).questionId,
      })),
      units[0]!.event.afterHandlers,
    );
  }

  /** §11.5 a withdrawn analyst question is settled like an answered one (see `recordAnswers`). */
  @EventPattern(OpenqEvent.QuestionWithdrawn)
  async onQuestionWithdrawn(
    @Payload() data: QuestionWithdrawn,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const { manager, outbox, envelope, afterHandlers } = ctx.event;
    await recordAnswers(
      [
        {
          tx: PipelineTransaction.unlocked(manager, outbox, envelope.projectId, this.flags),
          questionId: data.questionId,
        },
      ],
      afterHandlers,
    );
  }

  /** §11.3 the engine freezes or unfreezes a repo (`by: agent`); an unfreeze admits at once. */
  @EventPattern(AgentEvent.RepoFreeze)
  async onRepoFreeze(@Payload() data: AgentRepoFreezeDto, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const tx = await this.open(ctx.event);
    await freezeOrUnfreeze(
      tx,
      data.frozen
        ? { type: 'freeze', repo: data.repo, by: AGENT_FREEZER, why: data.motivo ?? '' }
        : { type: 'unfreeze', repo: data.repo, by: AGENT_FREEZER },
    );
  }

  private open({ manager, outbox, envelope }: EventContext): Promise<PipelineTransaction> {
    return PipelineTransaction.open(manager, outbox, envelope.projectId, this.flags);
  }
}
