import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  AgentEvent,
  OpenqEvent,
  type AgentStoryUpsertedDto,
  type AgentTaskStatusDto,
  type DecisionRecorded,
  type DecisionSuperseded,
  type GateRescueParked,
  type GateResumed,
  type QuestionAnswered,
  type QuestionDeclared,
  type QuestionWithdrawn,
} from '@openq/contracts';
import type { JetStreamEventContext } from '@openq/messaging';
import type { AskOnceFact } from './projections/analytics.projector';
import { projectFact } from './projections/context-facts';

/**
 * The read models, fed by durable consumers `context__<type with _ for .>`. Each handler runs in
 * the inbox transaction of its message (a redelivery is ignored there) and is order-safe on its own.
 * Each applies its fact through `projectFact`, as the replay does (`projections/replay.ts`); the
 * types listed here are `CONSUMED_FACT_TYPES` (checked by `context-facts.spec.ts`).
 */
@Controller()
export class ContextEventsController {
  @EventPattern(AgentEvent.StoryUpserted)
  async onStoryUpserted(
    @Payload() data: AgentStoryUpsertedDto,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectFact[AgentEvent.StoryUpserted](manager, { ...envelope, data });
  }

  @EventPattern(AgentEvent.TaskStatus)
  async onTaskStatus(@Payload() data: AgentTaskStatusDto, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectFact[AgentEvent.TaskStatus](manager, { ...envelope, data });
  }

  @EventPattern(OpenqEvent.DecisionRecorded)
  async onDecisionRecorded(
    @Payload() data: DecisionRecorded,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectFact[OpenqEvent.DecisionRecorded](manager, { ...envelope, data });
  }

  @EventPattern(OpenqEvent.QuestionDeclared)
  async onQuestionDeclared(
    @Payload() data: QuestionDeclared,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectFact[OpenqEvent.QuestionDeclared](manager, { ...envelope, data });
  }

  /** §11.5 the question leaves the askers' open list; no decision comes of it. */
  @EventPattern(OpenqEvent.QuestionWithdrawn)
  async onQuestionWithdrawn(
    @Payload() data: QuestionWithdrawn,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectFact[OpenqEvent.QuestionWithdrawn](manager, { ...envelope, data });
  }

  /** §12.4 question quality: suggestion accepted, by click or by agent, time to answer. */
  @EventPattern(OpenqEvent.QuestionAnswered)
  async onQuestionAnswered(
    @Payload() data: QuestionAnswered,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectFact[OpenqEvent.QuestionAnswered](manager, { ...envelope, data });
  }

  /** §12.4 an agent's answer the session author amended. */
  @EventPattern(OpenqEvent.DecisionSuperseded)
  async onDecisionSuperseded(
    @Payload() data: DecisionSuperseded,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectFact[OpenqEvent.DecisionSuperseded](manager, { ...envelope, data });
  }

  /** §12.4 parked time starts here (a user decision) … */
  @EventPattern(OpenqEvent.GateRescueParked)
  async onGateParked(@Payload() data: GateRescueParked, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectFact[OpenqEvent.GateRescueParked](manager, { ...envelope, data });
  }

  /** … and ends at the cycle's next resume. */
  @EventPattern(OpenqEvent.GateResumed)
  async onGateResumed(@Payload() data: GateResumed, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectFact[OpenqEvent.GateResumed](manager, { ...envelope, data });
  }

  /** §12.3 / §12.4 an asker joined an open question instead of asking it again (issue #32). */
  @EventPattern(OpenqEvent.QuestionJoined)
  async onQuestionJoined(@Payload() data: AskOnceFact, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectFact['question.joined'](manager, { ...envelope, data });
  }

  /** §12.3 / §12.4 an asker was shown the decision already made (issue #32). */
  @EventPattern(OpenqEvent.QuestionPrecedentOffered)
  async onPrecedentOffered(@Payload() data: AskOnceFact, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectFact['question.precedent_offered'](manager, { ...envelope, data });
  }
}
