/**
 * CPU per NATS request in this process, with and without the client's async stack traces
 * (`noAsyncTraces`), alternating rounds in one run against one nats-server of its own:
 * `npm run build && node dist/test/bench/micro/nats-request-cpu.js [requests per round] [rounds]`.
 * A responder in the same process answers on a subject of its own; 16 requests are in flight.
 */
import '../../../tools/register-paths';
import { connect, type NatsConnection } from 'nats';
import { startNatsServer } from '@openq/testing';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function round(url: string, noAsyncTraces: boolean, requests: number): Promise<number> {
  const responder = await connect({ servers: url });
  const sub = responder.subscribe('micro.echo');
  void (async () => {
    for await (const msg of sub) msg.respond(msg.data);
  })();
  const nc: NatsConnection = await connect({ servers: url, noAsyncTraces });
  const payload = new TextEncoder().encode(JSON.stringify({ hello: 'world', n: 42 }));
  for (let i = 0; i < 200; i++) await nc.request('micro.echo', payload, { timeout: 5000 }); // warm-up
  const before = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next++ < requests) await nc.request('micro.echo', payload, { timeout: 5000 });
    }),
  );
  const used = process.cpuUsage(before);
  await nc.close();
  await responder.close();
  return (used.user + used.system) / requests; // µs per request, both ends in this process
}

async function main(): Promise<void> {
  const requests = Number(process.argv[2] ?? 20_000);
  const rounds = Number(process.argv[3] ?? 5);
  const server = await startNatsServer();
  const runs: Record<'traces' | 'noAsyncTraces', number[]> = { traces: [], noAsyncTraces: [] };
  try {
    for (let r = 0; r < rounds; r++) {
      runs.traces.push(await round(server.url, false, requests));
      runs.noAsyncTraces.push(await round(server.url, true, requests));
    }
  } finally {
    await server.stop();
  }
  const a = median(runs.traces);
  const b = median(runs.noAsyncTraces);
  console.log(`| client option | CPU per request (µs, median of ${rounds}) | rounds |`);
  console.log('| --- | ---: | --- |');
  console.log(
    `| async traces (default) | ${a.toFixed(1)} | ${runs.traces.map((x) => x.toFixed(1)).join(', ')} |`,
  );
  console.log(
    `| noAsyncTraces | ${b.toFixed(1)} | ${runs.noAsyncTraces.map((x) => x.toFixed(1)).join(', ')} |`,
  );
  console.log(`ratio ${(b / a).toFixed(3)} (${((1 - b / a) * 100).toFixed(1)} % less)`);
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
