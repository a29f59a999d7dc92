import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import {
  AgentEvent,
  isRefusal,
  OpenqEvent,
  type AgentQuestionAnswerDto,
  type AgentQuestionDeclareDto,
  type AgentQuestionWithdrawDto,
  type QuestionRejected,
} from '@openq/contracts';
import {
  WHOLE_BATCH,
  type EventUnit,
  type InvalidMessage,
  type JetStreamEventContext,
} from '@openq/messaging';
import { answerQuestion } from './commands/answer-question/answer-question.handler';
import { declareQuestions } from './commands/declare-question/declare-question.handler';
import { withdrawQuestion } from './commands/withdraw-question/withdraw-question.handler';

/** The agents' tool calls, from their durable JetStream consumers: each in its inbox transaction. */
@Controller()
export class QuestionsEventsController {
  /**
   * `declare_open_question` from the engine; the same toolCallId declares once. A batch's
   * declarations are declared together, as the request edge's group commit does: one lock, one
   * look-up of earlier calls and of alike questions, one insert each into the log and the view.
   */
  @EventPattern(AgentEvent.QuestionDeclare, WHOLE_BATCH)
  async onDeclare(@Payload() units: EventUnit[]): Promise<void> {
    await declareQuestions(
      units[0]!.event.manager,
      units.map(({ data, event }) => ({
        projectId: event.envelope.projectId,
        input: { ...(data as AgentQuestionDeclareDto), origin: 'tool' as const },
        outbox: event.outbox,
      })),
      new Date(),
    );
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

  /** §11.5 `withdraw_open_question`: a refusal (404, §12.1 not the asker, already answered) goes back as `question.rejected`. */
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
      { by: 'agent', viaAgente: data.viaAgente, sessionId: data.sessionId ?? null, motivo: data.motivo },
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
