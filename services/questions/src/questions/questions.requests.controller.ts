import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  type AmendDecisionCommand,
  type AmendDecisionReply,
  isRefusal,
  type AnswerByAgentCommand,
  type AnswerByAgentReply,
  type AnswerQuestionCommand,
  type AnswerQuestionReply,
  type CountQuestionsCommand,
  type DeclaredByCommand,
  type DeclaredByReply,
  type DeclareQuestionCommand,
  type ListQuestionsCommand,
  type ListQuestionsAcrossCommand,
  type QuestionStatusCommand,
  type QuestionStatusReply,
  type ReadinessCommand,
  type Refusal,
  type SplitQuestionCommand,
  type WithdrawQuestionCommand,
  type WithdrawQuestionReply,
} from '@openq/contracts';
import type { AnswerDecision } from './commands/answer-question/answer-question.handler';
import type { DeclareResult } from './commands/declare-question/declare-question.handler';
import { answerKeyReused } from './commands/answer-question/answer-with-key';
import { AnswerKeyTaken } from './store/answer-key.store';
import { splitQuestion } from './commands/split-question/split-question.handler';
import {
  amendIn,
  answerIn,
  QuestionGroups,
  withdrawIn,
  type AnswerUnit,
} from './store/question-groups.store';

import { countQuestions, readiness } from './queries/list-open-questions.query';
import { listFiltered } from './queries/filtered-questions.query';
import { declaredBy, questionStatuses } from './queries/question-status.query';
import { WITHDRAWN } from './domain/question';

/** Request/reply from the gateway and the other services: each a thin call into a use case or a query. */
@Controller()
export class QuestionsRequestsController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly groups: QuestionGroups,
  ) {}

  /**
   * §11.5 the session author withdraws by click; withdrawing again is 200 with the withdrawal that
   * stands. Committed in groups with the answers (`QuestionGroups`): it takes the same lock.
   */
  @MessagePattern(Commands.questions.withdraw.type)
  async withdraw(@Payload() cmd: WithdrawQuestionCommand): Promise<WithdrawQuestionReply | Refusal> {
    const outcome = await withdrawIn(this.groups.answers, {
      projectId: cmd.projectId,
      questionId: cmd.questionId,
      withdrawal: { by: 'user', userId: cmd.userId, motivo: cmd.motivo },
    });
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

  /**
   * §11.5 the session author supersedes an agent's decision; the same amendment again is 200 with
   * it. Committed in groups with the answers (`QuestionGroups`): it takes the same lock.
   */
  @MessagePattern(Commands.questions.amend.type)
  async amend(@Payload() cmd: AmendDecisionCommand): Promise<AmendDecisionReply | Refusal> {
    const outcome = await amendIn(this.groups.answers, {
      projectId: cmd.projectId,
      questionId: cmd.questionId,
      amendment: { userId: cmd.userId, resposta: cmd.resposta },
    });
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

  /** §12.3 the session author splits a wrong join: the joined asker gets its own question. */
  @MessagePattern(Commands.questions.split.type)
  split(@Payload() cmd: SplitQuestionCommand): Promise<{ questionId: string } | Refusal> {
    return splitQuestion(this.dataSource, cmd, new Date());
  }

  /** Declarations arriving together are committed together (`QuestionGroups`). */
  @MessagePattern(Commands.questions.declare.type)
  async declare(@Payload() cmd: DeclareQuestionCommand): Promise<DeclareResult> {
    return this.groups.declarations.submit({ projectId: cmd.projectId, input: cmd.declaration });
  }

  @MessagePattern(Commands.questions.answer.type)
  async answer(@Payload() cmd: AnswerQuestionCommand): Promise<AnswerQuestionReply | Refusal> {
    const command = {
      by: 'user' as const,
      userId: cmd.userId,
      resposta: cmd.resposta,
      aceitarSugestao: cmd.aceitarSugestao,
    };
    const decision = await this.answerInGroup({
      projectId: cmd.projectId,
      questionId: cmd.questionId,
      command,
      ...(cmd.idempotencyKey ? { idempotencyKey: cmd.idempotencyKey } : {}),
    });
    if (isRefusal(decision)) return decision;
    // A click on a withdrawn question is refused by the decider; only an agent's finds it closed.
    if (decision.kind === 'already_withdrawn') return WITHDRAWN();
    const a = decision.answered;
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
    const decision = await this.answerInGroup({
      projectId: cmd.projectId,
      questionId: cmd.questionId,
      command: {
        by: 'agent',
        viaAgente: cmd.viaAgente,
        resposta: cmd.resposta ?? null,
        agentSessionId: cmd.agentSessionId,
      },
    });
    if (isRefusal(decision)) return decision;
    // §12.1 / ADR 0258 item 4: a closed question is never a conflict; closedAs says how it closed.
    if (decision.kind === 'already_withdrawn')
      return {
        status: 'already_answered',
        questionId: cmd.questionId,
        decisionEventId: null,
        closedAs: 'withdrawn',
      };
    return {
      status: decision.kind,
      questionId: cmd.questionId,
      decisionEventId: decision.answered.decisionEventId,
      ...(decision.kind === 'already_answered' ? { closedAs: 'answered' as const } : {}),
    };
  }

  @MessagePattern(Commands.questions.list.type)
  list(@Payload() cmd: ListQuestionsCommand) {
    const { projectId, ...rest } = cmd;
    return listFiltered(this.dataSource.manager, { ...rest, projectIds: [projectId] });
  }

  /** [openq] issue #18 one list over the projects the gateway names (the caller's token's). */
  @MessagePattern(Commands.questions.listAcross.type)
  listAcross(@Payload() cmd: ListQuestionsAcrossCommand) {
    return listFiltered(this.dataSource.manager, cmd);
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

  /** Issue #34: the question a tool call declared, for the 202 of the events route. */
  @MessagePattern(Commands.questions.declaredBy.type)
  declaredBy(@Payload() cmd: DeclaredByCommand): Promise<DeclaredByReply> {
    return declaredBy(this.dataSource.manager, cmd.projectId, cmd.toolCallId);
  }

  /** Answers arriving together are committed together (`QuestionGroups`). */
  private async answerInGroup(unit: AnswerUnit): Promise<AnswerDecision> {
    try {
      return await answerIn(this.groups.answers, unit);
    } catch (error) {
      // A concurrent request of the same user took the key for another question: refused, not stored.
      if (error instanceof AnswerKeyTaken) return answerKeyReused();
      throw error;
    }
  }
}
