import { waitFor } from '@openq/testing';
import { SIZE, type NetnsCluster } from './netns-cluster';
import type { Replica } from './replica-stack';

/*
 * The nemesis: one fault at a time, each held until the cluster has visibly reacted to it (a new
 * leader elected on the majority side, say) and at least `minHoldMs`, then healed; the next one
 * starts once the cluster reports itself healthy again. Each fault is recorded with the load's
 * progress when it struck, how long it was held and how long the cluster took to recover.
 */

export interface FaultRecord {
  fault: string;
  target: string;
  /** Load progress when the fault struck (wave number + that wave's progress, 0..1). */
  atProgress: number;
  heldMs: number;
  /** Fault → the majority side had elected a leader elsewhere (when the fault calls for one). */
  failoverMs: number | null;
  /** Heal → every server's /healthz 200 (JetStream current) and the replica ready again. */
  recoverMs: number;
  note: string;
}

interface JszStream {
  name: string;
  cluster?: { leader?: string };
}
interface Jsz {
  meta_cluster?: { leader?: string };
  account_details?: { stream_detail?: JszStream[] }[];
}

async function jsz(cluster: NetnsCluster, i: number): Promise<Jsz | null> {
  const res = await fetch(cluster.monitor(i, '/jsz?accounts=true&streams=true'), {
    signal: AbortSignal.timeout(2000),
  }).catch(() => null);
  if (!res || res.status !== 200) return null;
  return (await res.json()) as Jsz;
}

/** The server leading `stream` as server `asking` sees it (null: it knows none). */
export async function streamLeader(
  cluster: NetnsCluster,
  stream: string,
  asking: number,
): Promise<string | null> {
  const info = await jsz(cluster, asking);
  for (const account of info?.account_details ?? [])
    for (const s of account.stream_detail ?? []) if (s.name === stream) return s.cluster?.leader ?? null;
  return null;
}

export async function metaLeader(cluster: NetnsCluster, asking: number): Promise<string | null> {
  return (await jsz(cluster, asking))?.meta_cluster?.leader ?? null;
}

const indexOf = (name: string) => Number(name.replace('nats-', ''));

/** The leader of `stream`, once every server agrees on one. */
export async function agreedLeader(cluster: NetnsCluster, stream: string): Promise<number> {
  const name = await waitFor(
    async () => {
      const seen = await Promise.all(cluster.nodes.map((n) => streamLeader(cluster, stream, n.index)));
      return seen[0] && seen.every((s) => s === seen[0]) ? seen[0] : null;
    },
    { timeoutMs: 60_000, intervalMs: 200, what: `one leader of ${stream} on every server` },
  );
  return indexOf(name);
}

/** Every server answers /healthz 200: JetStream enabled, the meta group and every stream and consumer current. */
export async function clusterHealthy(cluster: NetnsCluster): Promise<boolean> {
  const statuses = await Promise.all(
    cluster.nodes.map(async (n) => {
      const res = await fetch(cluster.monitor(n.index, '/healthz'), {
        signal: AbortSignal.timeout(2000),
      }).catch(() => null);
      return res?.status ?? 0;
    }),
  );
  return statuses.every((s) => s === 200);
}

export class Nemesis {
  readonly records: FaultRecord[] = [];

  constructor(
    private readonly cluster: NetnsCluster,
    private readonly progress: () => number,
    private readonly minHoldMs: number,
  ) {}

  private log(text: string): void {
    if (process.env.FAULTS_VERBOSE) process.stderr.write(`[nemesis] ${text}\n`);
  }

  /** Injects, holds until `reacted` (and minHoldMs), heals, waits for `recovered`; records it all. */
  private async fault(
    fault: string,
    target: string,
    steps: {
      inject: () => void | Promise<void>;
      reacted?: () => Promise<boolean>;
      heal: () => void | Promise<void>;
      recovered?: () => Promise<boolean>;
      note?: () => string;
      /** At least this long (default: the nemesis's minHoldMs). */
      holdMs?: number;
    },
  ): Promise<void> {
    const atProgress = this.progress();
    const struck = Date.now();
    this.log(`${fault} ${target} at progress ${atProgress.toFixed(3)}`);
    await steps.inject();
    let failoverMs: number | null = null;
    if (steps.reacted) {
      await waitFor(steps.reacted, {
        timeoutMs: 60_000,
        intervalMs: 100,
        what: `${fault} ${target}: reaction`,
      });
      failoverMs = Date.now() - struck;
    }
    const hold = steps.holdMs ?? this.minHoldMs;
    const holdUntil = struck + hold;
    await waitFor(() => Date.now() >= holdUntil, { timeoutMs: hold + 1000, intervalMs: 50 });
    const healed = Date.now();
    await steps.heal();
    await waitFor(
      async () => (await clusterHealthy(this.cluster)) && (steps.recovered ? await steps.recovered() : true),
      { timeoutMs: 180_000, intervalMs: 250, what: `${fault} ${target}: recovered` },
    );
    const record = {
      fault,
      target,
      atProgress: Math.round(atProgress * 1000) / 1000,
      heldMs: healed - struck,
      failoverMs,
      recoverMs: Date.now() - healed,
      note: steps.note?.() ?? '',
    };
    this.log(JSON.stringify(record));
    this.records.push(record);
  }

