import { Injectable } from '@nestjs/common';
import type { CommandDefinition, PayloadOf, ReplyOf } from '@openq/contracts';
import { RpcClient } from '@openq/messaging';
import { replyToHttp } from './reply';
import type { RpcHeaders } from './rpc-headers.decorator';

/** The controllers' one way to a service: request/reply on `openq.<service>.<verb>`, reply → HTTP. */
@Injectable()
export class ServicesClient {
  constructor(private readonly rpc: RpcClient) {}

  async ask<C extends CommandDefinition>(
    command: C,
    payload: PayloadOf<C>,
    headers: RpcHeaders,
  ): Promise<ReplyOf<C>> {
    const reply = await this.rpc.request<ReplyOf<C>>(command.service, command.verb, payload, { headers });
    return replyToHttp(reply);
  }
}
