import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  refusal,
  type AnalyticsCommand,
  type AnalyticsReply,
  type ArchiveStoryCommand,
  type ArchiveStoryReply,
  type CorrectStoryCommand,
  type CorrectStoryReply,
  type DevContext,
  type QaCut,
  type Refusal,
  type TaskContextCommand,
  type TurnContext,
  type TurnContextCommand,
} from '@openq/contracts';
import { withOutbox } from '@openq/messaging';
import { archiveStory } from './commands/archive-story/archive-story.handler';
import { citedQuestionBefore, correctStory } from './commands/correct-story/correct-story.handler';
import { buildDevContext, buildQaCut, buildTurnContext } from './domain';
import { QuestionOwner } from './question-owner';
import { openQuestionsForTurn } from './queries/open-questions.query';
import { recentDecisionsForTurn } from './queries/recent-decisions.query';
import { loadTaskFacts } from './queries/task-facts.query';
import { analyticsRows } from './analytics/analytics.query';

/** `openq.context.*`: what the agents read (SPEC §6.1–6.3), the story correction (§6.4) and archive (§11.3). */
@Controller()
export class ContextRequestsController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly owner: QuestionOwner,
  ) {}

  /** §12.4 question quality over days `from`..`to` (UTC, both included). */
  @MessagePattern(Commands.context.analytics.type)
  async analytics(@Payload() cmd: AnalyticsCommand): Promise<AnalyticsReply> {
    const window = {
      from: new Date(`${cmd.from}T00:00:00Z`),
      until: new Date(Date.parse(`${cmd.to}T00:00:00Z`) + 86_400_000),
    };
    const rows = await analyticsRows(this.dataSource.manager, cmd.projectId, window, cmd.by);
    return { rows, from: cmd.from, to: cmd.to };
  }

  @MessagePattern(Commands.context.devContext.type)
  async devContext(@Payload() cmd: TaskContextCommand): Promise<DevContext | Refusal> {
    const facts = await loadTaskFacts(this.dataSource.manager, cmd.projectId, cmd.taskId);
    return facts ? buildDevContext(facts.task, facts.story, facts.candidates) : taskNotFound(cmd.taskId);
  }

  @MessagePattern(Commands.context.qaCut.type)
  async qaCut(@Payload() cmd: TaskContextCommand): Promise<QaCut | Refusal> {
    const facts = await loadTaskFacts(this.dataSource.manager, cmd.projectId, cmd.taskId);
    return facts ? buildQaCut(facts.task, facts.story, facts.candidates) : taskNotFound(cmd.taskId);
  }

  @MessagePattern(Commands.context.turnContext.type)
  async turnContext(@Payload() cmd: TurnContextCommand): Promise<TurnContext> {
    // One snapshot for both reads, so they agree with each other. (Closing a question and indexing
    // its decision are two events, applied by two consumers: for a moment an answered question can
    // be in neither list — the next turn has it.)
    const [open, decisions] = await this.dataSource.transaction('REPEATABLE READ', async (manager) => [
      await openQuestionsForTurn(manager, cmd.projectId),
      await recentDecisionsForTurn(manager, cmd.projectId),
    ]);
    return buildTurnContext(cmd.role, open.newest, open.total, decisions);
  }

  @MessagePattern(Commands.context.correctStory.type)
  async correctStory(@Payload() cmd: CorrectStoryCommand): Promise<CorrectStoryReply | Refusal> {
    // Before the transaction: the owner may be asked (§11.2), and nothing is held while it answers.
    const cited = await citedQuestionBefore(
      this.dataSource.manager,
      this.owner,
      cmd.projectId,
      cmd.questionId,
    );
    return withOutbox(this.dataSource, {}, (manager, outbox) =>
      correctStory(manager, outbox, cmd, new Date(), cited),
    );
  }

  @MessagePattern(Commands.context.archiveStory.type)
  archiveStory(@Payload() cmd: ArchiveStoryCommand): Promise<ArchiveStoryReply | Refusal> {
    return withOutbox(this.dataSource, {}, (manager, outbox) =>
      archiveStory(manager, outbox, cmd, new Date()),
    );
  }
}

function taskNotFound(taskId: string): Refusal {
  return refusal(404, 'tarefa_nao_encontrada', `task ${taskId} not found`);
}
