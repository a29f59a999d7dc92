import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GATES } from '@openq/contracts';

/**
 * Migrations are history and keep their CHECK lists as written; a new gate kind in GATE_TABLE
 * (libs/contracts) needs a migration that widens them. This holds the schema and the table equal:
 * for each table, the newest `gate IN (…)` of the gates service's migrations lists GATES, in order.
 */
const SRC = join(__dirname, '..', '..');

function migrationFiles(): string[] {
  return ['gates/migrations', 'pipeline/migrations']
    .flatMap((dir) =>
      readdirSync(join(SRC, dir))
        .filter((f) => /^\d+-.*\.ts$/.test(f))
        .map((f) => ({ f, path: join(SRC, dir, f) })),
    )
    .sort((a, b) => a.f.localeCompare(b.f))
    .map(({ path }) => path);
}

/** The `gate IN (…)` list of each table a migration's SQL creates or alters, in statement order. */
function gateChecks(sql: string): Array<{ table: string; gates: string[] }> {
  const checks: Array<{ table: string; gates: string[] }> = [];
  for (const statement of sql.split(/(?=\b(?:CREATE|ALTER) TABLE\b)/i)) {
    const table = /^(?:CREATE|ALTER) TABLE\s+(?:IF (?:NOT )?EXISTS\s+)?(\w+)/i.exec(statement)?.[1];
    if (!table) continue;
    for (const [, list] of statement.matchAll(/\bgate\s+IN\s*\(([^)]*)\)/gi))
      checks.push({ table, gates: [...list!.matchAll(/'([^']*)'/g)].map((m) => m[1]!) });
  }
  return checks;
}

describe('the gate kinds in the schema and in GATE_TABLE', () => {
  it('reads a CHECK list per table, the newest one winning', () => {
    expect(
      gateChecks(`CREATE TABLE a (gate text CHECK (gate IN ('qa'))); CREATE TABLE b (x int);
        ALTER TABLE a DROP CONSTRAINT a_gate_check, ADD CHECK (gate IN ('qa', 'secops', 'perf'))`),
    ).toEqual([
      { table: 'a', gates: ['qa'] },
      { table: 'a', gates: ['qa', 'secops', 'perf'] },
    ]);
  });

  it('every table with a gate CHECK lists exactly GATES, in pipeline order', () => {
    const newest = new Map<string, string[]>();
    for (const file of migrationFiles())
      for (const { table, gates } of gateChecks(readFileSync(file, 'utf8'))) newest.set(table, gates);
    expect([...newest.keys()].sort()).toEqual(['gate_cycle', 'gate_history']);
    for (const [table, gates] of newest) expect({ table, gates }).toEqual({ table, gates: [...GATES] });
  });
});
