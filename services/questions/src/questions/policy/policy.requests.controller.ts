import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  type ChangePoliciesCommand,
  type GetPoliciesCommand,
  type ProjectPolicies,
  type ProjectPoliciesReply,
  type Refusal,
} from '@openq/contracts';
import { changePolicies } from './commands/change-policies/change-policies.handler';
import { getPolicies } from './queries/get-policies.query';

/** §12.1 the project's policies: read them, change them (request/reply from the gateway). */
@Controller()
export class PolicyRequestsController {
  constructor(private readonly dataSource: DataSource) {}

  @MessagePattern(Commands.questions.policiesGet.type)
  get(@Payload() cmd: GetPoliciesCommand): Promise<ProjectPoliciesReply> {
    return getPolicies(this.dataSource, cmd.projectId, cmd.userId);
  }

  @MessagePattern(Commands.questions.policiesChange.type)
  change(@Payload() cmd: ChangePoliciesCommand): Promise<ProjectPolicies | Refusal> {
    return changePolicies(this.dataSource, {
      projectId: cmd.projectId,
      by: cmd.userId,
      motivo: cmd.motivo,
      ...(cmd.delegacao !== undefined ? { delegacao: cmd.delegacao } : {}),
      ...(cmd.overrideDeMantenedor !== undefined ? { overrideDeMantenedor: cmd.overrideDeMantenedor } : {}),
    });
  }
}
