import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  AgentEvent,
  Commands,
  LIVE_FAMILIES,
  OpenqEvent,
  commandRegistry,
  eventRegistry,
  openqEventRegistry,
  requestSubject,
  type EventType,
  type OpenqEventType,
} from '@openq/contracts';
import {
  DURABLE_CONSUMERS,
  GATEWAY_SSE_FAMILIES,
  OPENQ_EVENT_PUBLISHER,
  requestersOf,
  type ConsumingService,
  type Party,
} from './parties';
import { repoRoot } from './reply-types';

const ROOT = repoRoot();
const SERVICES: readonly Party[] = ['questions', 'gates', 'context', 'notifier', 'gateway'];

/** The production sources of a service (no tests, no fixtures), as one text per file. */
function sources(service: Party): string[] {
  const dir = join(ROOT, 'services', service, 'src');
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts') && !f.includes('testing'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

/**
 * The library request clients a service may use instead of asking itself (`QuestionOwner` in
 * @openq/platform): each exported class of libs/platform that sends a command, with its file's text.
 */
const sharedClients = (readdirSync(join(ROOT, 'libs/platform/src')) as string[])
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
  .map((f) => readFileSync(join(ROOT, 'libs/platform/src', f), 'utf8'))
  .filter((text) => /\bCommands\.\w+\.\w+/.test(text))
  .flatMap((text) => [...text.matchAll(/export class (\w+)/g)].map(([, name]) => ({ name: name!, text })));

/** A service's sources and the shared clients it names. */
function withClients(texts: string[]): string[] {
  const used = sharedClients.filter(({ name }) => texts.some((t) => new RegExp(`\\b${name}\\b`).test(t)));
  return [...texts, ...used.map(({ text }) => text)];
}

const code = new Map(SERVICES.map((s) => [s, withClients(sources(s))]));
const key = <T extends object>(table: T, name: string) => (table as Record<string, string>)[name];
const sorted = <T>(values: Iterable<T>) => [...new Set(values)].sort();

describe('the publishers / consumers map (tools/asyncapi/parties.ts) against the services’ code', () => {
  it.each(SERVICES)('%s: its durable consumers are exactly its @EventPattern(...) handlers', (service) => {
    const handled = code
      .get(service)!
      // A second argument (WHOLE_BATCH, BEFORE_TRANSACTION) is the same durable's.
      .flatMap((text) => [...text.matchAll(/@EventPattern\((AgentEvent|OpenqEvent)\.(\w+)(?:,\s*\w+)?\)/g)])
      .map(([, table, name]) => key(table === 'AgentEvent' ? AgentEvent : OpenqEvent, name!)!);
    const declared = DURABLE_CONSUMERS[service as ConsumingService] ?? [];
    expect(sorted(handled)).toEqual(sorted(declared));
  });

  it.each(SERVICES)('%s: the requests it sends are the commands its code asks for', (service) => {
    const asked = code
      .get(service)!
      .flatMap((text) => text.split('\n'))
      .filter((line) => !line.includes('@MessagePattern('))
      .flatMap((line) => [
        ...line.matchAll(
          /\b(?:(Questions|Gates|Context|Notifier)Command|Commands\.(questions|gates|context|notifier))\.(\w+)\b/g,
        ),
      ])
      .map(([, table, viaCommands, verbKey]) => {
        const owner = viaCommands ?? table!.toLowerCase();
        const def = (Commands as Record<string, Record<string, { type: string } | undefined>>)[owner]?.[
          verbKey!
        ];
        return def?.type;
      })
      .filter((subject): subject is string => subject !== undefined);
    const declared = commandRegistry.types().filter((subject) => requestersOf(subject).includes(service));
    expect(sorted(asked)).toEqual(sorted(declared));
  });

  it('each openq event is named in the code of the service that publishes it', () => {
    for (const type of openqEventRegistry.types() as OpenqEventType[]) {
      const publisher = OPENQ_EVENT_PUBLISHER[type];
      const name = Object.entries(OpenqEvent).find(([, t]) => t === type)![0];
      const named = code
        .get(publisher)!
        .some((text) => text.includes(`'${type}'`) || text.includes(`OpenqEvent.${name}`));
      expect([type, publisher, named]).toEqual([type, publisher, true]);
    }
  });

  it("the gateway streams the OPENQ_EVENTS families of the contracts' LIVE_FAMILIES", () => {
    const text = readFileSync(join(ROOT, 'services/gateway/src/stream/live-events.ts'), 'utf8');
    expect(text).toMatch(/import \{[^}]*\bLIVE_FAMILIES\b[^}]*\} from '@openq\/contracts'/);
    expect([...GATEWAY_SSE_FAMILIES]).toEqual([...LIVE_FAMILIES]);
  });

  it('names only real event types and request subjects', () => {
    for (const types of Object.values(DURABLE_CONSUMERS) as EventType[][]) {
      for (const type of types) expect(eventRegistry.get(type)).toBeDefined();
    }
    expect(commandRegistry.get(requestSubject('questions', 'declare'))).toBeDefined();
  });
});
