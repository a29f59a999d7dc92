import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import {
  EDGE_REASONS,
  EdgeReason,
  refusal,
  type EngineSubscriptionView,
  type Refusal,
  type SetEngineSubscriptionCommand,
} from '@openq/contracts';
import { checkOutboundTarget, OutboundError, type OutboundPolicy } from '@openq/platform';
import type { EngineSubscriptionHint } from '../../store/engine-subscription-hint';
import { putSubscription } from '../../store/engine-subscriptions.store';

const logger = new Logger('EngineSubscriptions');

/** The target must be public, or allowed by the operator (SPEC §12.2), as a person's webhook. */
export async function setEngineSubscriptionHandler(
  dataSource: DataSource,
  outbound: OutboundPolicy,
  hint: EngineSubscriptionHint,
  cmd: SetEngineSubscriptionCommand,
): Promise<EngineSubscriptionView | Refusal> {
  try {
    await checkOutboundTarget(cmd.url, outbound);
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    // A name that does not resolve right now is not refused: it is tried (and classed) at send.
    if (error.failure === EdgeReason.targetNotAllowed) {
      logger.warn(`engine ${cmd.engineId}: subscription target refused: ${error.detail}`);
      return refusal(
        EDGE_REASONS.destino_nao_permitido.status,
        EdgeReason.targetNotAllowed,
        'url: this address cannot receive events: it is not public (an operator may allow it with OPENQ_NOTIFY_ALLOWED_TARGETS)',
      );
    }
  }
  const view = await putSubscription(dataSource.manager, cmd);
  hint.subscribedNow();
  return view;
}
