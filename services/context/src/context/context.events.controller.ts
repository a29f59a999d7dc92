import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  AgentEvent,
  OpenqEvent,
  type AgentStoryUpsertedDto,
  type AgentTaskStatusDto,
  type DecisionRecorded,
  type QuestionAnswered,
  type QuestionDeclared,
} from '@openq/contracts';
import type { JetStreamEventContext } from '@openq/messaging';
import { projectDecisionRecorded } from './projections/decision.projector';
import { versionOf } from './projections/fact-version';
import { projectQuestionAnswered, projectQuestionDeclared } from './projections/question.projector';
import { projectStoryUpserted } from './projections/story.projector';
import { projectTaskStatus } from './projections/task.projector';

/**
 * The read models, fed by durable consumers `context__<type with _ for .>`. Each handler runs in
 * the inbox transaction of its message (a redelivery is ignored there) and is order-safe on its own.
 */
@Controller()
export class ContextEventsController {
  @EventPattern(AgentEvent.StoryUpserted)
  async onStoryUpserted(
    @Payload() data: AgentStoryUpsertedDto,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectStoryUpserted(manager, envelope.projectId, data, versionOf(envelope));
  }

  @EventPattern(AgentEvent.TaskStatus)
  async onTaskStatus(@Payload() data: AgentTaskStatusDto, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectTaskStatus(manager, envelope.projectId, data, versionOf(envelope));
  }

  @EventPattern(OpenqEvent.DecisionRecorded)
  async onDecisionRecorded(
    @Payload() data: DecisionRecorded,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectDecisionRecorded(manager, envelope.projectId, data);
  }

  @EventPattern(OpenqEvent.QuestionDeclared)
  async onQuestionDeclared(
    @Payload() data: QuestionDeclared,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectQuestionDeclared(manager, envelope.projectId, data);
  }

  @EventPattern(OpenqEvent.QuestionAnswered)
  async onQuestionAnswered(
    @Payload() data: QuestionAnswered,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const { manager, envelope } = ctx.event;
    await projectQuestionAnswered(manager, envelope.projectId, data);
  }
}
