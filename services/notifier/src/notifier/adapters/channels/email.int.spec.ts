import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SMTPServerOptions } from 'smtp-server';
import { SmtpSink } from '@openq/testing/smtp-sink';
import { PermanentSendError, TransientSendError } from './channel';
import { EmailSender, smtpConfigFromEnv, type SmtpConfig } from './email';
import { renderDigest } from './digest';
import { sampleNotification } from './templates/sample-notification';

/** The kit's SMTP sink (a real server on a random loopback port), with the server options a test needs. */
const startSmtp = (options: Partial<SMTPServerOptions> = {}) => SmtpSink.start(options);

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

function configFor(
  port: number,
  extra: NodeJS.ProcessEnv = {},
  readSecret?: (p: string) => string,
): SmtpConfig {
  return smtpConfigFromEnv(
    {
      OPENQ_SMTP_HOST: '127.0.0.1',
      OPENQ_SMTP_PORT: String(port),
      OPENQ_SMTP_FROM: 'openq <notify@example.com>',
      OPENQ_SMTP_TIMEOUT_SECONDS: '5',
      ...extra,
    },
    readSecret,
  )!;
}

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setUp(options: Partial<SMTPServerOptions> = {}, extra: NodeJS.ProcessEnv = {}) {
  const smtp = await startSmtp(options);
  closers.push(() => smtp.stop());
  const sender = new EmailSender(configFor(smtp.port, extra));
  closers.push(() => sender.close());
  return { smtp, sender };
}

describe('EmailSender against a real SMTP server', () => {
  it('delivers subject, text, HTML with both links, and a Message-ID from the delivery id', async () => {
    const { smtp, sender } = await setUp();
    const n = sampleNotification();
    await sender.send({ address: 'ana@example.com', mode: 'immediate' }, n);

    expect(smtp.received).toHaveLength(1);
    const { to, mail } = smtp.received[0]!;
    expect(to).toEqual(['ana@example.com']);
    expect(mail.subject).toBe('[openq] QA gate on T-101 is waiting for your decision');
    expect(mail.from?.value).toEqual([{ name: 'openq', address: 'notify@example.com' }]);
    expect(mail.messageId).toBe(`<openq.${n.id}@example.com>`);
    expect(mail.headers.get('x-openq-delivery-id')).toBe(n.id);
    expect(mail.text).toContain('Should refunds above R$ 500 need a second approval?');
    expect(mail.text).toContain('Accept the suggestion: https://openq.example.com/l/accept/tok-123');
    expect(mail.html).toContain('<a href="https://openq.example.com/l/accept/tok-123"');
    expect(mail.html).toContain('>Open in openq</a>');
    expect(mail.html).toContain('Yes: above R$ 500 a second approver from finance confirms.');
  });

  it('sends a re-send after a crash as the same message (same Message-ID)', async () => {
    const { smtp, sender } = await setUp();
    const n = sampleNotification({
      kind: 'gate_resumed',
      gate: { taskId: 'T-101', gate: 'qa', trigger: 'answer' },
    });
    await sender.send({ address: 'ana@example.com', mode: 'immediate' }, n);
    await sender.send({ address: 'ana@example.com', mode: 'immediate' }, n);
    expect(smtp.received.map((r) => r.mail.messageId)).toEqual([
      `<openq.${n.id}@example.com>`,
      `<openq.${n.id}@example.com>`,
    ]);
    expect(smtp.received[0]!.mail.subject).toBe('[openq] QA gate on T-101 resumed with your decision');
  });

  it('mails a digest with its own stable Message-ID', async () => {
    const { smtp, sender } = await setUp();
    const digest = renderDigest(
      [sampleNotification(), sampleNotification({ id: 'd-2', projectId: 'beta' })],
      {
        mode: 'hourly',
      },
    );
    await sender.sendRendered('ana@example.com', digest, digest.id);
    const mail = smtp.received[0]!.mail;
    expect(mail.messageId).toBe(`<openq.${digest.id}@example.com>`);
    expect(mail.subject).toBe(digest.subject);
    expect(mail.text).toContain('Project beta');
  });

  it('logs in with the password read from OPENQ_SMTP_PASSWORD_FILE', async () => {
    const logins: Array<{ username?: string; password?: string | null }> = [];
    const smtp = await startSmtp({
      authOptional: false,
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      onAuth(auth, _session, callback) {
        logins.push({ username: auth.username, password: auth.password });
        if (auth.username === 'notify' && auth.password === 'from-the-file')
          callback(null, { user: 'notify' });
        else callback(smtpError(535, 'Authentication failed'));
      },
    });
    closers.push(() => smtp.stop());
    const dir = mkdtempSync(join(tmpdir(), 'openq-smtp-'));
    writeFileSync(join(dir, 'password'), 'from-the-file\n');
    const env = {
      OPENQ_SMTP_URL: `smtp://notify@127.0.0.1:${smtp.port}`,
      OPENQ_SMTP_PASSWORD_FILE: join(dir, 'password'),
      OPENQ_SMTP_FROM: 'notify@example.com',
    };
    const sender = new EmailSender(smtpConfigFromEnv(env)!);
    closers.push(() => sender.close());
    await sender.send({ address: 'ana@example.com', mode: 'immediate' }, sampleNotification());
    expect(logins).toEqual([{ username: 'notify', password: 'from-the-file' }]);
    expect(smtp.received).toHaveLength(1);

    writeFileSync(join(dir, 'password'), 'wrong-one');
    const refused = new EmailSender(smtpConfigFromEnv(env)!);
    closers.push(() => refused.close());
    const error = await refused
      .send({ address: 'ana@example.com', mode: 'immediate' }, sampleNotification())
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error).toBeInstanceOf(TransientSendError);
    expect(error?.message).not.toContain('wrong-one');
  });

  it('turns a 550 for the recipient into a PermanentSendError', async () => {
    const { smtp, sender } = await setUp({
      onRcptTo(address, _session, callback) {
        callback(address.address === 'gone@example.com' ? smtpError(550, 'No such user here') : null);
      },
    });
    const error = await sender
      .send({ address: 'gone@example.com', mode: 'immediate' }, sampleNotification())
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error).toBeInstanceOf(PermanentSendError);
    expect(error).toMatchObject({ reason: 'smtp_recusou' });
    expect(error?.message).toMatch(/550/);
    expect(smtp.received).toHaveLength(0);
  });

  it('turns a 451 for the message into a TransientSendError', async () => {
    const { smtp, sender } = await setUp({
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback(smtpError(451, 'Try again later')));
      },
    });
    const error = await sender
      .send({ address: 'ana@example.com', mode: 'immediate' }, sampleNotification())
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error).toBeInstanceOf(TransientSendError);
    expect(error).toMatchObject({ reason: 'smtp_indisponivel' });
    expect(error?.message).toMatch(/451/);
    expect(smtp.received).toHaveLength(0);
  });

  it('turns a refused connection into a TransientSendError', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const sender = new EmailSender(configFor(port));
    closers.push(() => sender.close());
    const error = await sender
      .send({ address: 'ana@example.com', mode: 'immediate' }, sampleNotification())
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error).toBeInstanceOf(TransientSendError);
  });

  it('refuses a malformed address before any connection, as permanent', async () => {
    const { smtp, sender } = await setUp();
    const error = await sender
      .send({ address: 'ana@example.com\r\nBcc: all@example.com', mode: 'immediate' }, sampleNotification())
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(error).toBeInstanceOf(PermanentSendError);
    expect(error).toMatchObject({ reason: 'endereco_email_invalido' });
    expect(smtp.received).toHaveLength(0);
  });
});
