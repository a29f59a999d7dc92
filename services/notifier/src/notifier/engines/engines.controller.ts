import { Controller, Inject, Logger } from '@nestjs/common';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  Commands,
  EDGE_REASONS,
  ENGINE_REASONS,
  EngineReason,
  EVERY_OPENQ_EVENT,
  EdgeReason,
  refusal,
  type EngineCommand,
  type EngineSubscriptionDeleted,
  type EngineSubscriptionView,
  type Refusal,
  type SetEngineSubscriptionCommand,
} from '@openq/contracts';
import type { JetStreamEventContext } from '@openq/messaging';
import { checkOutboundTarget, OutboundError } from '@openq/platform';
import { NOTIFIER_RUNTIME, type NotifierRuntime } from '../notifier-runtime';
import {
  anySubscription,
  deleteSubscription,
  getSubscription,
  planEngineDeliveries,
  putSubscription,
} from './engine-subscriptions.store';

/** How long this process trusts what it last read of whether any engine subscribes. */
const HINT_TTL_MS = 1_000;

const notFound = (engineId: string): Refusal =>
  refusal(
    ENGINE_REASONS.inscricao_nao_encontrada.status,
    EngineReason.subscriptionNotFound,
    `engine ${engineId} has no subscription`,
  );

/**
 * Issue #34 (SPEC §12.5) engines on HTTP alone: each engine's subscription
 * (`openq.notifier.*-engine-subscription`, the gateway's `/internal/engines/:engineId/subscription`),
 * and one durable consumer over the whole OPENQ_EVENTS stream (`notifier__openq_events`) that
 * plans, in each event's inbox transaction, one delivery per engine subscribed to it.
 */
@Controller()
export class EnginesController {
  private readonly logger = new Logger('EngineSubscriptions');

  constructor(
    private readonly dataSource: DataSource,
    @Inject(NOTIFIER_RUNTIME) private readonly runtime: NotifierRuntime,
  ) {}

  /** Whether any engine subscribed when last read, and when that was (`HINT_TTL_MS`). */
  private subscribed = { any: true, readAt: 0, reading: false };

  @EventPattern(EVERY_OPENQ_EVENT)
  async onEvent(@Payload() _data: unknown, @Ctx() ctx: JetStreamEventContext): Promise<void> {
    await planEngineDeliveries(ctx.event.manager, ctx.event.envelope, ctx.event.streamSeq);
    // The rows commit with the message; the sender looks again shortly after, when some engine
    // may be owed it. Only a hint: the sender also looks every NOTIFIER_POLL_MS whatever it says.
    if (this.maySubscribe()) setTimeout(() => this.runtime.sender?.kick(), 20).unref();
  }

  /** The hint, read again outside any transaction at most once per `HINT_TTL_MS`. */
  private maySubscribe(): boolean {
    const hint = this.subscribed;
    if (!hint.reading && Date.now() - hint.readAt > HINT_TTL_MS) {
      hint.reading = true;
      anySubscription(this.dataSource.manager).then(
        (any) => Object.assign(hint, { any, readAt: Date.now(), reading: false }),
        () => Object.assign(hint, { any: true, reading: false }),
      );
    }
    return hint.any;
  }

  @MessagePattern(Commands.notifier.engineSubscription.type)
  async subscription(@Payload() cmd: EngineCommand): Promise<EngineSubscriptionView | Refusal> {
    return (await getSubscription(this.dataSource.manager, cmd.engineId)) ?? notFound(cmd.engineId);
  }

  /** The target must be public, or allowed by the operator (SPEC §12.2), as a person's webhook. */
  @MessagePattern(Commands.notifier.setEngineSubscription.type)
  async setSubscription(
    @Payload() cmd: SetEngineSubscriptionCommand,
  ): Promise<EngineSubscriptionView | Refusal> {
    try {
      await checkOutboundTarget(cmd.url, this.runtime.settings.outbound);
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      // A name that does not resolve right now is not refused: it is tried (and classed) at send.
      if (error.failure === EdgeReason.targetNotAllowed) {
        this.logger.warn(`engine ${cmd.engineId}: subscription target refused: ${error.detail}`);
        return refusal(
          EDGE_REASONS.destino_nao_permitido.status,
          EdgeReason.targetNotAllowed,
          'url: this address cannot receive events: it is not public (an operator may allow it with OPENQ_NOTIFY_ALLOWED_TARGETS)',
        );
      }
    }
    const view = await putSubscription(this.dataSource.manager, cmd);
    this.subscribed.any = true;
    return view;
  }

  @MessagePattern(Commands.notifier.deleteEngineSubscription.type)
  async deleteSubscription(@Payload() cmd: EngineCommand): Promise<EngineSubscriptionDeleted | Refusal> {
    const deleted = await deleteSubscription(this.dataSource.manager, cmd.engineId);
    return deleted ? { engineId: cmd.engineId, deleted: true } : notFound(cmd.engineId);
  }
}
