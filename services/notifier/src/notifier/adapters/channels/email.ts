import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { IsOptional, IsString, Matches } from 'class-validator';
import { createTransport, type Transporter } from 'nodemailer';
import { ConfigError, EnvBool, EnvInt, parseEnv } from '@openq/platform';
import { PermanentSendError, TransientSendError, type ChannelSender, type Notification } from './channel';
import { renderEmail, type RenderedEmail } from './templates/email-template';

export { EMAIL_STRINGS, renderEmail, type RenderedEmail } from './templates/email-template';

/** `immediate`: one e-mail per notification; `hourly` / `daily`: collected into a digest (digest.ts). */
export type EmailMode = 'immediate' | 'hourly' | 'daily';
export interface EmailTarget {
  address: string;
  mode: EmailMode;
}

/** The SMTP variables, as named in the environment (docs/operations.md, "E-mail and Slack"). */
export class SmtpEnv {
  /** `smtp://user@host:587` or `smtps://…:465`; a password in it works but prefer the file. */
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: '$property must be an smtp:// or smtps:// URL' })
  OPENQ_SMTP_URL: string | undefined = undefined;

  @IsOptional() @IsString() OPENQ_SMTP_HOST: string | undefined = undefined;
  @EnvInt(1, 65535, '$property must be a TCP port (1..65535)') OPENQ_SMTP_PORT: number = 587;
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  @IsOptional() @EnvBool() OPENQ_SMTP_SECURE: boolean | undefined = undefined;
  @IsOptional() @IsString() OPENQ_SMTP_USER: string | undefined = undefined;
  /** The password by reference: a file holding it (a mounted secret), never the value itself. */
  @IsOptional() @IsString() OPENQ_SMTP_PASSWORD_FILE: string | undefined = undefined;

  @IsOptional()
  @Matches(/^([^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, {
    message: '$property must be an address: notify@example.com or "openq <notify@example.com>"',
  })
  OPENQ_SMTP_FROM: string | undefined = undefined;

  @EnvInt(1, 300, '$property must be a whole number of seconds (1..300)')
  OPENQ_SMTP_TIMEOUT_SECONDS: number = 10;
  @EnvInt(1, 50, '$property must be an integer 1..50') OPENQ_SMTP_MAX_CONNECTIONS: number = 3;
}

const SECRET_VARIABLES = new Set(['OPENQ_SMTP_URL']);

export interface SmtpConfig {
  host: string;
  port: number;
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  /** Where the password came from, for logs: `OPENQ_SMTP_PASSWORD_FILE=/run/secrets/smtp`, `url`. */
  passwordSource: string | undefined;
  from: string;
  timeoutMs: number;
  maxConnections: number;
}

/**
 * The SMTP settings from the environment, or null when e-mail is not configured (neither
 * `OPENQ_SMTP_URL` nor `OPENQ_SMTP_HOST`). Bad values are a `ConfigError` that never echoes a secret.
 */
export function smtpConfigFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  readSecret: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): SmtpConfig | null {
  const e = parseEnv(SmtpEnv, env, SECRET_VARIABLES);
  if (!e.OPENQ_SMTP_URL && !e.OPENQ_SMTP_HOST) return null;
  if (e.OPENQ_SMTP_URL && e.OPENQ_SMTP_HOST) {
    throw new ConfigError('Invalid configuration: set OPENQ_SMTP_URL or OPENQ_SMTP_HOST, not both');
  }
  if (!e.OPENQ_SMTP_FROM)
    throw new ConfigError('Invalid configuration: OPENQ_SMTP_FROM is required for e-mail');
  let host = e.OPENQ_SMTP_HOST ?? '';
  let port = e.OPENQ_SMTP_PORT;
  let secure = e.OPENQ_SMTP_SECURE ?? port === 465;
  let user = e.OPENQ_SMTP_USER;
  let password: string | undefined;
  let passwordSource: string | undefined;
  if (e.OPENQ_SMTP_URL) {
    const url = parseSmtpUrl(e.OPENQ_SMTP_URL);
    host = url.hostname.replace(/^\[|\]$/g, '');
    secure = e.OPENQ_SMTP_SECURE ?? url.protocol === 'smtps:';
    port = url.port ? Number(url.port) : secure ? 465 : 587;
    if (url.username) user = decodeURIComponent(url.username);
    if (url.password) [password, passwordSource] = [decodeURIComponent(url.password), 'OPENQ_SMTP_URL'];
  }
  if (e.OPENQ_SMTP_PASSWORD_FILE) {
    const path = e.OPENQ_SMTP_PASSWORD_FILE;
    try {
      password = readSecret(path).replace(/\r?\n$/, '');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new ConfigError(
        `Invalid configuration: OPENQ_SMTP_PASSWORD_FILE cannot be read (${code}: ${path})`,
      );
    }
    passwordSource = `OPENQ_SMTP_PASSWORD_FILE=${path}`;
  }
  if (password !== undefined && !user) {
    throw new ConfigError(
      'Invalid configuration: an SMTP password needs a user (OPENQ_SMTP_USER or in the URL)',
    );
  }
  const config: SmtpConfig = {
    host,
    port,
    secure,
    user,
    password: undefined,
    passwordSource,
    from: e.OPENQ_SMTP_FROM,
    timeoutMs: e.OPENQ_SMTP_TIMEOUT_SECONDS * 1000,
    maxConnections: e.OPENQ_SMTP_MAX_CONNECTIONS,
  };
  // Not enumerable: a config logged or serialised by mistake shows no password.
  Object.defineProperty(config, 'password', { value: password, enumerable: false });
  return config;
}

