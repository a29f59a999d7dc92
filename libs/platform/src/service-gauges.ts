import { Gauge, register } from 'prom-client';
import type { DataSource } from 'typeorm';
import { withTimeout } from './readiness';

export interface GaugeSample {
  labels?: Record<string, string>;
  value: number;
}

/**
 * A gauge a domain service reads from its own database when `/metrics` is scraped (open
 * questions, parked gate cycles …). `collect` must be cheap — an indexed count — since it runs on
 * every scrape (2 s at most); the series is left out of a scrape whose collect failed.
 */
export interface ServiceGauge {
  name: string;
  help: string;
  /** Labels of the samples beyond `service`, which is always set. */
  labelNames?: string[];
  collect(dataSource: DataSource): Promise<number | GaugeSample[]>;
}

export const GAUGE_COLLECT_TIMEOUT_MS = 2000;

interface Source {
  gauge: ServiceGauge;
  service: string;
  dataSource: DataSource;
}

/** Per metric name, the data sources registered for it (one per service of the process). */
const sources = new Map<string, Set<Source>>();

/** Registers the service's gauges on the process's registry; the returned function removes them. */
export function registerServiceGauges(
  service: string,
  dataSource: DataSource,
  gauges: readonly ServiceGauge[],
): () => void {
  const added = gauges.map((gauge) => {
    const source: Source = { gauge, service, dataSource };
    if (!sources.has(gauge.name)) sources.set(gauge.name, new Set());
    sources.get(gauge.name)!.add(source);
    ensureMetric(gauge);
    return source;
  });
  return () => {
    for (const source of added) sources.get(source.gauge.name)?.delete(source);
  };
}

function ensureMetric(def: ServiceGauge): void {
  if (register.getSingleMetric(def.name)) return;
  new Gauge({
    name: def.name,
    help: def.help,
    labelNames: ['service', ...(def.labelNames ?? [])],
    async collect() {
      const collected = await Promise.all(
        [...(sources.get(def.name) ?? [])].map(async (source) => {
          const value = await withTimeout(
            source.gauge.collect(source.dataSource),
            GAUGE_COLLECT_TIMEOUT_MS,
            def.name,
          ).catch(() => null);
          return { source, value };
        }),
      );
      this.reset();
      for (const { source, value } of collected) {
        if (value === null) continue;
        const samples = typeof value === 'number' ? [{ value }] : value;
        for (const sample of samples) this.set({ ...sample.labels, service: source.service }, sample.value);
      }
    },
  });
}

/** A gauge whose value is one SQL number (`SELECT … AS n`) in the service's schema. */
export function sqlGauge(name: string, help: string, sql: string): ServiceGauge {
  return {
    name,
    help,
    async collect(dataSource) {
      const [row] = (await dataSource.query(sql)) as { n: string | number | null }[];
      return Number(row?.n ?? 0);
    },
  };
}
