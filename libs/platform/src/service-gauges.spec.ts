import { register } from 'prom-client';
import type { DataSource } from 'typeorm';
import { registerServiceGauges, sqlGauge, type ServiceGauge } from './service-gauges';

/** A data source that answers every query with `rows` (or fails). */
function fakeDataSource(rows: unknown[] | Error): DataSource {
  return {
    query: async () => (rows instanceof Error ? Promise.reject(rows) : rows),
  } as unknown as DataSource;
}

async function scrape(name: string): Promise<string> {
  return (await register.getSingleMetricAsString(name))
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n');
}

describe('service gauges', () => {
  afterEach(() => register.clear());

  it('reads an SQL count on each scrape, labelled with the service', async () => {
    const release = registerServiceGauges('questions', fakeDataSource([{ n: '42' }]), [
      sqlGauge('test_open_questions', 'open', 'SELECT 42 AS n'),
    ]);
    expect(await scrape('test_open_questions')).toBe('test_open_questions{service="questions"} 42');
    release();
    expect(await scrape('test_open_questions')).toBe('');
  });

  it('takes labelled samples, and leaves out a source whose collect failed', async () => {
    const parked: ServiceGauge = {
      name: 'test_parked',
      help: 'parked',
      labelNames: ['reason'],
      collect: async (ds) =>
        ((await ds.query('…')) as { reason: string; n: number }[]).map((r) => ({
          labels: { reason: r.reason },
          value: r.n,
        })),
    };
    registerServiceGauges(
      'gates',
      fakeDataSource([
        { reason: 'idle', n: 2 },
        { reason: 'user_decision', n: 5 },
      ]),
      [parked],
    );
    registerServiceGauges('gates-broken', fakeDataSource(new Error('database down')), [parked]);
    const text = await scrape('test_parked');
    expect(text).toContain('test_parked{reason="idle",service="gates"} 2');
    expect(text).toContain('test_parked{reason="user_decision",service="gates"} 5');
    expect(text).not.toContain('gates-broken');
  });
});