  /** Cuts the leader of `stream` off from the other two servers; heals once they elected another. */
  async partitionLeader(stream: string): Promise<void> {
    const leader = await agreedLeader(this.cluster, stream);
    const majority = this.cluster.nodes.filter((n) => n.index !== leader).map((n) => n.index);
    let elected = '';
    await this.fault('partition stream leader from the majority', `${stream} leader nats-${leader}`, {
      inject: () => this.cluster.partition(leader),
      reacted: async () => {
        const seen = await Promise.all(majority.map((i) => streamLeader(this.cluster, stream, i)));
        const other = seen.find((s) => s && s !== `nats-${leader}`);
        if (other && seen.every((s) => s === other)) elected = other;
        return !!elected;
      },
      heal: () => this.cluster.healPartition(leader),
      note: () => `majority elected ${elected}`,
    });
  }

  /** Drops every packet between one replica and the broker, PostgreSQL still reachable. */
  async isolateReplica(replica: Replica): Promise<void> {
    await this.fault('isolate a service replica from the broker', replica.label, {
      inject: () => this.cluster.isolateSlot(replica.slot),
      heal: () => this.cluster.healSlot(replica.slot),
      recovered: async () => (await replica.proc.status('/readyz')) === 200,
    });
  }

  /** SIGSTOPs the server leading `stream` until the other two elected another leader; SIGCONT. */
  async pauseLeader(stream: string): Promise<void> {
    const leader = await agreedLeader(this.cluster, stream);
    const majority = this.cluster.nodes.filter((n) => n.index !== leader).map((n) => n.index);
    let elected = '';
    await this.fault('pause a server past its heartbeats (SIGSTOP)', `${stream} leader nats-${leader}`, {
      inject: () => this.cluster.pause(leader),
      reacted: async () => {
        const seen = await Promise.all(majority.map((i) => streamLeader(this.cluster, stream, i)));
        const other = seen.find((s) => s && s !== `nats-${leader}`);
        if (other && seen.every((s) => s === other)) elected = other;
        return !!elected;
      },
      heal: () => this.cluster.resume(leader),
      note: () => `majority elected ${elected}`,
    });
  }

  /**
   * SIGSTOPs a server that leads neither stream (a follower of both, as far as the cluster has
   * one) for `holdMs`, past its Raft heartbeats, then SIGCONT. (`pauseLeader` pauses a leader: on
   * nats-server 2.9.10 that is what makes replicas diverge; docs/reliability.md.)
   */
  async pauseFollower(streams: string[], holdMs: number): Promise<void> {
    const leaders = await Promise.all(streams.map((s) => agreedLeader(this.cluster, s)));
    const follower =
      this.cluster.nodes.find((n) => !leaders.includes(n.index))?.index ?? (leaders[0]! + 1) % SIZE;
    await this.fault('pause a server past its heartbeats (SIGSTOP)', `follower nats-${follower}`, {
      inject: () => this.cluster.pause(follower),
      holdMs,
      heal: () => this.cluster.resume(follower),
      note: () => `leaders ${leaders.map((l) => `nats-${l}`).join(', ')} kept`,
    });
  }

  /** SIGKILLs the meta leader; starts it again (same store) once the other two have a new one. */
  async killMetaLeader(): Promise<void> {
    const name = await waitFor(() => metaLeader(this.cluster, 0), { timeoutMs: 30_000, what: 'meta leader' });
    const leader = indexOf(name);
    const others = Array.from({ length: SIZE }, (_, i) => i).filter((i) => i !== leader);
    let elected = '';
    await this.fault('kill a server (SIGKILL) and restart it', `meta leader nats-${leader}`, {
      inject: () => this.cluster.kill(leader),
      reacted: async () => {
        const seen = await Promise.all(others.map((i) => metaLeader(this.cluster, i)));
        if (seen[0] && seen[0] !== name && seen.every((s) => s === seen[0])) elected = seen[0];
        return !!elected;
      },
      heal: async () => {
        this.cluster.start(leader);
        await this.cluster.waitHealthy(leader);
      },
      note: () => `meta leader now ${elected}`,
    });
  }

  /** SIGKILLs one service replica and starts it again at once (on the same port). */
  async killReplica(replica: Replica): Promise<void> {
    await this.fault('kill a service replica (SIGKILL) and restart it', replica.label, {
      inject: () => replica.proc.kill('SIGKILL'),
      heal: () => replica.proc.start(),
    });
  }

  summary(): Record<string, string | number>[] {
    return this.records.map((r) => ({
      fault: r.fault,
      target: r.target,
      at: r.atProgress.toFixed(2),
      'held ms': r.heldMs,
      'failover ms': r.failoverMs ?? '',
      'recover ms': r.recoverMs,
      note: r.note,
    }));
  }
}
