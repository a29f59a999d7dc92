import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { MAX_CORRECTIONS_MAX, MAX_CORRECTIONS_MIN } from '@openq/contracts';
import { DEV_JWT_SECRET, DEV_LINK_SECRET, DEV_SERVICE_TOKEN } from './dev-defaults';
import { DEFAULT_LINK_TTL_S } from './one-tap-links';
import { ConfigError, EnvBool, EnvInt, EnvList, parseEnv } from './env';
import { SERVICE_PORTS } from './ports';

export const NODE_ENVS = ['development', 'test', 'production'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** In production a secret shorter than this is refused (HS256 wants ≥ 256 bits of key). */
export const MIN_PRODUCTION_SECRET_LENGTH = 32;

const port = () => EnvInt(0, 65535, '$property must be a TCP port (an integer 0..65535)');
const seconds = () =>
  EnvInt(1, Number.MAX_SAFE_INTEGER, '$property must be a whole number of seconds (at least 1)');

const NATS_URL_PATTERN = /^(nats|tls|ws|wss):\/\/[^\s,]+(,(nats|tls|ws|wss):\/\/[^\s,]+)*$/;
const DATABASE_URL_PATTERN = /^postgres(ql)?:\/\/\S+$/;

/**
 * Every variable of SPEC §10 (plus the few openq adds), exactly as named in the environment,
 * with its default. Empty values count as unset.
 */
export class OpenqEnv {
  @IsIn(NODE_ENVS, { message: `$property must be one of: ${NODE_ENVS.join(', ')}` })
  NODE_ENV: string = 'development';

  @IsIn(LOG_LEVELS, { message: `$property must be one of: ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: string = 'info';

  /** Interface every HTTP listener binds to. */
  @IsString()
  HOST: string = '0.0.0.0';

  /** The gateway's HTTP port (UI, REST, SSE). */
  @port() PORT: number = SERVICE_PORTS.gateway.port;
  /** Health/metrics HTTP port of each domain service (they have no other HTTP surface). */
  @port() QUESTIONS_HTTP_PORT: number = SERVICE_PORTS.questions.port;
  @port() GATES_HTTP_PORT: number = SERVICE_PORTS.gates.port;
  @port() CONTEXT_HTTP_PORT: number = SERVICE_PORTS.context.port;
  @port() NOTIFIER_HTTP_PORT: number = SERVICE_PORTS.notifier.port;

  @Matches(NATS_URL_PATTERN, { message: '$property must be nats://host:port (several separated by commas)' })
  NATS_URL: string = 'nats://127.0.0.1:4222';

  @Matches(DATABASE_URL_PATTERN, { message: '$property must be a postgres:// URL' })
  DATABASE_URL: string = 'postgres://postgres@127.0.0.1:5432/openq';

  /** Replicas of the JetStream streams the services provision: 1 on one server, 3 on a 3-node cluster. */
  @EnvInt(1, 5, '$property must be the number of stream replicas (1..5; 3 on a 3-node NATS cluster)')
  OPENQ_STREAM_REPLICAS: number = 1;

  /** Tracing is off unless an OTLP endpoint is set (the other OTEL_* variables are the SDK's own). */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: '$property must be an http(s):// URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT: string | undefined = undefined;

  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: '$property must be an http(s):// URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: string | undefined = undefined;

  @IsString()
  OPENQ_JWT_SECRET: string = DEV_JWT_SECRET;

  /** A JWKS file path or an http(s) URL; when set, user tokens are RS256/ES256 and HS256 is off. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  OPENQ_JWKS: string | undefined = undefined;

  /** A JWKS URL's keys are refetched once they are this old (ms); meanwhile they are served from memory. */
  @EnvInt(1000, 86_400_000)
  OPENQ_JWKS_CACHE_MS: number = 600_000;

  /** A token with an unknown `kid` refetches the JWKS at most this often (ms). */
  @EnvInt(0, 3_600_000)
  OPENQ_JWKS_REFETCH_MS: number = 30_000;

  /** How long one JWKS fetch may take (ms). */
  @EnvInt(100, 60_000)
  OPENQ_JWKS_TIMEOUT_MS: number = 5000;

  @IsOptional()
  @IsString()
  OPENQ_JWT_ISSUER: string | undefined = undefined;

  @IsOptional()
  @IsString()
  OPENQ_JWT_AUDIENCE: string | undefined = undefined;

  @IsString()
  OPENQ_SERVICE_TOKEN: string = DEV_SERVICE_TOKEN;

  @IsOptional()
  @IsString()
  OPENQ_SERVICE_TOKEN_PREVIOUS: string | undefined = undefined;

  /** [openq] issue #17 signs one-tap links (HS256); `_PREVIOUS` still verifies during a rotation. */
  @IsString()
  OPENQ_LINK_SECRET: string = DEV_LINK_SECRET;

  @IsOptional()
  @IsString()
  OPENQ_LINK_SECRET_PREVIOUS: string | undefined = undefined;

  /** How long a one-tap link lives (seconds): 5 minutes .. 30 days, 72 h by default. */
  @EnvInt(300, 30 * 86_400, '$property must be a whole number of seconds (300..2592000)')
  OPENQ_LINK_TTL_S: number = DEFAULT_LINK_TTL_S;

  /** Where people reach the gateway (absolute links in e-mails and chat messages). */
  @Matches(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, { message: '$property must be an http(s):// URL' })
  OPENQ_PUBLIC_URL: string = `http://localhost:${SERVICE_PORTS.gateway.port}`;

  @EnvInt(MAX_CORRECTIONS_MIN, MAX_CORRECTIONS_MAX)
  GATE_MAX_CORRECTIONS: number = 3;
  @seconds() GATE_STALE_AFTER_S: number = 900;
  @seconds() GATE_PARK_AFTER_S: number = 7200;
  @seconds() GATE_SWEEP_INTERVAL_S: number = 300;

  @EnvBool()
  ANALYST_QUESTIONS_GATE_ENABLED: boolean = true;

  /** Comma-separated repos; empty = every repo. */
  @EnvList()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, {
    each: true,
    message: '$property must list repo ids separated by commas',
  })
  ANALYST_QUESTIONS_GATE_REPOS: string[] = [];

  @EnvBool()
  ANALYST_NEEDS_INPUT_AUTOPAUSE_ENABLED: boolean = true;

  @EnvBool()
  SERIAL_GATE_PAUSE_ENABLED: boolean = true;

  @IsString()
  @MaxLength(100)
  AUTO_APPROVE_LABEL: string = 'auto-approve';

  /** How long a graceful shutdown may take before the process exits anyway. */
  @EnvInt(1000, 600_000)
  SHUTDOWN_TIMEOUT_MS: number = 25_000;
}

const SECRET_VARIABLES: ReadonlySet<string> = new Set([
  'OPENQ_JWT_SECRET',
  'OPENQ_SERVICE_TOKEN',
  'OPENQ_SERVICE_TOKEN_PREVIOUS',
  'OPENQ_LINK_SECRET',
  'OPENQ_LINK_SECRET_PREVIOUS',
  'DATABASE_URL',
  'NATS_URL',
]);

/** The validated configuration, grouped by concern. */
export interface OpenqConfig {
  nodeEnv: NodeEnv;
  production: boolean;
  logLevel: LogLevel;
  host: string;
  shutdownTimeoutMs: number;
  ports: { gateway: number; questions: number; gates: number; context: number; notifier: number };
  nats: { url: string; streamReplicas: number };
  database: { url: string };
  /** OTLP endpoint of the trace exporter; `null`: tracing off. */
  tracing: { endpoint: string | null };
  auth: {
    /** HS256 key; unused when `jwks` is set. */
    jwtSecret: string;
    jwks: string | null;
    /** For a JWKS URL: cache age, unknown-`kid` refetch cooldown and fetch timeout (ms). */
    jwksCacheMs: number;
    jwksRefetchMs: number;
    jwksTimeoutMs: number;
    jwtIssuer: string | null;
    jwtAudience: string | null;
    /** The current token first, then the previous one during a rotation. */
    serviceTokens: string[];
  };
  /** [openq] issue #17 one-tap links: the current secret first, then the previous one. */
  links: { secrets: string[]; ttlS: number; publicUrl: string };
  gates: { maxCorrections: number; staleAfterS: number; parkAfterS: number; sweepIntervalS: number };
  pipeline: {
    analystQuestionsGateEnabled: boolean;
    analystQuestionsGateRepos: string[];
    analystNeedsInputAutopauseEnabled: boolean;
    serialGatePauseEnabled: boolean;
    autoApproveLabel: string;
  };
}

export interface LoadConfigOptions {
  /**
   * Whether this process holds the auth secrets (the gateway does). When true (the default),
   * production refuses to start with an empty, short or development secret/token.
   */
  authSecrets?: boolean;
}

/** Reads and validates the environment; throws `ConfigError` (one line) on the first problem. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: LoadConfigOptions = {},
): OpenqConfig {
  const parsed = parseEnv(OpenqEnv, env, SECRET_VARIABLES);
  if (parsed.GATE_PARK_AFTER_S < parsed.GATE_STALE_AFTER_S) {
    throw new ConfigError(
      'Invalid configuration: GATE_PARK_AFTER_S must not be smaller than GATE_STALE_AFTER_S',
    );
  }
  const config = toConfig(parsed);
  if (config.production && options.authSecrets !== false) assertProductionSecrets(config);
  return config;
}

function toConfig(e: OpenqEnv): OpenqConfig {
  return {
    nodeEnv: e.NODE_ENV as NodeEnv,
    production: e.NODE_ENV === 'production',
    logLevel: e.LOG_LEVEL as LogLevel,
    host: e.HOST,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    ports: {
      gateway: e.PORT,
      questions: e.QUESTIONS_HTTP_PORT,
      gates: e.GATES_HTTP_PORT,
      context: e.CONTEXT_HTTP_PORT,
      notifier: e.NOTIFIER_HTTP_PORT,
    },
    nats: { url: e.NATS_URL, streamReplicas: e.OPENQ_STREAM_REPLICAS },
    database: { url: e.DATABASE_URL },
    tracing: { endpoint: e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? e.OTEL_EXPORTER_OTLP_ENDPOINT ?? null },
    auth: {
      jwtSecret: e.OPENQ_JWT_SECRET,
      jwks: e.OPENQ_JWKS ?? null,
      jwksCacheMs: e.OPENQ_JWKS_CACHE_MS,
      jwksRefetchMs: e.OPENQ_JWKS_REFETCH_MS,
      jwksTimeoutMs: e.OPENQ_JWKS_TIMEOUT_MS,
      jwtIssuer: e.OPENQ_JWT_ISSUER ?? null,
      jwtAudience: e.OPENQ_JWT_AUDIENCE ?? null,
      serviceTokens: [
        e.OPENQ_SERVICE_TOKEN,
        ...(e.OPENQ_SERVICE_TOKEN_PREVIOUS ? [e.OPENQ_SERVICE_TOKEN_PREVIOUS] : []),
      ],
    },
    links: {
      secrets: [e.OPENQ_LINK_SECRET, ...(e.OPENQ_LINK_SECRET_PREVIOUS ? [e.OPENQ_LINK_SECRET_PREVIOUS] : [])],
      ttlS: e.OPENQ_LINK_TTL_S,
      publicUrl: e.OPENQ_PUBLIC_URL.replace(/\/+$/, ''),
    },
    gates: {
      maxCorrections: e.GATE_MAX_CORRECTIONS,
      staleAfterS: e.GATE_STALE_AFTER_S,
      parkAfterS: e.GATE_PARK_AFTER_S,
      sweepIntervalS: e.GATE_SWEEP_INTERVAL_S,
    },
    pipeline: {
      analystQuestionsGateEnabled: e.ANALYST_QUESTIONS_GATE_ENABLED,
      analystQuestionsGateRepos: e.ANALYST_QUESTIONS_GATE_REPOS,
      analystNeedsInputAutopauseEnabled: e.ANALYST_NEEDS_INPUT_AUTOPAUSE_ENABLED,
      serialGatePauseEnabled: e.SERIAL_GATE_PAUSE_ENABLED,
      autoApproveLabel: e.AUTO_APPROVE_LABEL,
    },
  };
}

/** SPEC §2: in production no default or empty secret/token, and none too short to be one. */
function assertProductionSecrets(config: OpenqConfig): void {
  const [current, previous] = config.auth.serviceTokens;
  if (config.auth.jwks === null) {
    weakSecret('OPENQ_JWT_SECRET', config.auth.jwtSecret, DEV_JWT_SECRET, ' (or set OPENQ_JWKS)');
  }
  weakSecret('OPENQ_SERVICE_TOKEN', current ?? '', DEV_SERVICE_TOKEN);
  if (previous !== undefined) weakSecret('OPENQ_SERVICE_TOKEN_PREVIOUS', previous, DEV_SERVICE_TOKEN);
  assertProductionLinkSecrets(config);
}

/**
 * [openq] issue #17 in production a one-tap link secret must be real: a process that mints links
 * (the notifier) calls this even when it holds no other auth secret.
 */
export function assertProductionLinkSecrets(config: Pick<OpenqConfig, 'production' | 'links'>): void {
  if (!config.production) return;
  const [current, previous] = config.links.secrets;
  weakSecret('OPENQ_LINK_SECRET', current ?? '', DEV_LINK_SECRET);
  if (previous !== undefined) weakSecret('OPENQ_LINK_SECRET_PREVIOUS', previous, DEV_LINK_SECRET);
}

function weakSecret(name: string, value: string, devDefault: string, hint = ''): void {
  if (value === '' || value === devDefault) {
    throw new ConfigError(
      `${name} is empty or the development default; NODE_ENV=production needs a real secret${hint}`,
    );
  }
  if (value.length < MIN_PRODUCTION_SECRET_LENGTH) {
    throw new ConfigError(
      `${name} is shorter than ${MIN_PRODUCTION_SECRET_LENGTH} characters; NODE_ENV=production needs a strong secret${hint}`,
    );
  }
}
