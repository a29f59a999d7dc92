import { commandRegistry, eventRegistry } from '@openq/contracts';
import {
  exitOnStartupFailure,
  loadConfig,
  startDomainService,
  type DomainService,
  type OpenqConfig,
} from '@openq/platform';
import { defaultChannelSenders, senderKinds, type ChannelSenders } from './channels/senders';
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
    env?: NodeJS.ProcessEnv;
    senders?: ChannelSenders;
  } = {},
): Promise<DomainService> {
  let settings: NotifierSettings;
  try {
    settings = loadNotifierSettings(overrides.env ?? process.env, config.ports.gateway);
  } catch (error) {
    if (overrides.embedded) throw error;
    exitOnStartupFailure('notifier', error);
  }
  const senders = overrides.senders ?? defaultChannelSenders({ sendTimeoutMs: settings.sendTimeoutMs });
  const runtime: NotifierRuntime = { settings, senders, kinds: senderKinds(senders), sender: null };
  return startDomainService({
    name: 'notifier',
    config,
    module: NotifierModule.forRoot(runtime),
    migrations: NOTIFIER_MIGRATIONS as never,
    transport: { eventRegistry, commandRegistry },
    ...(overrides.httpPort !== undefined ? { httpPort: overrides.httpPort } : {}),
    ...(overrides.embedded !== undefined ? { embedded: overrides.embedded } : {}),
  });
}
