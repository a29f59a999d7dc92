import { isTransientDbError, isUniqueViolation } from './db-errors';

describe('isTransientDbError', () => {
  it.each([
    ['a serialization failure', Object.assign(new Error('could not serialize'), { code: '40001' })],
    ['a deadlock', Object.assign(new Error('deadlock detected'), { code: '40P01' })],
    [
      'an administrator terminating the backend',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
    // pg-pool, when no connection frees up within connectionTimeoutMillis (an overloaded database)
    ['a pool that found no free connection in time', new Error('timeout exceeded when trying to connect')],
    // TypeORM, after the server ended the connection a transaction was using
    [
      'a transaction whose connection was released under it',
      new Error(
        'Database connection provided by a query runner was already released, cannot continue to use its querying methods anymore.',
      ),
    ],
    [
      'a query runner released under its transaction',
      new Error('Query runner already released. Cannot run queries anymore.'),
    ],
    ['a TypeORM-wrapped driver error', { message: 'x', driverError: { code: '57P03' } }],
  ])('treats %s as transient', (_what, error) => {
    expect(isTransientDbError(error)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a syntax error', Object.assign(new Error('syntax error'), { code: '42601' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'x')")],
  ])('does not treat %s as transient', (_what, error) => {
    expect(isTransientDbError(error)).toBe(false);
  });

  it('recognises unique violations, by constraint when asked', () => {
    const error = Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'inbox_pkey' });
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'inbox_pkey')).toBe(true);
    expect(isUniqueViolation(error, 'other')).toBe(false);
  });
});
