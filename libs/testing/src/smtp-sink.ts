import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** A real SMTP server on a random loopback port; `received` holds what it accepted, parsed. */
export class SmtpSink {
  private constructor(
    /** What it accepted, in order, parsed. */
    readonly received: Array<{ to: string[]; mail: ParsedMail }>,
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  /** `options` go to the server on top of the sink's (authentication, a refusing `onData`…). */
  static async start(options: Partial<SMTPServerOptions> = {}): Promise<SmtpSink> {
    const received: SmtpSink['received'] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream).then(
          (mail) => {
            received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
            callback();
          },
          (error: Error) => callback(error),
        );
      },
      ...options,
    });
    // A client killed mid-session (the fault tests SIGKILL the notifier) resets its connection:
    // that is the client's failure, not the server's; the message it was sending never counts.
    server.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new SmtpSink(received, server, (server.server.address() as AddressInfo).port);
  }

  /** The notifier's SMTP variables pointing here. */
  env(): Record<string, string> {
    return {
      OPENQ_SMTP_HOST: '127.0.0.1',
      OPENQ_SMTP_PORT: String(this.port),
      OPENQ_SMTP_FROM: 'openq <notify@example.com>',
      OPENQ_SMTP_TIMEOUT_SECONDS: '5',
    };
  }

  to(address: string): ParsedMail[] {
    return this.received.filter((r) => r.to.includes(address)).map((r) => r.mail);
  }

  stop(): Promise<void> {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
