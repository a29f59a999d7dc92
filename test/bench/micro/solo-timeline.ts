/**
 * Where one answer's time goes (issue #29): the whole stack in this process (as the bench runs it),
 * cycles parked by agent events, then answered one at a time over HTTP; a core NATS subscriber on
 * `>` stamps every message the cycle puts on the wire (requests, replies, JetStream publishes and
 * their PubAcks, pulls, acks). Prints, per hop, the median offset from the HTTP request:
 * `npm run build && node dist/test/bench/micro/solo-timeline.js [cycles] [services]`, services a comma
 * list (default `questions,gates,context,notifier`). Environment: `SOLO_SPY` the subjects stamped
 * (comma list, default `>`; `gate.>` alone costs the cycle nearly nothing), `SOLO_GAP=0` answers back
 * to back instead of 150 ms apart, `SOLO_PROFILE=<file>` writes a CPU profile of the cycles alone
 * (`node /path/to/profile.js <file>` summarises it). Then the CPU of the answers and their tails
 * (this process with the load's polling, the PostgreSQL backends, the nats-server) per cycle; last,
 * the JetStream deliveries per cycle (park included) of each durable, read from the broker between
 * two idle points.
 */
import '../../../tools/register-paths';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { inspectorPost } from '../support/inspector';
import { connect } from 'nats';
import { AgentEvent, eventSubject, makeEnvelope } from '@openq/contracts';
import { encodeJson } from '@openq/messaging';
import { Stack } from '../../support/stack';
import { BENCH_GATEWAY_ENV } from '../phases/common';
import { http } from '../support/http';
import { BENCH_USER, gateStartedData, verdictData } from '../support/payloads';
import { until } from '../support/load';
import { CpuMeter, databaseBackends } from '../support/cpu';
import { deliveriesByDurable, quiesce } from '../support/quiesce';
import { now } from '../support/stats';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A subject without its ids: the hop's name. */
function hop(subject: string, data: Uint8Array): string {
  if (subject.startsWith('_INBOX.')) return `reply (${data.length} B)`;
  if (subject.startsWith('$JS.ACK.')) return `ack ${subject.split('.')[3]}`;
  if (subject.startsWith('$JS.API.CONSUMER.MSG.NEXT.')) return `pull ${subject.split('.')[6]}`;
  return subject
    .split('.')
    .filter((part) => !/^p\d+$|^T-|^[0-9a-f-]{20,}$/.test(part))
    .join('.');
}

