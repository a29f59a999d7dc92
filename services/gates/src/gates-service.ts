import { Module } from '@nestjs/common';
import { commandRegistry, eventRegistry } from '@openq/contracts';
import {
  loadConfig,
  startDomainService,
  type DomainService,
  type OpenqConfig,
  type ServiceGauge,
} from '@openq/platform';
import { GATES_MIGRATIONS } from './gates/migrations';
import { GatesModule } from './gates/gates.module';
import { PIPELINE_MIGRATIONS } from './pipeline/migrations';
import { PipelineModule } from './pipeline/pipeline.module';
import { GatesConfigModule } from './gates-config';

@Module({})
class GatesServiceModule {}

/** Parked cycles by reason; zero series stay present. The partial index on parked cycles serves it. */
export const GATES_GAUGES: ServiceGauge[] = [
  {
    name: 'openq_gate_cycles_parked',
    help: 'Parked gate cycles by reason (idle, user_decision)',
    labelNames: ['reason'],
    collect: async (ds) =>
      (
        (await ds.query(
          `SELECT r.reason, count(c.project_id)::int AS n FROM (VALUES ('idle'), ('user_decision')) AS r(reason)
             LEFT JOIN gate_cycle c ON c.state = 'parked' AND c.parked_reason = r.reason GROUP BY r.reason`,
        )) as { reason: string; n: number }[]
      ).map((r) => ({ labels: { reason: r.reason }, value: r.n })),
  },
  {
    // updated_at of a parked cycle: when it parked or last moved (one of its questions answered,
    // agent activity) — how long it has waited without progress, as listParked orders them. The
    // alert on a question blocking a gate beyond the policy reads reason="user_decision".
    name: 'openq_gate_parked_oldest_age_seconds',
    help: 'Seconds the longest-waiting parked gate cycle has gone without a change (parked, an answer, activity), by reason (idle, user_decision); 0 when none is parked',
    labelNames: ['reason'],
    collect: async (ds) =>
      (
        (await ds.query(
          `SELECT r.reason, coalesce(extract(epoch FROM now() - min(c.updated_at)), 0)::float8 AS age
             FROM (VALUES ('idle'), ('user_decision')) AS r(reason)
             LEFT JOIN gate_cycle c ON c.state = 'parked' AND c.parked_reason = r.reason GROUP BY r.reason`,
        )) as { reason: string; age: number }[]
      ).map((r) => ({ labels: { reason: r.reason }, value: Math.max(0, r.age) })),
  },
];

/** Starts the gates service: QA/secops gate cycles and the analyst pipeline profile (ADR-0053). */
export function startGates(
  config: OpenqConfig = loadConfig(process.env, { authSecrets: false }),
  overrides: { httpPort?: number; embedded?: boolean; poolSize?: number } = {},
): Promise<DomainService> {
  return startDomainService({
    name: 'gates',
    config,
    module: {
      module: GatesServiceModule,
      // The pipeline's handlers first: a type both modules handle (`question.answered`,
      // `question.withdrawn`) runs the pipeline's handler, which sends its statement ahead and reads
      // the reply after the chain, before the gate cycle's, whose reads then share its round trip.
      imports: [GatesConfigModule.forRoot(config), PipelineModule, GatesModule],
    },
    migrations: [...GATES_MIGRATIONS, ...PIPELINE_MIGRATIONS] as never,
    gauges: GATES_GAUGES,
    transport: { eventRegistry, commandRegistry },
    ...overrides,
  });
}
