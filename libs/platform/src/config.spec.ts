import { loadConfig, MIN_PRODUCTION_SECRET_LENGTH } from './config';
import { ConfigError } from './env';
import { DEV_JWT_SECRET, DEV_LINK_SECRET, DEV_SERVICE_TOKEN } from './dev-defaults';

const strong = (c: string) => c.repeat(MIN_PRODUCTION_SECRET_LENGTH);
const production = {
  NODE_ENV: 'production',
  OPENQ_JWT_SECRET: strong('j'),
  OPENQ_SERVICE_TOKEN: strong('s'),
  OPENQ_LINK_SECRET: strong('l'),
};

function refusal(env: NodeJS.ProcessEnv, options?: Parameters<typeof loadConfig>[1]): ConfigError {
  try {
    loadConfig(env, options);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected loadConfig to refuse');
}

describe('loadConfig', () => {
  it('gives SPEC §10 defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.production).toBe(false);
    expect(config.ports).toEqual({
      gateway: 3000,
      questions: 3101,
      gates: 3102,
      context: 3103,
      notifier: 3104,
    });
    expect(config.nats).toEqual({ url: 'nats://127.0.0.1:4222', streamReplicas: 1 });
    expect(config.tracing).toEqual({ endpoint: null });
    expect(config.database.url).toBe('postgres://postgres@127.0.0.1:5432/openq');
    expect(config.auth).toEqual({
      jwtSecret: DEV_JWT_SECRET,
      jwks: null,
      jwksCacheMs: 600_000,
      jwksRefetchMs: 30_000,
      jwksTimeoutMs: 5000,
      jwtIssuer: null,
      jwtAudience: null,
      serviceTokens: [DEV_SERVICE_TOKEN],
    });
    expect(config.gates).toEqual({
      maxCorrections: 3,
      staleAfterS: 900,
      parkAfterS: 7200,
      sweepIntervalS: 300,
    });
    expect(config.pipeline).toEqual({
      analystQuestionsGateEnabled: true,
      analystQuestionsGateRepos: [],
      analystNeedsInputAutopauseEnabled: true,
      serialGatePauseEnabled: true,
      autoApproveLabel: 'auto-approve',
    });
    expect(config.logLevel).toBe('info');
  });

  it('parses numbers, booleans and lists; empty values count as unset', () => {
    const config = loadConfig({
      PORT: '8080',
      GATE_MAX_CORRECTIONS: '5',
      SERIAL_GATE_PAUSE_ENABLED: 'false',
      ANALYST_QUESTIONS_GATE_REPOS: 'api, web ,',
      OPENQ_SERVICE_TOKEN_PREVIOUS: 'old',
      LOG_LEVEL: '',
    });
    expect(config.ports.gateway).toBe(8080);
    expect(config.gates.maxCorrections).toBe(5);
    expect(config.pipeline.serialGatePauseEnabled).toBe(false);
    expect(config.pipeline.analystQuestionsGateRepos).toEqual(['api', 'web']);
    expect(config.auth.serviceTokens).toEqual([DEV_SERVICE_TOKEN, 'old']);
    expect(config.logLevel).toBe('info');
  });

  it('reads the stream replicas and the OTLP endpoint (the traces-specific one wins)', () => {
    const config = loadConfig({
      OPENQ_STREAM_REPLICAS: '3',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
    });
    expect(config.nats.streamReplicas).toBe(3);
    expect(config.tracing.endpoint).toBe('http://collector:4318');
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/v1/traces',
      }).tracing.endpoint,
    ).toBe('http://b:4318/v1/traces');
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }).tracing.endpoint).toBeNull();
  });

  it.each([
    [{ OPENQ_STREAM_REPLICAS: '0' }, /OPENQ_STREAM_REPLICAS must be the number of stream replicas/],
    [{ OPENQ_STREAM_REPLICAS: 'three' }, /OPENQ_STREAM_REPLICAS/],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\):\/\/ URL/,
    ],
    [{ PORT: 'abc' }, /PORT must be a TCP port.*"abc"/],
    [{ PORT: '70000' }, /PORT must be a TCP port/],
    [{ NATS_URL: 'localhost:4222' }, /NATS_URL must be nats:\/\//],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres:\/\/ URL$/],
    [{ SERIAL_GATE_PAUSE_ENABLED: 'maybe' }, /SERIAL_GATE_PAUSE_ENABLED must be true or false/],
    [{ NODE_ENV: 'prod' }, /NODE_ENV must be one of: development, test, production/],
    [{ GATE_PARK_AFTER_S: '10' }, /GATE_PARK_AFTER_S must not be smaller than GATE_STALE_AFTER_S/],
    [{ ANALYST_QUESTIONS_GATE_REPOS: 'a b' }, /ANALYST_QUESTIONS_GATE_REPOS/],
  ])('refuses %j with one line naming the variable', (env, pattern) => {
    const error = refusal(env);
    expect(error.message).toMatch(pattern);
    expect(error.message).not.toContain('\n');
  });

  it('never echoes a secret-bearing value', () => {
    expect(refusal({ DATABASE_URL: 'mysql://user:hunter2@db' }).message).not.toContain('hunter2');
  });

  describe('in production', () => {
    it('starts with strong secrets', () => {
      expect(loadConfig(production).production).toBe(true);
    });

    it.each([
      [
        'no JWT secret (the dev default)',
        { OPENQ_JWT_SECRET: undefined },
        /OPENQ_JWT_SECRET is empty or the development default/,
      ],
      ['an empty JWT secret', { OPENQ_JWT_SECRET: '' }, /OPENQ_JWT_SECRET is empty/],
      ['the dev JWT secret spelled out', { OPENQ_JWT_SECRET: DEV_JWT_SECRET }, /OPENQ_JWT_SECRET/],
      ['a short JWT secret', { OPENQ_JWT_SECRET: 'short' }, /OPENQ_JWT_SECRET is shorter than 32/],
      [
        'no service token',
        { OPENQ_SERVICE_TOKEN: undefined },
        /OPENQ_SERVICE_TOKEN is empty or the development default/,
      ],
      ['an empty service token', { OPENQ_SERVICE_TOKEN: '   ' }, /OPENQ_SERVICE_TOKEN is empty/],
      [
        'the dev token as previous',
        { OPENQ_SERVICE_TOKEN_PREVIOUS: DEV_SERVICE_TOKEN },
        /OPENQ_SERVICE_TOKEN_PREVIOUS/,
      ],
      [
        'no one-tap link secret',
        { OPENQ_LINK_SECRET: undefined },
        /OPENQ_LINK_SECRET is empty or the development default/,
      ],
      ['the dev link secret spelled out', { OPENQ_LINK_SECRET: DEV_LINK_SECRET }, /OPENQ_LINK_SECRET/],
      ['a short link secret', { OPENQ_LINK_SECRET: 'short' }, /OPENQ_LINK_SECRET is shorter than 32/],
      [
        'the dev link secret as previous',
        { OPENQ_LINK_SECRET_PREVIOUS: DEV_LINK_SECRET },
        /OPENQ_LINK_SECRET_PREVIOUS/,
      ],
    ])('refuses %s', (_what, override, pattern) => {
      const error = refusal({ ...production, ...override });
      expect(error.message).toMatch(pattern);
      expect(error.message).not.toContain('\n');
    });

    it('accepts a JWKS instead of a JWT secret', () => {
      const config = loadConfig({
        ...production,
        OPENQ_JWT_SECRET: undefined,
        OPENQ_JWKS: '/etc/openq/jwks.json',
      });
      expect(config.auth.jwks).toBe('/etc/openq/jwks.json');
    });

    it('one-tap links: secrets current then previous, 72 h, the public URL without a trailing slash', () => {
      const config = loadConfig({
        ...production,
        OPENQ_LINK_SECRET_PREVIOUS: strong('m'),
        OPENQ_PUBLIC_URL: 'https://openq.example.com/',
      });
      expect(config.links).toEqual({
        secrets: [strong('l'), strong('m')],
        ttlS: 259_200,
        publicUrl: 'https://openq.example.com',
      });
      expect(() => loadConfig({ ...production, OPENQ_PUBLIC_URL: 'openq.example.com' })).toThrow(
        /OPENQ_PUBLIC_URL must be an http\(s\):\/\/ URL/,
      );
      expect(() => loadConfig({ ...production, OPENQ_LINK_TTL_S: '10' })).toThrow(/OPENQ_LINK_TTL_S/);
    });

    it('does not ask secrets of a process that holds none', () => {
      expect(loadConfig({ NODE_ENV: 'production' }, { authSecrets: false }).production).toBe(true);
    });
  });
});
