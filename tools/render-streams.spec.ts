import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STREAMS } from '@openq/contracts';
import { DEFAULT_STREAM_SETTINGS, streamConfig } from '@openq/messaging';
import { CLUSTER_REPLICAS, renderStreams } from './render-streams';

const CHECKED_IN = join(__dirname, '..', 'deploy', 'nats', 'streams.json');

describe('render-streams', () => {
  it('deploy/nats/streams.json is exactly what the generator prints (regenerate: node dist/tools/render-streams.js > deploy/nats/streams.json)', () => {
    expect(readFileSync(CHECKED_IN, 'utf8')).toBe(renderStreams());
  });

  it('renders the services’ own stream definitions, replicated for the cluster', () => {
    const rendered = JSON.parse(renderStreams()) as { replicas: number; streams: Record<string, unknown>[] };
    expect(rendered.replicas).toBe(CLUSTER_REPLICAS);
    expect(rendered.streams.map((s) => s.name)).toEqual(Object.values(STREAMS).map((s) => s.name));
    for (const [i, key] of (['agentEvents', 'openqEvents'] as const).entries()) {
      expect(rendered.streams[i]).toEqual(
        JSON.parse(JSON.stringify(streamConfig(key, { ...DEFAULT_STREAM_SETTINGS, replicas: 3 }))),
      );
    }
    expect(
      JSON.parse(renderStreams(1)).streams.every((s: { num_replicas: number }) => s.num_replicas === 1),
    ).toBe(true);
  });
});
