import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { headers as natsHeaders, type NatsConnection } from 'nats';
import { AgentEvent, agentEventRegistry, eventSubject, QuestionsCommand } from '@openq/contracts';
import { checkEventEnvelope, encodeJson, EventEnvelopeDto, RpcClient } from '@openq/messaging';
import { CORRELATION_HEADER } from '@openq/platform';
import { InternalApi } from '../http/api-docs.decorators';
import { httpError, Reason } from '../http/http-error';
import { IdParam } from '../http/params';
import { CallHeaders, type RpcHeaders } from '../http/rpc-headers.decorator';
import { NATS_CONNECTION } from '../messaging/nats.module';

/** How long the route waits for JetStream's PubAck before answering 503. */
const PUBLISH_TIMEOUT_MS = 10_000;
/** How long the 202 of a declaration waits to learn its questionId; past it, the 202 goes without. */
const DECLARED_BY_TIMEOUT_MS = 1_000;

/**
 * SPEC §11.4: the door for an engine that speaks HTTP only. It takes one agent envelope (§8),
 * checks it exactly as the consumers will (`checkEventEnvelope` with the agent event registry)
 * and publishes it on `<type>.<projectId>` with `Nats-Msg-Id = eventId`: the same envelope
 * posted again is dropped by JetStream's duplicate window, and the services dedupe by eventId
 * (inbox) and toolCallId past it. 202 only once the PubAck came back.
 */
@InternalApi('agent events')
@Controller('internal/projects/:projectId/events')
export class AgentEventsController {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly rpc: RpcClient,
  ) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Publish one agent event envelope (type agent.*) on JetStream with Nats-Msg-Id = eventId; ' +
      '202 { eventId } once stored (the same envelope again: 202, nothing doubled); for ' +
      'agent.question.declare also { questionId } once the declaration is known (post it again to ask)',
  })
  async publish(
    @IdParam('projectId') projectId: string,
    @Body() body: EventEnvelopeDto,
    @CallHeaders() headers: RpcHeaders,
  ): Promise<{ eventId: string; questionId?: string }> {
    if (!body.type.startsWith('agent.'))
      throw httpError(
        400,
        Reason.badBody,
        `type: only agent events (agent.*) may be posted, not ${body.type}`,
      );
    if (body.projectId !== projectId)
      throw httpError(
        400,
        Reason.badBody,
        `projectId: the envelope names ${body.projectId}, the path ${projectId}`,
      );
    const subject = eventSubject(body.type, projectId);
    // What is published is the envelope as sent; the check below replaces `data` with its DTO.
    const payload = encodeJson({ ...body });
    const checked = checkEventEnvelope({ ...body }, subject, agentEventRegistry);
    if (!checked.ok) {
      // The payload's own fields are named from the envelope down (`data.pergunta`).
      const inData = checked.field?.startsWith('data.') === true;
      throw httpError(400, checked.reason, inData ? `data.${checked.message}` : checked.message);
    }
    const h = natsHeaders();
    for (const [key, value] of Object.entries(headers)) if (key !== CORRELATION_HEADER) h.set(key, value);
    try {
      await this.nc.jetstream().publish(subject, payload, {
        msgID: body.eventId,
        headers: h,
        timeout: PUBLISH_TIMEOUT_MS,
      });
    } catch (error) {
      throw httpError(
        503,
        Reason.serviceUnavailable,
        `the event was not stored by JetStream (${error instanceof Error ? error.message : String(error)}); post it again`,
      );
    }
    const questionId = await this.declaredBy(projectId, body);
    return { eventId: body.eventId, ...(questionId ? { questionId } : {}) };
  }

  /**
   * Issue #34 (SPEC §12.5): the question a declaration's tool call made, when the log already has
   * it (the same envelope posted again once it was applied), asked of the questions service with
   * a short bound. Anything else — not a declaration, not yet declared, no answer — is no `questionId`.
   */
  private async declaredBy(projectId: string, body: EventEnvelopeDto): Promise<string | null> {
    if (body.type !== AgentEvent.QuestionDeclare) return null;
    const toolCallId = (body.data as { toolCallId?: unknown }).toolCallId;
    if (typeof toolCallId !== 'string') return null;
    const reply = await this.rpc.request<{ questionId: string | null }>(
      QuestionsCommand.declaredBy.service,
      QuestionsCommand.declaredBy.verb,
      { projectId, toolCallId },
      { timeoutMs: DECLARED_BY_TIMEOUT_MS },
    );
    return reply.ok ? reply.data.questionId : null;
  }
}
