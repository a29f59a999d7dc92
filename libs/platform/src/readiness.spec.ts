import { runReadinessChecks, withTimeout } from './readiness';

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
