import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPENQ_EVENT_TYPES } from '@openq/contracts';
import { LIVE_FAMILIES, OPEN_COUNT_EVENT, READY_EVENT, type LiveFamily } from '../stream/live-events';

/**
 * The browser hears a named SSE event only if it listens for it: the inbox's `live.js` keeps its
 * own list (no bundler, no imports from the workspace). It must name every event type of
 * OPENQ_EVENT_TABLE the stream sends (the LIVE_FAMILIES), plus the stream's own events.
 */
const PUBLIC = join(__dirname, 'public');

function listOf(file: string, name: string): string[] {
  const text = readFileSync(join(PUBLIC, file), 'utf8');
  const list = new RegExp(`const ${name} = \\[([^\\]]*)\\]`).exec(text)?.[1];
  if (list === undefined) throw new Error(`no ${name} list in ${file}`);
  return [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

const streamed = OPENQ_EVENT_TYPES.filter((type) => LIVE_FAMILIES.includes(type.split('.')[0] as LiveFamily));

describe('the event types the inbox listens for (public/live.js)', () => {
  const listened = listOf('live.js', 'TYPES');

  it('are the streamed types of the event table and the stream’s own events, each once', () => {
    expect(new Set(listened).size).toBe(listened.length);
    expect([...listened].sort()).toEqual([READY_EVENT, OPEN_COUNT_EVENT, ...streamed].sort());
  });

  it('include every event the inbox refreshes a list on (public/app.js REFRESH)', () => {
    const text = readFileSync(join(PUBLIC, 'app.js'), 'utf8');
    const refresh = /const REFRESH = \{([^}]*)\}/.exec(text)?.[1] ?? '';
    const keys = [...refresh.matchAll(/^\s*'?([a-z_.]+)'?:/gm)].map((m) => m[1]!);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((key) => !listened.includes(key))).toEqual([]);
  });
});
