import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  AgentEvent,
  Commands,
  type AmendDecisionCommand,
  type AmendDecisionReply,
  isRefusal,
  OpenqEvent,
  type AgentQuestionAnswerDto,
  type AgentQuestionDeclareDto,
  type AgentQuestionWithdrawDto,
  type AnswerByAgentCommand,
  type AnswerByAgentReply,
  type AnswerQuestionCommand,
  type AnswerQuestionReply,
  type CountQuestionsCommand,
  type DeclareQuestionCommand,
  type ListQuestionsCommand,
  type QuestionAnswered,
  type QuestionRejected,
  type QuestionStatusCommand,
  type QuestionStatusReply,
  type ReadinessCommand,
  type Refusal,
  type WithdrawQuestionCommand,
  type WithdrawQuestionReply,
} from '@openq/contracts';
import { withOutbox, type InvalidMessage, type JetStreamEventContext } from '@openq/messaging';
import { answerQuestion, type AnswerDecision } from './commands/answer-question/answer-question.handler';
import { AnswerKeyTaken, answerKeyReused, answerWithKey } from './commands/answer-question/answer-with-key';
import { declareQuestion, type DeclareResult } from './commands/declare-question/declare-question.handler';
import { withdrawQuestion } from './commands/withdraw-question/withdraw-question.handler';
import { amendDecision } from './commands/amend-decision/amend-decision.handler';

import { countQuestions, listQuestions, readiness } from './queries/list-open-questions.query';
import { questionStatuses } from './queries/question-status.query';

@Controller()
export class QuestionsMessagesController {
  constructor(private readonly dataSource: DataSource) {}

  /** `declare_open_question` from the engine; the same toolCallId declares once. */
  @EventPattern(AgentEvent.QuestionDeclare)
  async onDeclare(
    @Payload() data: AgentQuestionDeclareDto,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const { manager, outbox, envelope } = ctx.event;
    await declareQuestion(manager, outbox, envelope.projectId, { ...data, origin: 'tool' }, new Date());
  }

  /** `answer_open_question` (ADR 0258): a refusal goes back to the engine as `question.rejected`. */
  @EventPattern(AgentEvent.QuestionAnswer)
  async onAnswer(@Payload() data: AgentQuestionAnswerDto, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    const { manager, outbox, envelope } = ctx.event;
    const decision = await answerQuestion(
      manager,
      outbox,
      envelope.projectId,
      data.questionId,
      {
        by: 'agent',
        viaAgente: data.viaAgente,
        resposta: data.resposta ?? null,
        agentSessionId: data.agentSessionId,
      },
      new Date(),
    );
    if (isRefusal(decision)) {
      outbox.event<QuestionRejected>(OpenqEvent.QuestionRejected, envelope.projectId, {
        toolCallId: data.toolCallId,
        reason: decision.reason,
        message: decision.message,
      });
    }
  }

  /** §11.5 `withdraw_open_question`: a refusal (404, already answered) goes back as `question.rejected`. */
  @EventPattern(AgentEvent.QuestionWithdraw)
  async onWithdraw(
    @Payload() data: AgentQuestionWithdrawDto,
    @Ctx() ctx: JetStreamEventContext,
  ): Promise<void> {
    const { manager, outbox, envelope } = ctx.event;
    const outcome = await withdrawQuestion(
      manager,
      outbox,
      envelope.projectId,
      data.questionId,
      { by: 'agent', viaAgente: data.viaAgente, motivo: data.motivo },
      new Date(),
    );
    if (isRefusal(outcome)) {
      outbox.event<QuestionRejected>(OpenqEvent.QuestionRejected, envelope.projectId, {
        toolCallId: data.toolCallId,
        reason: outcome.reason,
        message: outcome.message,
      });
    }
  }

  /** §11.5 the session author withdraws by click; withdrawing again is 200 with the withdrawal that stands. */
  @MessagePattern(Commands.questions.withdraw.type)
  async withdraw(@Payload() cmd: WithdrawQuestionCommand): Promise<WithdrawQuestionReply | Refusal> {
    const outcome = await withOutbox(this.dataSource, {}, (manager, outbox) =>
      withdrawQuestion(
        manager,
        outbox,
        cmd.projectId,
        cmd.questionId,
        { by: 'user', userId: cmd.userId, motivo: cmd.motivo },
        new Date(),
      ),
    );
    if (isRefusal(outcome)) return outcome;
    const { by, motivo, withdrawnAt } = outcome.withdrawn;
    return {
      withdrawn: true,
      questionId: cmd.questionId,
      status: 'withdrawn',
      by,
      motivo,
      withdrawnAt,
      alreadyWithdrawn: outcome.kind === 'already_withdrawn',
    };
  }

