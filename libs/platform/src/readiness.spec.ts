import { EventEmitter } from 'node:events';
import type { DataSource } from 'typeorm';
import { dataSourceReadinessCheck, runReadinessChecks, withTimeout } from './readiness';

describe('runReadinessChecks', () => {
  it('is ready when every check resolves', async () => {
    const report = await runReadinessChecks({ nats: async () => undefined, postgres: async () => 'fine' });
    expect(report.ready).toBe(true);
    expect(report.checks.nats?.status).toBe('up');
    expect(report.checks.postgres?.status).toBe('up');
  });

  it('names the failing check and its reason', async () => {
    const report = await runReadinessChecks({
      nats: async () => undefined,
      postgres: async () => {
        throw new Error('connection refused');
      },
    });
    expect(report.ready).toBe(false);
    expect(report.checks.postgres).toMatchObject({ status: 'down', error: 'connection refused' });
  });

  it('turns a hanging check into a timeout instead of hanging readiness', async () => {
    const report = await runReadinessChecks({ slow: () => new Promise(() => undefined) }, 20);
    expect(report.checks.slow).toMatchObject({ status: 'down', error: 'slow did not answer within 20 ms' });
  });

  it('treats a synchronous throw as down', async () => {
    const report = await runReadinessChecks({
      broken: () => {
        throw new Error('boom');
      },
    });
    expect(report.checks.broken).toMatchObject({ status: 'down', error: 'boom' });
  });
});

describe('withTimeout', () => {
  it('returns the value when it comes first', async () => {
    await expect(withTimeout(Promise.resolve(7), 1000, 'x')).resolves.toBe(7);
  });
});

describe('dataSourceReadinessCheck', () => {
  function fakeDataSource() {
    const pool = new EventEmitter();
    const dataSource = {
      isInitialized: true,
      driver: { master: pool },
      query: async () => [{ '?column?': 1 }],
    };
    return { pool, dataSource: dataSource as unknown as DataSource };
  }

  it('is up while SELECT 1 answers and no connection was lost', async () => {
    const { dataSource } = fakeDataSource();
    await expect(dataSourceReadinessCheck(dataSource)()).resolves.toBeUndefined();
  });

  it('is down for a while after the pool lost a connection, though SELECT 1 still answers', async () => {
    const { pool, dataSource } = fakeDataSource();
    const check = dataSourceReadinessCheck(dataSource, 1000, 50);
    pool.emit('error', new Error('terminating connection due to administrator command'));
    await expect(check()).rejects.toThrow(/dropped a connection/);
    await new Promise((r) => setTimeout(r, 60));
    await expect(check()).resolves.toBeUndefined();
  });
});
