import { figure, type Figure } from './stats';

export interface FigureRow {
  scenario: string;
  metric: string;
  figure: Figure;
}

export interface Target {
  id: string;
  description: string;
  /** The measured value the target is judged on (a median over the runs). */
  value: number;
  unit: string;
  limit: string;
  met: boolean;
}

export interface BenchResults {
  meta: Record<string, unknown>;
  figures: FigureRow[];
  targets: Target[];
  /** Plans, seed timings and other things a reader needs to trust the figures. */
  details: Record<string, unknown>;
  /** Scenarios that failed, with the reason (the bench goes on with the others). */
  errors: Record<string, string>;
}

/** Collects one value per run and metric; `rows()` turns them into figures (median, spread). */
export class Collector {
  private readonly values = new Map<
    string,
    { scenario: string; metric: string; unit: string; runs: number[] }
  >();

  add(scenario: string, metric: string, unit: string, value: number): void {
    const key = `${scenario}\u0000${metric}`;
    const entry = this.values.get(key) ?? { scenario, metric, unit, runs: [] };
    entry.runs.push(value);
    this.values.set(key, entry);
  }

  get(scenario: string, metric: string): Figure | null {
    const entry = this.values.get(`${scenario}\u0000${metric}`);
    return entry ? figure(entry.unit, entry.runs) : null;
  }

  runsOf(scenario: string, metric: string): number[] {
    return this.values.get(`${scenario}\u0000${metric}`)?.runs ?? [];
  }

  rows(): FigureRow[] {
    return [...this.values.values()].map((e) => ({
      scenario: e.scenario,
      metric: e.metric,
      figure: figure(e.unit, e.runs),
    }));
  }
}