function parseSmtpUrl(raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new ConfigError(`Invalid configuration: OPENQ_SMTP_URL is not a URL (${redactSmtpUrl(raw)})`);
  }
}

/** `smtp://user:secret@host:587` → `smtp://user:***@host:587`, for logs and error lines. */
export function redactSmtpUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):([^@/]*)@/g, '//$1:***@');
}

/** The settings in one line with no secret in it: `smtp://notify@mail.example.com:587 (pooled ×3, password from …)`. */
export function describeSmtp(config: SmtpConfig): string {
  const who = config.user ? `${encodeURIComponent(config.user)}@` : '';
  const password = config.passwordSource ? `, password from ${config.passwordSource}` : '';
  return `${config.secure ? 'smtps' : 'smtp'}://${who}${config.host}:${config.port} (pooled ×${config.maxConnections}${password})`;
}

/** `<d-1f0c…@example.com>`: the same delivery id gives the same Message-ID, so a re-send is one message. */
export function messageIdFor(id: string, from: string): string {
  const domain = /@([^\s@<>]+)>?\s*$/.exec(from)?.[1] ?? 'openq.invalid';
  const local = /^[A-Za-z0-9._-]{1,64}$/.test(id)
    ? id
    : createHash('sha256').update(id).digest('hex').slice(0, 32);
  return `<openq.${local}@${domain}>`;
}

const ADDRESS = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/;

/** Errors of the e-mail channel; `reason` is stable (the delivery table keeps it). */
export type EmailFailureReason = 'endereco_email_invalido' | 'smtp_recusou' | 'smtp_indisponivel';

function failure<E extends Error>(error: E, reason: EmailFailureReason): E & { reason: EmailFailureReason } {
  return Object.assign(error, { reason });
}

/**
 * SMTP's answer decides: a 5xx reply (recipient unknown, message refused) is permanent; a 4xx
 * reply (greylisting, mailbox busy), a refused or dropped connection, a timeout or a login the
 * server refused (the operator's to fix, not the message's) are transient.
 */
export function classifySmtpError(error: unknown): PermanentSendError | TransientSendError {
  const e = error as { responseCode?: number; code?: string; response?: string; message?: string };
  const said = redactSmtpUrl((e.response ?? e.message ?? String(error)).replace(/\s+/g, ' ').trim());
  const code = e.responseCode;
  if (e.code !== 'EAUTH' && typeof code === 'number' && code >= 500 && code < 600) {
    return failure(new PermanentSendError(`SMTP refused the message (${code}): ${said}`), 'smtp_recusou');
  }
  const what = typeof code === 'number' ? `${code}` : (e.code ?? 'error');
  return failure(
    new TransientSendError(`SMTP could not take the message now (${what}): ${said}`),
    'smtp_indisponivel',
  );
}

/**
 * The e-mail channel: one pooled nodemailer transport with timeouts. `send` mails one
 * notification now (the caller holds digest-mode notifications and calls `sendDigest`).
 */
export class EmailSender implements ChannelSender<EmailTarget> {
  readonly kind = 'email' as const;
  private readonly transport: Transporter;

  constructor(private readonly config: SmtpConfig) {
    this.transport = createTransport({
      pool: true,
      host: config.host,
      port: config.port,
      secure: config.secure,
      auth:
        config.user && config.password !== undefined
          ? { user: config.user, pass: config.password }
          : undefined,
      maxConnections: config.maxConnections,
      connectionTimeout: config.timeoutMs,
      greetingTimeout: config.timeoutMs,
      socketTimeout: config.timeoutMs,
      dnsTimeout: config.timeoutMs,
      logger: false,
      debug: false,
    });
  }

  async send(target: EmailTarget, notification: Notification): Promise<void> {
    await this.sendRendered(target.address, renderEmail(notification), notification.id);
  }

  /** Mails an already rendered e-mail (a digest); `id` gives its Message-ID. */
  async sendRendered(address: string, email: RenderedEmail, id: string): Promise<void> {
    if (!ADDRESS.test(address)) {
      throw failure(new PermanentSendError('not an e-mail address'), 'endereco_email_invalido');
    }
    try {
      await this.transport.sendMail({
        from: this.config.from,
        to: address,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId: messageIdFor(id, this.config.from),
        headers: { 'X-Openq-Delivery-Id': id, 'Auto-Submitted': 'auto-generated' },
      });
    } catch (error) {
      throw classifySmtpError(error);
    }
  }

  /** Closes the pool's connections (graceful shutdown). */
  close(): void {
    this.transport.close();
  }

  toString(): string {
    return `EmailSender(${describeSmtp(this.config)})`;
  }

  toJSON(): string {
    return this.toString();
  }

  [inspect.custom](): string {
    return this.toString();
  }
}
