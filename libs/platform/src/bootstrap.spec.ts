import { NatsError, ErrorCode } from 'nats';
import { InfrastructureUnavailableError } from '@openq/persistence';
import { describeStartupFailure } from './bootstrap';
import { ConfigError } from './env';

describe('describeStartupFailure', () => {
  it('prints the message of a missing piece of infrastructure', () => {
    const error = new InfrastructureUnavailableError(
      'PostgreSQL',
      'PostgreSQL is not answering at x — start it',
    );
    expect(describeStartupFailure(error)).toBe('PostgreSQL is not answering at x — start it');
  });

  it('prints the message of a bad configuration', () => {
    expect(describeStartupFailure(new ConfigError('Invalid configuration: PORT must be a TCP port'))).toBe(
      'Invalid configuration: PORT must be a TCP port',
    );
  });

  it('recognises a raw NATS refusal', () => {
    expect(describeStartupFailure(new NatsError('refused', ErrorCode.ConnectionRefused))).toMatch(
      /^NATS is not answering — start it/,
    );
  });

  it('names the port variable when the port is taken', () => {
    const error = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
    expect(describeStartupFailure(error, { httpPort: 3000, portVariable: 'PORT' })).toBe(
      'port 3000 is already in use — stop what holds it or set PORT.',
    );
  });

  it('leaves unknown failures to the full report', () => {
    expect(describeStartupFailure(new TypeError('x is undefined'))).toBeNull();
  });
});