async function main(): Promise<void> {
  const cycles = Number(process.argv[2] ?? 40);
  const stack = await Stack.start({
    services: (process.argv[3] ?? 'questions,gates,context,notifier').split(',') as never,
    env: BENCH_GATEWAY_ENV,
  });
  stack.events.stop();
  stack.agentEvents.stop();
  const spy = await connect({ servers: stack.nats.url });
  let current = null as { t0: number; seen: Map<string, number> } | null;
  const counts = new Map<string, number>();
  const parked = new Map<string, string>();
  const resumed = new Set<string>();
  const spied = (process.env.SOLO_SPY ?? '>').split(',');
  const sub = spy.subscribe(spied.length === 1 ? spied[0]! : 'gate.>');
  const extra = spied.length > 1 ? spied.filter((s) => s !== 'gate.>') : [];
  for (const subject of extra) {
    const more = spy.subscribe(subject);
    void (async () => {
      for await (const m of more) {
        if (!current) continue;
        const name = hop(m.subject, m.data);
        counts.set(name, (counts.get(name) ?? 0) + 1);
        if (!current.seen.has(name)) current.seen.set(name, now() - current.t0);
      }
    })();
  }
  void (async () => {
    for await (const m of sub) {
      const t = now();
      if (m.subject.startsWith('gate.rescue_parked.')) {
        const data = (
          JSON.parse(new TextDecoder().decode(m.data)) as { data: { taskId: string; questionIds: string[] } }
        ).data;
        parked.set(data.taskId, data.questionIds[0]!);
      }
      if (m.subject.startsWith('gate.resumed.'))
        resumed.add(
          (JSON.parse(new TextDecoder().decode(m.data)) as { data: { taskId: string } }).data.taskId,
        );
      if (!current) continue;
      const name = hop(m.subject, m.data);
      counts.set(name, (counts.get(name) ?? 0) + 1);
      if (!current.seen.has(name)) current.seen.set(name, t - current.t0);
    }
  })();
  try {
    const js = stack.nc.jetstream();
    await quiesce(stack.nc);
    const delivered0 = await deliveriesByDurable(stack.nc);
    const taskIds = Array.from({ length: cycles }, (_, i) => `T-solo-${i}`);
    for (const [i, taskId] of taskIds.entries()) {
      const started = makeEnvelope(AgentEvent.GateStarted, 'p0', gateStartedData(taskId));
      await js.publish(eventSubject(AgentEvent.GateStarted, 'p0'), encodeJson(started), {
        msgID: started.eventId,
      });
      const verdict = makeEnvelope(AgentEvent.QaVerdict, 'p0', verdictData(taskId, `R-solo-${i}`));
      await js.publish(eventSubject(AgentEvent.QaVerdict, 'p0'), encodeJson(verdict), {
        msgID: verdict.eventId,
      });
    }
    await until(() => parked.size >= cycles, 'parked', 60_000, 5);
    await new Promise((r) => setTimeout(r, 2000)); // let the parks' side effects (notifier, context) finish
    const token = stack.token(BENCH_USER, 'p0', 'viewer');
    const offsets = new Map<string, number[]>();
    const totals: number[] = [];
    const profiler = process.env.SOLO_PROFILE ? new Session() : null;
    if (profiler) {
      profiler.connect();
      await inspectorPost(profiler, 'Profiler.enable');
      await inspectorPost(profiler, 'Profiler.setSamplingInterval', { interval: 100 });
      await inspectorPost(profiler, 'Profiler.start');
    }
    const ds = stack.service('questions').dataSource;
    const cpu = await CpuMeter.start(
      databaseBackends((sql) => ds.query(sql)),
      stack.nats.port,
    );
    for (const taskId of taskIds) {
      current = { t0: now(), seen: new Map() };
      const res = await http(
        'POST',
        `${stack.baseUrl}/projects/p0/open-questions/${parked.get(taskId)!}/answer`,
        { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        '{"aceitarSugestao":true}',
      );
      current.seen.set('HTTP 200', now() - current.t0);
      if (res.status !== 200) throw new Error(`answer → ${res.status} ${res.body}`);
      await until(() => resumed.has(taskId), 'resumed', 10_000, 0.2);
      totals.push(now() - current.t0);
      if (process.env.SOLO_GAP !== '0') await new Promise((r) => setTimeout(r, 150)); // the tail (notifier, context) before the next cycle
      for (const [name, t] of current.seen) offsets.set(name, [...(offsets.get(name) ?? []), t]);
      current = null;
    }
    // The cycles' tails (context, notifier, the outbox marks) belong to them.
    await quiesce(stack.nc);
    const split = await cpu.stop(cycles);
    if (profiler) {
      const { profile } = (await inspectorPost(profiler, 'Profiler.stop')) as { profile: unknown };
      writeFileSync(process.env.SOLO_PROFILE!, JSON.stringify(profile));
      profiler.disconnect();
    }
    const rows = [...offsets]
      .filter(([, ts]) => ts.length >= cycles / 2)
      .map(([name, ts]) => ({ name, p50: median(ts), n: ts.length, per: (counts.get(name) ?? 0) / cycles }))
      .sort((a, b) => a.p50 - b.p50);
    console.log(
      `one answer at a time, ${cycles} cycles; request → gate.resumed p50 ${median(totals).toFixed(2)} ms`,
    );
    console.log(
      `CPU per answer → resume, its tail included: Node ${split.node.toFixed(2)} ms (the load's waits too), ` +
        `PostgreSQL ${split.postgres.toFixed(2)} ms, nats-server ${split.nats.toFixed(2)} ms`,
    );
    console.log(
      '| hop | p50 offset ms (first of its kind) | cycles it was seen in | messages of its kind per cycle |',
    );
    console.log('|---|---:|---:|---:|');
    for (const r of rows) console.log(`| ${r.name} | ${r.p50.toFixed(2)} | ${r.n} | ${r.per.toFixed(1)} |`);
    // Every cycle's deliveries, park included, once the services' tails are done.
    await quiesce(stack.nc);
    const delivered = [...(await deliveriesByDurable(stack.nc))]
      .map(([durable, n]) => ({ durable, per: (n - (delivered0.get(durable) ?? 0)) / cycles }))
      .filter((d) => d.per > 0)
      .sort((a, b) => b.per - a.per);
    const all = delivered.reduce((n, d) => n + d.per, 0);
    console.log(`\nJetStream deliveries per cycle (park + answer + resume): ${all.toFixed(2)}`);
    console.log('| durable | deliveries per cycle |');
    console.log('|---|---:|');
    for (const d of delivered) console.log(`| ${d.durable} | ${d.per.toFixed(2)} |`);
  } finally {
    sub.unsubscribe();
    await spy.close();
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
