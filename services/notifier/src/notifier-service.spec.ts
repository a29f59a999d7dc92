import { loadConfig } from '@openq/platform';
import { startNotifier } from './notifier-service';

/** Issue #17: the notifier mints one-tap links, so in production it refuses a weak link secret. */
describe('startNotifier in production', () => {
  const env = { NODE_ENV: 'production', DATABASE_URL: 'postgres://u@127.0.0.1:5432/openq' };

  it.each([
    ['the development default', {}],
    ['a short secret', { OPENQ_LINK_SECRET: 'short-secret' }],
  ])('refuses %s for OPENQ_LINK_SECRET before it starts anything', (_what, extra) => {
    const config = loadConfig({ ...env, ...extra }, { authSecrets: false });
    expect(() => startNotifier(config, { embedded: true, env: {} })).toThrow(/OPENQ_LINK_SECRET/);
  });
});
