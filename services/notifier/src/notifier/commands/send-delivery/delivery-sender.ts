import { Logger } from '@nestjs/common';
import { PeriodicTask } from '@openq/platform';
import type { DataSource } from 'typeorm';
import {
  PermanentSendError,
  type ChannelKind,
  type ChannelSender,
  type Notification,
} from '../../adapters/channels/channel';
import { renderDigest } from '../../adapters/channels/digest';
import type { RenderedEmail } from '../../adapters/channels/email';
import type { ChannelSenders } from '../../adapters/channels/senders';
import type { RetryPolicy } from '../../domain/backoff';
import { deliveryLife, type DeliveryCommand, type DeliveryState } from '../../domain/delivery';
import { claimDue, markDead, markRetry, markSent, type ClaimedDelivery } from '../../store/deliveries.store';
import {
  claimDueDigests,
  collectDueDigests,
  markDigestDead,
  markDigestRetry,
  markDigestSent,
  type ClaimedDigest,
} from '../../store/digests.store';
import type { EngineSender } from '../../engines/commands/send-engine-delivery/engine-sender';
import { detailOf, failureClassOf } from '../../domain/failures';
import { recipientLanguage } from '../../language/store/languages.store';
import { withOneTapLinks, type LinkSettings } from './links';
import { notifierMetrics } from '../../notifier-metrics';
import { settleDelivery, type DeliveryRows } from './send-delivery.handler';

export interface DeliverySenderOptions {
  retry: RetryPolicy;
  sendTimeoutMs: number;
  concurrency: number;
  pollMs: number;
  /** Tests: the random draw of the jitter. */
  random?: () => number;
  /** The clock digests are due by (`digestDue`); tests drive it. Default: the real time. */
  now?: () => Date;
  /** One-tap links minted at send time; absent: the notification's stored links are sent. */
  links?: LinkSettings;
  /** Issue #34 the engines' deliveries, sent on every pass after the notifications. */
  engines?: EngineSender;
}

/** What a digest needs of the e-mail sender (EmailSender.sendRendered). */
interface DigestMailer {
  sendRendered(address: string, email: RenderedEmail, id: string): Promise<void>;
}

