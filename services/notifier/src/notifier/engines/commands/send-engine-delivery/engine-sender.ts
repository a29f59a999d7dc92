import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { EVENT_HEADER, STREAM_SEQ_HEADER } from '@openq/contracts';
import { PermanentSendError } from '../../../adapters/channels/channel';
import { postSigned, type SignedPostOptions } from '../../../adapters/channels/signed-post';
import type { RetryPolicy } from '../../../domain/backoff';
import type { DeliveryCommand } from '../../../domain/delivery';
import { detailOf, failureClassOf } from '../../../domain/failures';
import { notifierMetrics } from '../../../notifier-metrics';
import { claimDueEngineDeliveries, type ClaimedEngineDelivery } from '../../store/engine-deliveries.store';
import { settleEngineDelivery } from './send-engine-delivery.handler';

export interface EngineSenderOptions extends SignedPostOptions {
  retry: RetryPolicy;
  random?: () => number;
}

/** The metrics' channel label of engine deliveries. */
const CHANNEL = 'engine';

/**
 * Issue #34 the engines' share of the sender loop (`DeliverySender` runs `drain` on every pass):
 * claims due engine deliveries (the oldest pending of each subject only), POSTs each event's
 * envelope signed (`postSigned`, the webhooks' code: `X-Openq-Signature`, `X-Openq-Delivery-Id`)
 * with `X-Openq-Event` and `X-Openq-Stream-Seq`, and marks it sent, or retries it with the
 * notifications' backoff, or dead-letters it (a permanent failure, the last attempt, or a
 * subscription removed: `inscricao_removida`). A dead delivery lets its subject's next event go.
 */
export class EngineSender {
  private readonly logger = new Logger('EngineSender');

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: EngineSenderOptions,
  ) {
    notifierMetrics.sent().inc({ channel: CHANNEL }, 0);
    notifierMetrics.failed().inc({ channel: CHANNEL }, 0);
    notifierMetrics.deadLettered().inc({ channel: CHANNEL }, 0);
  }

  /** Sends what is due, `concurrency` at a time, while `running()` holds. */
  async drain(concurrency: number, leaseMs: number, running: () => boolean): Promise<void> {
    while (running()) {
      const claimed = await claimDueEngineDeliveries(this.dataSource, concurrency, leaseMs);
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((d) => this.deliver(d)));
      if (claimed.length < concurrency) return;
    }
  }

  private async deliver(d: ClaimedEngineDelivery): Promise<void> {
    if (d.target === null) {
      const settled = await this.settle(d, { type: 'give_up', reason: 'inscricao_removida' });
      if ('died' in settled && settled.died) notifierMetrics.deadLettered().inc({ channel: CHANNEL });
      return;
    }
    try {
      await postSigned(
        d.target,
        d.id,
        d.body,
        { [EVENT_HEADER]: d.type, [STREAM_SEQ_HEADER]: String(d.streamSeq) },
        this.options,
      );
    } catch (error) {
      await this.failed(d, error);
      return;
    }
    await this.settle(d, { type: 'record_sent' });
    notifierMetrics.sent().inc({ channel: CHANNEL });
  }

  private async failed(d: ClaimedEngineDelivery, error: unknown): Promise<void> {
    notifierMetrics.failed().inc({ channel: CHANNEL });
    const settled = await this.settle(d, {
      type: 'record_failure',
      reason: failureClassOf(error),
      permanent: error instanceof PermanentSendError,
      random: (this.options.random ?? Math.random)(),
    });
    const what = `engine delivery ${d.id} (${d.engineId}, ${d.type} seq ${d.streamSeq})`;
    const { event } = settled;
    if (event?.type === 'delivery.given_up') {
      if ('died' in settled && settled.died) notifierMetrics.deadLettered().inc({ channel: CHANNEL });
      this.logger.warn(
        `${what} dead-lettered after ${d.attempts} attempt(s): ${event.data.reason}: ${detailOf(error)}`,
      );
    } else if (event?.type === 'delivery.retry_scheduled') {
      this.logger.warn(
        `${what} attempt ${d.attempts} failed, will retry: ${event.data.reason}: ${detailOf(error)}`,
      );
    }
  }

  private settle(d: ClaimedEngineDelivery, command: DeliveryCommand) {
    return settleEngineDelivery(this.dataSource, this.options.retry, d, command);
  }
}
