import { register } from 'prom-client';
import { HealthController, READY_METRIC } from './health';

describe('openq_service_ready', () => {
  const scrape = () => register.getSingleMetricAsString(READY_METRIC);

  it('is what /readyz would answer, per service, evaluated on each scrape', async () => {
    let natsUp = true;
    const gates = new HealthController(
      {
        nats: async () => {
          if (!natsUp) throw new Error('NATS down');
        },
      },
      'gates',
    );
    const context = new HealthController({ postgres: async () => undefined }, 'context');
    expect(await scrape()).toContain('openq_service_ready{service="gates"} 1');
    natsUp = false;
    expect(await scrape()).toContain('openq_service_ready{service="gates"} 0');
    expect(await scrape()).toContain('openq_service_ready{service="context"} 1');

    context.beforeApplicationShutdown();
    expect(await scrape()).toContain('openq_service_ready{service="context"} 0');
    context.onApplicationShutdown();
    gates.onApplicationShutdown();
    expect(await scrape()).not.toContain('service="context"');
  });
});
