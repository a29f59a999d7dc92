import { Header, Injectable, applyDecorators } from '@nestjs/common';
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

  /**
   * `ask` for a route that only relays the service's answer (a read): the reply's `data` bytes
   * go out as the response body as the service encoded them, never parsed and encoded again.
   * The route carries `@RelaysJson()`; an error reply is the same HTTP error as with `ask`.
   */
  async relay<C extends CommandDefinition>(
    command: C,
    payload: PayloadOf<C>,
    headers: RpcHeaders,
  ): Promise<Buffer> {
    const reply = await this.rpc.requestBytes(command.service, command.verb, payload, { headers });
    if (!reply.ok) return replyToHttp(reply);
    return Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength);
  }
}

/** On a route answered by `ServicesClient.relay`: its body is the service's JSON, as bytes. */
export function RelaysJson(): MethodDecorator {
  return applyDecorators(Header('Content-Type', 'application/json; charset=utf-8'));
}
