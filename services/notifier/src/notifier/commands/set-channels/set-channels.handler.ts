import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import {
  EDGE_REASONS,
  EdgeReason,
  refusal,
  type NotificationChannelsView,
  type Refusal,
  type SetNotificationChannelsCommand,
} from '@openq/contracts';
import { checkOutboundTarget, OutboundError, type OutboundPolicy } from '@openq/platform';
import { channelsView, setChannels } from '../../store/channels.store';
import { recordMember } from '../../store/clock.store';

const logger = new Logger('NotifierChannels');

/**
 * Issue #27 (SPEC §12.2): a webhook or Slack target must resolve to public addresses (or ones
 * the operator allows) — else 400 `destino_nao_permitido` and nothing is saved. The same rule
 * holds again at every send (the name may resolve elsewhere by then).
 */
export async function setChannelsHandler(
  dataSource: DataSource,
  outbound: OutboundPolicy,
  cmd: SetNotificationChannelsCommand,
): Promise<NotificationChannelsView | Refusal> {
  const targets = [cmd.channels.webhook?.url, cmd.channels.slack?.webhookUrl].filter(
    (url): url is string => typeof url === 'string',
  );
  for (const url of targets) {
    const refused = await refusedTarget(url, outbound);
    if (refused) return refused;
  }
  return dataSource.transaction(async (m) => {
    await recordMember(m, cmd.projectId, cmd.userId, cmd.role);
    await setChannels(m, cmd.projectId, cmd.userId, cmd.channels);
    return channelsView(m, cmd.projectId, cmd.userId);
  });
}

async function refusedTarget(url: string, outbound: OutboundPolicy): Promise<Refusal | null> {
  try {
    await checkOutboundTarget(url, outbound);
    return null;
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    // A name that does not resolve right now is not refused: it is tried (and classed) at send.
    if (error.failure !== EdgeReason.targetNotAllowed) return null;
    logger.warn(`notification target refused: ${error.detail}`);
    return refusal(
      EDGE_REASONS.destino_nao_permitido.status,
      EdgeReason.targetNotAllowed,
      'this address cannot receive notifications: it is not public (an operator may allow it with OPENQ_NOTIFY_ALLOWED_TARGETS)',
    );
  }
}