/** A failure that says when to try again (Slack's 429 `Retry-After`: SlackRateLimitedError). */
function retryAfterOf(error: unknown): number {
  const ms = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/**
 * The sender loop (issue #17): claims due deliveries (`FOR UPDATE SKIP LOCKED` and a lease, so
 * several replicas share the work), sends each through its channel, and marks it sent at once —
 * or schedules the retry (exponential backoff with jitter) or dead-letters it with its reason.
 * The lease outlasts a send, so a delivery is never in flight twice; a process killed between a
 * receiver's acceptance and the mark is the only way one is sent twice, with the same delivery id
 * (docs/delivery-guarantees.md).
 */
export class DeliverySender {
  private readonly logger = new Logger('DeliverySender');
  /** Its timer: a pass at start, then `pollMs` after each pass; `kick()` for a pass now. */
  private readonly periodic: PeriodicTask;

  constructor(
    private readonly dataSource: DataSource,
    private readonly senders: ChannelSenders,
    private readonly options: DeliverySenderOptions,
  ) {
    // A pass handles its own failures (drain): nothing reaches onError.
    this.periodic = new PeriodicTask(
      options.pollMs,
      () => this.drain(),
      () => undefined,
    );
    // Every channel's series from the start (at 0), so rates and alerts see the first one.
    for (const channel of ['email', 'slack', 'webhook'] as const) {
      notifierMetrics.sent().inc({ channel }, 0);
      notifierMetrics.failed().inc({ channel }, 0);
      notifierMetrics.deadLettered().inc({ channel }, 0);
    }
  }

  /** The lease of a claimed delivery: longer than a send may take. */
  get leaseMs(): number {
    return this.options.sendTimeoutMs * 2 + 5_000;
  }

  start(): void {
    this.periodic.start();
  }

  /** Stops claiming; resolves once the sends in flight are done and marked. */
  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /** Looks for due deliveries now (coalesced with a pass already running). */
  kick(): void {
    this.periodic.kick();
  }

  /** Between start and stop: a pass ends early once it is false. */
  private get running(): boolean {
    return this.periodic.running;
  }

  private async drain(): Promise<void> {
    try {
      if (this.senders.email) await this.drainDigests();
      await this.drainNotifications();
      await this.options.engines?.drain(this.options.concurrency, this.leaseMs, () => this.running);
    } catch (error) {
      // The database is away: the rows keep their leases and are claimed again later.
      this.logger.warn(`notification pass failed: ${detailOf(error)}`);
    }
  }

  private async drainNotifications(): Promise<void> {
    while (this.running) {
      const claimed = await claimDue(this.dataSource, this.options.concurrency, this.leaseMs);
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((d) => this.deliver(d)));
      if (claimed.length < this.options.concurrency) return;
    }
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    const channel = d.channel;
    const sender = this.senders[channel] as ChannelSender<unknown> | undefined;
    if (!sender || d.target === null) {
      const reason = !sender ? 'canal_indisponivel' : 'canal_removido';
      const settled = await this.settle(d, { type: 'give_up', reason });
      if ('died' in settled && settled.died) notifierMetrics.deadLettered().inc({ channel });
      return;
    }
    try {
      await sender.send(d.target, await this.withLinks(d.notification));
    } catch (error) {
      await this.failed(d, channel, error);
      return;
    }
    await this.settle(d, { type: 'record_sent' });
    notifierMetrics.sent().inc({ channel });
    if (!d.resend && d.kind === 'question_declared') {
      const seconds = (Date.now() - d.occurredAt.getTime()) / 1000;
      notifierMetrics.declaredToNotified().observe({ channel }, Math.max(0, seconds));
    }
  }

  private async failed(d: ClaimedDelivery, channel: ChannelKind, error: unknown): Promise<void> {
    notifierMetrics.failed().inc({ channel });
    const settled = await this.settle(d, {
      type: 'record_failure',
      reason: failureClassOf(error),
      permanent: error instanceof PermanentSendError,
      random: (this.options.random ?? Math.random)(),
      retryAfterMs: retryAfterOf(error),
    });
    const { event } = settled;
    if (event?.type === 'delivery.given_up') {
      if ('died' in settled && settled.died) notifierMetrics.deadLettered().inc({ channel });
      this.logger.warn(
        `delivery ${d.id} (${channel}) dead-lettered after ${d.attempts} attempt(s): ${event.data.reason}: ${detailOf(error)}`,
      );
    } else if (event?.type === 'delivery.retry_scheduled') {
      this.logger.warn(
        `delivery ${d.id} (${channel}) attempt ${d.attempts} failed, will retry: ${event.data.reason}: ${detailOf(error)}`,
      );
    }
  }

  /** The delivery decider on the claimed row (pending, its attempts counted by the claim); one statement. */
  private settle(d: ClaimedDelivery, command: DeliveryCommand) {
    const rows: DeliveryRows<boolean> = {
      sent: () => markSent(this.dataSource, d.id),
      retry: (delayMs, reason) => markRetry(this.dataSource, d.id, delayMs, reason),
      dead: (reason) => markDead(this.dataSource, d.id, reason),
    };
    return settleDelivery(deliveryLife(this.options.retry), claimedState(d.attempts), command, rows);
  }

  /**
   * What is sent: the row's notification in its recipient's language as of now (issue #30: theirs,
   * else the project's, else English), with one-tap links minted now (their pages speak it too).
   */
  private async withLinks(n: Notification): Promise<Notification> {
    const language = await recipientLanguage(this.dataSource.manager, n.projectId, n.recipientUserId);
    const spoken = { ...n, language };
    const links = this.options.links;
    return links ? withOneTapLinks(spoken, links, new Date()) : spoken;
  }

  /** Makes the digests that are due (by the injected clock), then sends the due ones. */
  private async drainDigests(): Promise<void> {
    await collectDueDigests(this.dataSource, (this.options.now ?? (() => new Date()))());
    while (this.running) {
      const claimed = await claimDueDigests(this.dataSource, this.options.concurrency, this.leaseMs);
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((g) => this.deliverDigest(g)));
      if (claimed.length < this.options.concurrency) return;
    }
  }

  private async deliverDigest(g: ClaimedDigest): Promise<void> {
    const channel = 'email' as const;
    const mailer = this.senders.email as Partial<DigestMailer> | undefined;
    const count = g.notifications.length;
    const rows: DeliveryRows<number> = {
      sent: () => markDigestSent(this.dataSource, g.id),
      retry: (delayMs, reason) => markDigestRetry(this.dataSource, g.id, delayMs, reason),
      dead: (reason) => markDigestDead(this.dataSource, g.id, reason),
    };
    const life = deliveryLife(this.options.retry);
    if (!mailer?.sendRendered || g.target === null || count === 0) {
      const settled = await settleDelivery(
        life,
        claimedState(g.attempts),
        {
          type: 'give_up',
          reason: mailer ? 'canal_removido' : 'canal_indisponivel',
        },
        rows,
      );
      const died = 'died' in settled ? settled.died : 0;
      if (died > 0) notifierMetrics.deadLettered().inc({ channel }, died);
      return;
    }
    try {
      const notifications = await Promise.all(g.notifications.map((n) => this.withLinks(n)));
      const rendered = renderDigest(notifications, { mode: g.mode });
      // The digest row's id (digestId of its fixed set): the same Message-ID on every attempt.
      await mailer.sendRendered(g.target.address, rendered, g.id);
    } catch (error) {
      notifierMetrics.failed().inc({ channel });
      const settled = await settleDelivery(
        life,
        claimedState(g.attempts),
        {
          type: 'record_failure',
          reason: failureClassOf(error),
          permanent: error instanceof PermanentSendError,
          random: (this.options.random ?? Math.random)(),
        },
        rows,
      );
      if (settled.event?.type === 'delivery.given_up') {
        const died = 'died' in settled ? settled.died : 0;
        if (died > 0) notifierMetrics.deadLettered().inc({ channel }, died);
        this.logger.warn(
          `digest ${g.id} dead-lettered after ${g.attempts} attempt(s): ${settled.event.data.reason}: ${detailOf(error)}`,
        );
      }
      return;
    }
    await settleDelivery(life, claimedState(g.attempts), { type: 'record_sent' }, rows);
    notifierMetrics.sent().inc({ channel }, count);
  }
}

/** A claimed row's state: still pending, its attempts counted by the claim's lease. */
function claimedState(attempts: number): DeliveryState {
  return { status: 'pending', attempts };
}
