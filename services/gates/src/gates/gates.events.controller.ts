import { Controller, Inject, Logger } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  AgentEvent,
  isRefusal,
  OpenqEvent,
  type AgentGateActivityDto,
  type AgentGateStartedDto,
  type AgentQaVerdictDto,
  type QuestionAnsweredDto,
  type QuestionWithdrawnDto,
} from '@openq/contracts';
import {
  BEFORE_TRANSACTION,
  WHOLE_BATCH,
  type EventUnit,
  type JetStreamEventContext,
  type JetStreamPrepareContext,
} from '@openq/messaging';
import { QuestionOwner, type OpenqConfig } from '@openq/platform';
import { OPENQ_CONFIG } from '../gates-config';
import { recordActivity, startCycle } from './commands/cycle-activity/cycle-activity.handler';
import { hearAnswers } from './commands/hear-answer/hear-answer.handler';
import { hearWithdrawal } from './commands/hear-withdrawal/hear-withdrawal.handler';
import { QuestionDeclarer } from './adapters/question-declarer';
import { AskedBefore } from './commands/record-verdict/cited-questions';
import {
  DeclaredBefore,
  prepareVerdict,
  type PreparedVerdict,
} from './commands/record-verdict/prepare-verdict';
import { recordVerdict, type VerdictContext } from './commands/record-verdict/record-verdict.handler';
import { GateTransaction } from './gate-transaction';
import { deadLetter } from './store/dead-letter.store';

/**
 * Gate cycles over JetStream: agent gate events, `question.answered` and `question.withdrawn`,
 * each in its inbox transaction (effects and outbox rows together).
 */
@Controller()
export class GatesEventsController {
  private readonly logger = new Logger(GatesEventsController.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(OPENQ_CONFIG) private readonly config: OpenqConfig,
    private readonly declarer: QuestionDeclarer,
    private readonly owner: QuestionOwner,
  ) {}

  @EventPattern(AgentEvent.GateStarted)
  async onStarted(@Payload() data: AgentGateStartedDto, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const { manager, outbox, envelope } = ctx.event;
    const tx = new GateTransaction(manager, outbox);
    await this.setAside(
      ctx,
      await startCycle(tx, envelope.projectId, data, this.config.gates.maxCorrections, new Date()),
    );
  }

  @EventPattern(AgentEvent.GateActivity)
  async onActivity(@Payload() data: AgentGateActivityDto, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const { manager, outbox, envelope } = ctx.event;
    await this.setAside(
      ctx,
      await recordActivity(new GateTransaction(manager, outbox), envelope.projectId, data, new Date()),
    );
  }

  /**
   * Before the verdict's transaction: the owner is asked about the questions a parking round
   * cites that this service has not heard answered (§11.1, §11.2), and the round's new questions
   * are declared (idempotently), so no pooled connection and no row lock waits on a call (up to
   * its timeout).
   */
  @EventPattern(AgentEvent.QaVerdict, BEFORE_TRANSACTION)
  askBeforeVerdict(
    @Payload() data: AgentQaVerdictDto,
    @Ctx() ctx: JetStreamPrepareContext,
  ): Promise<PreparedVerdict> {
    const { projectId, correlationId } = ctx.envelope;
    return prepareVerdict(
      this.dataSource.manager,
      data,
      { declarer: this.declarer, owner: this.owner },
      this.verdictContext(projectId, correlationId),
    );
  }

  @EventPattern(AgentEvent.QaVerdict)
  async onVerdict(@Payload() data: AgentQaVerdictDto, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const { manager, outbox, envelope } = ctx.event;
    const prepared = ctx.event.prepared as PreparedVerdict | undefined;
    const questions = {
      declared: new DeclaredBefore(prepared?.declared ?? null),
      owner: new AskedBefore(prepared?.asked ?? [], this.owner),
    };
    const outcome = await recordVerdict(
      new GateTransaction(manager, outbox),
      data,
      questions,
      this.verdictContext(envelope.projectId, envelope.correlationId),
    );
    await this.setAside(ctx, outcome);
  }

  private verdictContext(projectId: string, correlationId: string): VerdictContext {
    return {
      projectId,
      correlationId,
      defaultMaxCorrections: this.config.gates.maxCorrections,
      now: new Date(),
    };
  }

  /** A batch's answers at once (`WHOLE_BATCH`, shared with the pipeline module: both handlers, one transaction). */
  @EventPattern(OpenqEvent.QuestionAnswered, WHOLE_BATCH)
  async onAnswered(@Payload() units: EventUnit[]): Promise<void> {
    const { manager, outbox } = units[0]!.event;
    await hearAnswers(
      new GateTransaction(manager, outbox),
      units.map(({ data, event }) => ({
        projectId: event.envelope.projectId,
        data: data as QuestionAnsweredDto,
        outbox: event.outbox,
      })),
      new Date(),
    );
  }

  /** §11.5 shared with the pipeline module, like `question.answered` (both handlers, one transaction). */
  @EventPattern(OpenqEvent.QuestionWithdrawn)
  async onWithdrawn(@Payload() data: QuestionWithdrawnDto, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const { manager, outbox, envelope } = ctx.event;
    await hearWithdrawal(new GateTransaction(manager, outbox), envelope.projectId, data, new Date());
  }

  /**
   * A refused event (e.g. the questions service refused a QA question) is set aside in the
   * dead-letter table with its reason and acked: retrying would be refused again.
   */
  private async setAside(ctx: JetStreamEventContext, outcome: unknown): Promise<void> {
    if (!isRefusal(outcome)) return;
    const { manager, envelope, deliveries } = ctx.event;
    this.logger.warn(`${envelope.type} ${envelope.eventId} refused: ${outcome.reason}: ${outcome.message}`);
    await deadLetter(manager, envelope, deliveries, outcome);
  }
}
