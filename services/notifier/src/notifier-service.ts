import { commandRegistry, eventRegistry } from '@openq/contracts';
import {
  assertProductionLinkSecrets,
  exitOnStartupFailure,
  loadConfig,
  startDomainService,
  type DomainService,
  type OpenqConfig,
} from '@openq/platform';
import { smtpConfigFromEnv } from './notifier/adapters/channels/email';
import {
  defaultChannelSenders,
  senderKinds,
  type ChannelSenders,
} from './notifier/adapters/channels/senders';
import { loadNotifierSettings, type NotifierSettings } from './notifier-config';
import { NOTIFIER_MIGRATIONS } from './notifier/migrations';
import { NotifierModule } from './notifier/notifier.module';
import type { NotifierRuntime } from './notifier/notifier-runtime';

/**
 * Starts the notifier (issue #17): it hears question.declared, question.answered,
 * gate.rescue_parked and gate.resumed, and tells the people concerned through their channels.
 * Its own schema `notifier`; it publishes no events (SPEC §11.6: notifications are derived).
 */
export function startNotifier(
  config: OpenqConfig = loadConfig(process.env, { authSecrets: false }),
  overrides: {
    httpPort?: number;
    embedded?: boolean;
    /** Tests: pooled PostgreSQL connections (default 10). */
    poolSize?: number;
    env?: NodeJS.ProcessEnv;
    senders?: ChannelSenders;
    /** Tests: the clock digests and the questions' clock go by. */
    now?: () => Date;
  } = {},
): Promise<DomainService> {
  const env = overrides.env ?? process.env;
  let settings: NotifierSettings;
  let senders: ChannelSenders;
  try {
    // It mints one-tap links: in production their secret must be real (SPEC §2, §11.6).
    assertProductionLinkSecrets(config);
    settings = loadNotifierSettings(env, config.ports.gateway);
    senders =
      overrides.senders ??
      defaultChannelSenders({
        sendTimeoutMs: settings.sendTimeoutMs,
        smtp: smtpConfigFromEnv(env),
        policy: settings.outbound,
        slackInteractive: settings.slackInteractive,
      });
  } catch (error) {
    if (overrides.embedded) throw error;
    exitOnStartupFailure('notifier', error);
  }
  const runtime: NotifierRuntime = {
    settings,
    senders,
    kinds: senderKinds(senders),
    sender: null,
    clock: null,
    links: { publicUrl: settings.publicUrl, secret: config.links.secrets[0]!, ttlS: config.links.ttlS },
    ...(overrides.now ? { now: overrides.now } : {}),
  };
  return startDomainService({
    name: 'notifier',
    config,
    module: NotifierModule.forRoot(runtime),
    migrations: NOTIFIER_MIGRATIONS as never,
    transport: { eventRegistry, commandRegistry, background: {} },
    ...(overrides.httpPort !== undefined ? { httpPort: overrides.httpPort } : {}),
    ...(overrides.embedded !== undefined ? { embedded: overrides.embedded } : {}),
    ...(overrides.poolSize !== undefined ? { poolSize: overrides.poolSize } : {}),
  });
}
