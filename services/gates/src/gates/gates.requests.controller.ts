import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  type GateHistoryCommand,
  type GateHistoryReply,
  type GateResumeReply,
  type GatesWaitingReply,
  type GateView,
  type ListGatesCommand,
  type Refusal,
  type ResumeGateCommand,
  type WaitingGatesCommand,
} from '@openq/contracts';
import { withOutbox, type JetStreamRequestContext } from '@openq/messaging';
import { CORRELATION_HEADER } from '@openq/platform';
import { resumeGate } from './commands/resume-gate/resume-gate.handler';
import { GateTransaction } from './gate-transaction';
import { gateHistory, listGates, waitingGates } from './queries/list-gates.query';

/** The `openq.gates.*` requests of the gate cycles: list, waiting, history and resume (§11.1). */
@Controller()
export class GatesRequestsController {
  constructor(private readonly dataSource: DataSource) {}

  @MessagePattern(Commands.gates.list.type)
  list(@Payload() cmd: ListGatesCommand): Promise<GateView[] | Refusal> {
    return listGates(this.dataSource.manager, cmd);
  }

  @MessagePattern(Commands.gates.waiting.type)
  waiting(@Payload() cmd: WaitingGatesCommand): Promise<GatesWaitingReply> {
    return waitingGates(this.dataSource.manager, cmd);
  }

  @MessagePattern(Commands.gates.history.type)
  history(@Payload() cmd: GateHistoryCommand): Promise<GateHistoryReply> {
    return gateHistory(this.dataSource.manager, cmd);
  }

  @MessagePattern(Commands.gates.resume.type)
  resume(
    @Payload() cmd: ResumeGateCommand,
    @Ctx() ctx: JetStreamRequestContext,
  ): Promise<GateResumeReply | Refusal> {
    const correlationId = ctx.getArgs()[0].headers?.get(CORRELATION_HEADER) || undefined;
    return withOutbox(this.dataSource, { correlationId }, (manager, outbox) =>
      resumeGate(new GateTransaction(manager, outbox), cmd, new Date()),
    );
  }
}
