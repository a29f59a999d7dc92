import { IsOptional, IsString, Matches } from 'class-validator';
import { EnvInt, parseAllowedTargets, parseEnv, type OutboundPolicy } from '@openq/platform';
import type { RetryPolicy } from './notifier/domain/backoff';

/**
 * The notifier's own variables (issue #17), on top of SPEC §10's. Validated at boot: a bad value
 * stops the process with one line.
 */
export class NotifierEnv {
  /** Where people open openq: the base of the links in notifications (default: this machine's gateway). */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: '$property must be an http(s):// URL' })
  OPENQ_PUBLIC_URL: string | undefined = undefined;

  @EnvInt(1, 100) NOTIFIER_MAX_ATTEMPTS: number = 8;
  @EnvInt(1, 3_600_000) NOTIFIER_RETRY_BASE_MS: number = 5_000;
  @EnvInt(1, 86_400_000) NOTIFIER_RETRY_MAX_MS: number = 3_600_000;
  /** How long one send may take (HTTP connect to last byte, SMTP session). */
  @EnvInt(100, 300_000) NOTIFIER_SEND_TIMEOUT_MS: number = 10_000;
  /** Sends in flight at once in one process. */
  @EnvInt(1, 256) NOTIFIER_SEND_CONCURRENCY: number = 8;
  /** How often the sender looks for due deliveries when it found none. */
  @EnvInt(10, 60_000) NOTIFIER_POLL_MS: number = 500;
  /** Events older than this (a first start replaying the streams' history) tell nobody. */
  @EnvInt(1, 31_536_000) NOTIFIER_MAX_EVENT_AGE_S: number = 86_400;
  /** How often the clock of the questions looks for reminders, due notices and escalations owed. */
  @EnvInt(10, 3_600_000) NOTIFIER_CLOCK_TICK_MS: number = 60_000;
  /** Open questions the clock plans per transaction. */
  @EnvInt(1, 10_000) NOTIFIER_CLOCK_BATCH: number = 200;
  /**
   * Issue #27 (SPEC §12.2): hosts, addresses and CIDRs a webhook or Slack target may be on
   * although they are not public (comma-separated). Empty: public addresses only.
   */
  @IsOptional()
  @IsString()
  OPENQ_NOTIFY_ALLOWED_TARGETS: string | undefined = undefined;

  /**
   * Issue #34 (SPEC §12.5): the Slack app's signing secret. Set, the gateway takes Slack's button
   * callbacks (`POST /slack/interactions`), so the Slack message's "Accept suggestion" is a button
   * that answers in Slack; unset, it is a link to the one-tap confirm page.
   */
  @IsOptional()
  @IsString()
  OPENQ_SLACK_SIGNING_SECRET: string | undefined = undefined;
}

export interface NotifierSettings {
  publicUrl: string;
  retry: RetryPolicy;
  sendTimeoutMs: number;
  concurrency: number;
  pollMs: number;
  maxEventAgeS: number;
  clockTickMs: number;
  clockBatch: number;
  /** Where webhooks and Slack may go (`OPENQ_NOTIFY_ALLOWED_TARGETS`). */
  outbound: OutboundPolicy;
  /** Slack's buttons answer in Slack (`OPENQ_SLACK_SIGNING_SECRET` is set). */
  slackInteractive: boolean;
}

export function loadNotifierSettings(env: NodeJS.ProcessEnv, gatewayPort: number): NotifierSettings {
  const e = parseEnv(NotifierEnv, env);
  return {
    publicUrl: (e.OPENQ_PUBLIC_URL ?? `http://localhost:${gatewayPort}`).replace(/\/+$/, ''),
    retry: {
      maxAttempts: e.NOTIFIER_MAX_ATTEMPTS,
      baseMs: e.NOTIFIER_RETRY_BASE_MS,
      maxMs: Math.max(e.NOTIFIER_RETRY_MAX_MS, e.NOTIFIER_RETRY_BASE_MS),
    },
    sendTimeoutMs: e.NOTIFIER_SEND_TIMEOUT_MS,
    concurrency: e.NOTIFIER_SEND_CONCURRENCY,
    pollMs: e.NOTIFIER_POLL_MS,
    maxEventAgeS: e.NOTIFIER_MAX_EVENT_AGE_S,
    clockTickMs: e.NOTIFIER_CLOCK_TICK_MS,
    clockBatch: e.NOTIFIER_CLOCK_BATCH,
    outbound: parseAllowedTargets(e.OPENQ_NOTIFY_ALLOWED_TARGETS),
    slackInteractive: (e.OPENQ_SLACK_SIGNING_SECRET ?? '') !== '',
  };
}