  /** §11.5 the session author supersedes an agent's decision; the same amendment again is 200 with it. */
  @MessagePattern(Commands.questions.amend.type)
  async amend(@Payload() cmd: AmendDecisionCommand): Promise<AmendDecisionReply | Refusal> {
    const outcome = await withOutbox(this.dataSource, {}, (manager, outbox) =>
      amendDecision(
        manager,
        outbox,
        cmd.projectId,
        cmd.questionId,
        { userId: cmd.userId, resposta: cmd.resposta },
        new Date(),
      ),
    );
    if (isRefusal(outcome)) return outcome;
    const { decisionEventId, supersededDecisionEventId, resposta } = outcome.superseded;
    return {
      questionId: cmd.questionId,
      decisionEventId,
      supersededDecisionEventId,
      resposta,
      alreadyAmended: outcome.kind === 'already_amended',
    };
  }

  @MessagePattern(Commands.questions.declare.type)
  async declare(@Payload() cmd: DeclareQuestionCommand): Promise<DeclareResult> {
    return withOutbox(this.dataSource, {}, (manager, outbox) =>
      declareQuestion(manager, outbox, cmd.projectId, cmd.declaration, new Date()),
    );
  }

  @MessagePattern(Commands.questions.answer.type)
  async answer(@Payload() cmd: AnswerQuestionCommand): Promise<AnswerQuestionReply | Refusal> {
    const command = {
      by: 'user' as const,
      userId: cmd.userId,
      resposta: cmd.resposta,
      aceitarSugestao: cmd.aceitarSugestao,
    };
    const a = cmd.idempotencyKey
      ? await this.answerWithKey(cmd.projectId, cmd.questionId, command, cmd.idempotencyKey)
      : await this.answerOnce(cmd.projectId, cmd.questionId, command).then((d) =>
          isRefusal(d) ? d : d.answered,
        );
    if (isRefusal(a)) return a;
    return {
      questionId: a.questionId,
      status: 'answered',
      resposta: a.resposta,
      aceitouSugestao: a.aceitouSugestao,
      decisionEventId: a.decisionEventId,
      respondidaPor: a.respondidaPor,
    };
  }

  @MessagePattern(Commands.questions.answerByAgent.type)
  async answerByAgent(@Payload() cmd: AnswerByAgentCommand): Promise<AnswerByAgentReply | Refusal> {
    const decision = await this.answerOnce(cmd.projectId, cmd.questionId, {
      by: 'agent',
      viaAgente: cmd.viaAgente,
      resposta: cmd.resposta ?? null,
      agentSessionId: cmd.agentSessionId,
    });
    if (isRefusal(decision)) return decision;
    return {
      status: decision.kind,
      questionId: cmd.questionId,
      decisionEventId: decision.answered.decisionEventId,
    };
  }

  @MessagePattern(Commands.questions.list.type)
  list(@Payload() cmd: ListQuestionsCommand) {
    return listQuestions(this.dataSource.manager, cmd);
  }

  @MessagePattern(Commands.questions.count.type)
  async count(@Payload() cmd: CountQuestionsCommand): Promise<{ open: number }> {
    return { open: await countQuestions(this.dataSource.manager, cmd.projectId, 'open') };
  }

  @MessagePattern(Commands.questions.readiness.type)
  readiness(@Payload() cmd: ReadinessCommand) {
    return readiness(this.dataSource.manager, cmd.projectId, cmd.action);
  }

  /** §11.2 another service asks before refusing on its read model (read-your-writes). */
  @MessagePattern(Commands.questions.status.type)
  status(@Payload() cmd: QuestionStatusCommand): Promise<QuestionStatusReply> {
    return questionStatuses(this.dataSource.manager, cmd.projectId, cmd.questionIds);
  }

  private async answerWithKey(
    projectId: string,
    questionId: string,
    command: Parameters<typeof answerWithKey>[4],
    key: string,
  ): Promise<QuestionAnswered | Refusal> {
    try {
      return await withOutbox(this.dataSource, {}, (manager, outbox) =>
        answerWithKey(manager, outbox, projectId, questionId, command, key, new Date()),
      );
    } catch (error) {
      if (error instanceof AnswerKeyTaken) return answerKeyReused();
      throw error;
    }
  }

  private answerOnce(
    projectId: string,
    questionId: string,
    command: Parameters<typeof answerQuestion>[4],
  ): Promise<AnswerDecision> {
    return withOutbox(this.dataSource, {}, (manager, outbox) =>
      answerQuestion(manager, outbox, projectId, questionId, command, new Date()),
    );
  }
}

/** A refused tool call still gets an answer: `question.rejected` with the failing field. */
export async function rejectToolCall(invalid: InvalidMessage): Promise<void> {
  const data = invalid.envelope?.data as { toolCallId?: unknown } | undefined;
  const projectId = invalid.envelope?.projectId;
  if (!projectId || typeof data?.toolCallId !== 'string' || data.toolCallId.length === 0) return;
  invalid.outbox.event<QuestionRejected>(OpenqEvent.QuestionRejected, projectId, {
    toolCallId: data.toolCallId.slice(0, 200),
    reason: invalid.reason,
    message: invalid.message,
  });
}
