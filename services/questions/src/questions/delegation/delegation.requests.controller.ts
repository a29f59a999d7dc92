import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  type DelegationListReply,
  type DelegationView,
  type GrantDelegationCommand,
  type GrantDelegationReply,
  type ListDelegationsCommand,
  type Refusal,
  type RevokeDelegationCommand,
} from '@openq/contracts';
import { grantDelegation } from './commands/grant-delegation/grant-delegation.handler';
import { revokeDelegation } from './commands/revoke-delegation/revoke-delegation.handler';
import { listDelegations } from './queries/list-delegations.query';

/** §11.6 delegation grants: grant, revoke, list (request/reply from the gateway). */
@Controller()
export class DelegationRequestsController {
  constructor(private readonly dataSource: DataSource) {}

  @MessagePattern(Commands.questions.delegationGrant.type)
  grant(@Payload() cmd: GrantDelegationCommand): Promise<GrantDelegationReply | Refusal> {
    return grantDelegation(this.dataSource, {
      projectId: cmd.projectId,
      from: cmd.userId,
      to: cmd.to,
      until: cmd.until,
    });
  }

  @MessagePattern(Commands.questions.delegationRevoke.type)
  revoke(@Payload() cmd: RevokeDelegationCommand): Promise<DelegationView | Refusal> {
    return revokeDelegation(this.dataSource, {
      projectId: cmd.projectId,
      grantId: cmd.grantId,
      by: cmd.userId,
    });
  }

  @MessagePattern(Commands.questions.delegationList.type)
  list(@Payload() cmd: ListDelegationsCommand): Promise<DelegationListReply> {
    return listDelegations(this.dataSource, cmd.projectId, cmd.userId);
  }
}
