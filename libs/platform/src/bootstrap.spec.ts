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

  it('says in one line that DATABASE_URL has a wrong user or password (issue #34)', () => {
    // What pg throws for a wrong password (SQLSTATE 28P01), and for a user pg_hba.conf refuses (28000).
    const wrong = Object.assign(new Error('password authentication failed for user "postgres"'), {
      code: '28P01',
      severity: 'FATAL',
    });
    expect(describeStartupFailure(wrong)).toBe(
      'PostgreSQL refused the login of DATABASE_URL (password authentication failed for user "postgres") — check the user and password in DATABASE_URL.',
    );
    const wrapped = Object.assign(new Error('query failed'), {
      driverError: { code: '28000', message: 'no pg_hba.conf entry' },
    });
    expect(describeStartupFailure(wrapped)).toMatch(/^PostgreSQL refused the login of DATABASE_URL/);
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

  it('names OPENQ_STREAM_REPLICAS when JetStream cannot place that many replicas', () => {
    const single = Object.assign(new Error('replicas > 1 not supported in non-clustered mode'), {
      api_error: {
        code: 500,
        err_code: 10074,
        description: 'replicas > 1 not supported in non-clustered mode',
      },
    });
    expect(describeStartupFailure(single)).toMatch(
      /not supported in non-clustered mode\) — OPENQ_STREAM_REPLICAS must not exceed/,
    );
    const tooFew = Object.assign(new Error('insufficient resources'), {
      api_error: { code: 503, err_code: 10023, description: 'insufficient resources' },
    });
    expect(describeStartupFailure(tooFew)).toMatch(/OPENQ_STREAM_REPLICAS/);
  });

  it('leaves unknown failures to the full report', () => {
    expect(describeStartupFailure(new TypeError('x is undefined'))).toBeNull();
  });
});
