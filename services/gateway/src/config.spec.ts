import { ConfigError } from '@openq/platform';
import { loadGatewayConfig } from './config';

describe('loadGatewayConfig', () => {
  it('adds the RPC timeout to the shared configuration', () => {
    const config = loadGatewayConfig({ GATEWAY_RPC_TIMEOUT_MS: '1500' });
    expect(config.rpcTimeoutMs).toBe(1500);
    expect(config.ports.gateway).toBe(3000);
    expect(loadGatewayConfig({}).rpcTimeoutMs).toBe(5000);
  });

  it('refuses a bad timeout, naming it', () => {
    expect(() => loadGatewayConfig({ GATEWAY_RPC_TIMEOUT_MS: '0' })).toThrow(ConfigError);
    expect(() => loadGatewayConfig({ GATEWAY_RPC_TIMEOUT_MS: 'soon' })).toThrow(/GATEWAY_RPC_TIMEOUT_MS/);
  });

  it('reads the trusted proxies (issue #27): none by default, addresses and CIDRs, a bad one named', () => {
    expect(loadGatewayConfig({}).trustedProxies).toEqual([]);
    expect(
      loadGatewayConfig({ GATEWAY_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1,fd00::/8' }).trustedProxies,
    ).toEqual(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
    expect(() => loadGatewayConfig({ GATEWAY_TRUSTED_PROXIES: '10.0.0.0/99' })).toThrow(
      /GATEWAY_TRUSTED_PROXIES/,
    );
    expect(() => loadGatewayConfig({ GATEWAY_TRUSTED_PROXIES: 'ingress.local' })).toThrow(ConfigError);
  });

  it('refuses to start in production with the development secrets', () => {
    expect(() => loadGatewayConfig({ NODE_ENV: 'production' })).toThrow(
      /OPENQ_JWT_SECRET is empty or the development default/,
    );
    expect(() => loadGatewayConfig({ NODE_ENV: 'production', OPENQ_JWT_SECRET: 'x'.repeat(32) })).toThrow(
      /OPENQ_SERVICE_TOKEN/,
    );
  });
});

describe('OPENQ_EMBED_ANCESTORS (SPEC §12.1)', () => {
  const ancestors = (value?: string) =>
    loadGatewayConfig(value === undefined ? {} : { OPENQ_EMBED_ANCESTORS: value }).embedAncestors;

  it('is none by default', () => {
    expect(ancestors()).toEqual([]);
    expect(ancestors('  ')).toEqual([]);
  });

  it('takes origins separated by commas or spaces, normalised and once each', () => {
    expect(
      ancestors(
        'https://chat.example.com, http://127.0.0.1:8080 https://*.example.org/ HTTPS://Chat.Example.com',
      ),
    ).toEqual(['https://chat.example.com', 'http://127.0.0.1:8080', 'https://*.example.org']);
    expect(ancestors('http://[::1]:3000')).toEqual(['http://[::1]:3000']);
  });

  it.each([
    "'self'",
    '*',
    'chat.example.com',
    'https://chat.example.com/path',
    "https://a.example.com; script-src 'unsafe-inline'",
    'javascript:alert(1)',
    'https://chat.example.com:99999',
    'https://user@chat.example.com',
  ])('refuses %j, naming it', (value) => {
    expect(() => ancestors(value)).toThrow(ConfigError);
    expect(() => ancestors(value)).toThrow(/OPENQ_EMBED_ANCESTORS has/);
  });
});
