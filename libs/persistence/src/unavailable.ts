/**
 * Raised when a piece of infrastructure is not answering. Entry points print `message`
 * as one line (what to start) instead of a stack trace.
 */
export class InfrastructureUnavailableError extends Error {
  constructor(
    readonly what: 'PostgreSQL' | 'NATS',
    message: string,
  ) {
    super(message);
    this.name = 'InfrastructureUnavailableError';
  }
}
