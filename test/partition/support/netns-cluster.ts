import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { natsConf } from '../../../deploy/manifests';
import { natsServerBinary, waitFor } from '@openq/testing';

/*
 * A 3-node NATS JetStream cluster of the checked-in deploy/k8s nats.conf, each server in a network
 * namespace of its own, joined by veth pairs to a bridge on the host. Every server listens on the
 * same ports as in production (4222 clients, 6222 routes, 8222 monitoring) on its own address.
 *
 * Addresses (one /24 per run, 10.77.<octet>.0): the bridge is .1 (the host side), server i is
 * .1i on the routes. Each client of the test — every service replica, and the test itself — gets
 * a "slot" s (0..9): it reaches server i at .1si, an address that only it uses. So the faults are
 * routes the kernel already has:
 *
 * - partition(i): blackhole routes, inside the namespaces, between server i's route address and
 *   the others' — the routes of the cluster break, clients still reach every server;
 * - isolateSlot(s): blackhole routes on the host to slot s's three addresses — that one client
 *   loses the broker (its packets vanish, as in a real partition), while PostgreSQL on the host
 *   and everything else stay reachable;
 * - pause(i) / resume(i): SIGSTOP / SIGCONT of the server's process;
 * - kill(i) / start(i): SIGKILL, and a new process on the same store.
 *
 * Everything is made by `create` and removed by `destroy` (idempotent: afterAll calls it whatever
 * happened). Needs root, iproute2 and nats-server.
 */

export const SIZE = 3;
export const SLOTS = 10;

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function ipQuiet(...args: string[]): void {
  try {
    ip(...args);
  } catch {
    // already gone
  }
}

export interface NatsNode {
  index: number;
  name: string;
  ns: string;
  /** The address its routes use. */
  address: string;
  process: ChildProcess | null;
  storeDir: string;
  log: WriteStream;
}

/** The names a run with this id uses (namespaces, bridge, veths), for its cleanup and for a stale run's. */
function names(id: string) {
  return {
    bridge: `oqp${id}b`,
    ns: (i: number) => `oqp${id}n${i}`,
    veth: (i: number) => `oqp${id}v${i}`,
  };
}

/** Namespaces and links of earlier runs whose process is gone (a run killed before its afterAll). */
function removeStale(): string[] {
  const removed: string[] = [];
  const alive = (pid: string) => {
    try {
      process.kill(Number(pid), 0);
      return true;
    } catch {
      return false;
    }
  };
  for (const line of ip('netns', 'list').split('\n')) {
    const m = /^oqp(\d+)n\d\b/.exec(line);
    if (!m || alive(m[1]!)) continue;
    const ns = line.split(' ')[0]!;
    for (const pid of ip('netns', 'pids', ns).split('\n').filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone
      }
    }
    ipQuiet('netns', 'del', ns);
    removed.push(ns);
  }
  for (const line of ip('-o', 'link', 'show').split('\n')) {
    const m = /^\d+: (oqp(\d+)[bv]\d?)[@:]/.exec(line);
    if (!m || alive(m[2]!)) continue;
    ipQuiet('link', 'del', m[1]!);
    removed.push(m[1]!);
  }
  return removed;
}

export class NetnsCluster {
  readonly nodes: NatsNode[] = [];
  private readonly n: ReturnType<typeof names>;
  private readonly prefix: string;
  /** Routes the faults added, as `ip` arguments to delete them, so that destroy removes any left. */
  private readonly faults = new Map<string, string[][]>();
  private made = { bridge: false, ns: new Set<string>() };
  readonly staleRemoved: string[];

  private constructor(
    readonly id: string,
    private readonly dir: string,
  ) {
    this.n = names(id);
    this.prefix = `10.77.${20 + (Number(id) % 200)}`;
    this.staleRemoved = removeStale();
  }

  /** Makes the bridge, the namespaces and the cluster; on failure removes what it made and rethrows. */
  static async create(dir: string): Promise<NetnsCluster> {
    const cluster = new NetnsCluster(String(process.pid), dir);
    try {
      cluster.makeNetwork();
      for (const node of cluster.nodes) cluster.start(node.index);
      await Promise.all(cluster.nodes.map((node) => cluster.waitHealthy(node.index)));
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
    return cluster;
  }

  private makeNetwork(): void {
    const { bridge } = this.n;
    ip('link', 'add', bridge, 'type', 'bridge');
    this.made.bridge = true;
    ip('addr', 'add', `${this.prefix}.1/24`, 'dev', bridge);
    ip('link', 'set', bridge, 'up');
    for (let i = 0; i < SIZE; i++) {
      const ns = this.n.ns(i);
      ip('netns', 'add', ns);
      this.made.ns.add(ns);
      ip('link', 'add', this.n.veth(i), 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns);
      ip('link', 'set', this.n.veth(i), 'master', bridge, 'up');
      ip('-n', ns, 'addr', 'add', `${this.routeAddress(i)}/24`, 'dev', 'eth0');
      for (let s = 0; s < SLOTS; s++)
        ip('-n', ns, 'addr', 'add', `${this.slotAddress(s, i)}/24`, 'dev', 'eth0');
      ip('-n', ns, 'link', 'set', 'lo', 'up');
      ip('-n', ns, 'link', 'set', 'eth0', 'up');
      const storeDir = join(this.dir, `nats-${i}`);
      mkdirSync(storeDir, { recursive: true });
      this.nodes.push({
        index: i,
        name: `nats-${i}`,
        ns,
        address: this.routeAddress(i),
        process: null,
        storeDir,
        log: createWriteStream(join(this.dir, `nats-${i}.log`), { flags: 'a' }),
      });
    }
  }

  routeAddress(i: number): string {
    return `${this.prefix}.${10 + i}`;
  }

  slotAddress(slot: number, i: number): string {
    return `${this.prefix}.${100 + 10 * slot + i}`;
  }

  /** NATS_URL of a slot: the three servers at that slot's own addresses. */
  url(slot: number): string {
    return this.nodes.map((n) => `nats://${this.slotAddress(slot, n.index)}:4222`).join(',');
  }

  monitor(i: number, path: string): string {
    return `http://${this.routeAddress(i)}:8222${path}`;
  }

  /** The deploy/k8s nats.conf with the store, the pid file and the routes of this network. */
  private conf(node: NatsNode): string {
    const edits: [RegExp, string | ((...m: string[]) => string)][] = [
      [/server_name: \$SERVER_NAME/, `server_name: ${node.name}`],
      [
        /nats-route:\/\/nats-(\d)\.nats-headless:6222/g,
        (_m, i) => `nats-route://${this.routeAddress(Number(i))}:6222`,
      ],
      [/store_dir: \S+/, `store_dir: ${node.storeDir}`],
      [/pid_file: \S+/, `pid_file: ${join(this.dir, `${node.name}.pid`)}`],
    ];
    return edits.reduce((conf, [pattern, replacement]) => {
      // Every edit must apply: otherwise this test would quietly run a configuration of its own.
      if (!pattern.test(conf)) throw new Error(`nats.conf no longer has ${pattern}`);
      pattern.lastIndex = 0;
      return conf.replace(pattern, replacement as string);
    }, natsConf());
  }

  /** Starts server i inside its namespace (`ip netns exec` execs, so the pid is the server's). */
  start(i: number): void {
    const node = this.nodes[i]!;
    if (node.process && node.process.exitCode === null && node.process.signalCode === null)
      throw new Error(`${node.name} is running`);
    const file = join(this.dir, `${node.name}.conf`);
    writeFileSync(file, this.conf(node));
    const child = spawn('ip', ['netns', 'exec', node.ns, natsServerBinary(), '-c', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pipe(node.log, { end: false });
    child.stderr!.pipe(node.log, { end: false });
    node.process = child;
  }

  async waitHealthy(i: number, timeoutMs = 60_000): Promise<void> {
    await waitFor(
      async () => {
        const res = await fetch(this.monitor(i, '/healthz?js-enabled-only=true'), {
          signal: AbortSignal.timeout(2000),
        }).catch(() => null);
        return res?.status === 200;
      },
      { timeoutMs, intervalMs: 100, what: `nats-${i} JetStream healthy` },
    );
  }

  alive(i: number): boolean {
    const p = this.nodes[i]?.process;
    return !!p && p.exitCode === null && p.signalCode === null;
  }

  async kill(i: number): Promise<void> {
    const node = this.nodes[i]!;
    const child = node.process;
    if (!child || !this.alive(i)) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGCONT'); // a paused server dies on SIGKILL too, but its exit is reported sooner
    child.kill('SIGKILL');
    await exited;
  }

  pause(i: number): void {
    this.nodes[i]!.process?.kill('SIGSTOP');
  }

  resume(i: number): void {
    this.nodes[i]!.process?.kill('SIGCONT');
  }

  private addRoutes(key: string, routes: string[][]): void {
    if (this.faults.has(key)) throw new Error(`fault ${key} is already in place`);
    const added: string[][] = [];
    this.faults.set(key, added);
    for (const r of routes) {
      ip(...r.slice(0, r.indexOf('route') + 1), 'add', ...r.slice(r.indexOf('route') + 1));
      added.push(r);
    }
  }

  private removeRoutes(key: string): void {
    for (const r of this.faults.get(key) ?? [])
      ipQuiet(...r.slice(0, r.indexOf('route') + 1), 'del', ...r.slice(r.indexOf('route') + 1));
    this.faults.delete(key);
  }

  /** Cuts server i's routes to the other two (both ways); its clients still reach it. */
  partition(i: number): void {
    const routes: string[][] = [];
    for (const other of this.nodes.filter((n) => n.index !== i)) {
      routes.push(['-n', this.nodes[i]!.ns, 'route', 'blackhole', `${other.address}/32`]);
      routes.push(['-n', other.ns, 'route', 'blackhole', `${this.routeAddress(i)}/32`]);
    }
    this.addRoutes(`partition ${i}`, routes);
  }

  healPartition(i: number): void {
    this.removeRoutes(`partition ${i}`);
  }

  /** The client of `slot` loses every server: its packets to them are dropped on the host. */
  isolateSlot(slot: number): void {
    this.addRoutes(
      `slot ${slot}`,
      this.nodes.map((n) => ['route', 'blackhole', `${this.slotAddress(slot, n.index)}/32`]),
    );
  }

  healSlot(slot: number): void {
    this.removeRoutes(`slot ${slot}`);
  }

  /** Namespaces and links of this run that still exist (empty after destroy). */
  leftovers(): string[] {
    const left: string[] = [];
    const namespaces = ip('netns', 'list');
    for (let i = 0; i < SIZE; i++) if (namespaces.includes(this.n.ns(i))) left.push(this.n.ns(i));
    const links = ip('-o', 'link', 'show');
    for (const name of [this.n.bridge, ...Array.from({ length: SIZE }, (_, i) => this.n.veth(i))])
      if (links.includes(` ${name}@`) || links.includes(` ${name}:`)) left.push(name);
    return left;
  }

  /** Kills every server, removes the fault routes, the namespaces (their veths go with them) and the bridge. */
  async destroy(): Promise<void> {
    for (const key of [...this.faults.keys()]) this.removeRoutes(key);
    await Promise.all(this.nodes.map((n) => this.kill(n.index)));
    for (const node of this.nodes) await new Promise((r) => node.log.end(r));
    for (const ns of this.made.ns) {
      // Anything else still in the namespace (nothing should be) goes with it.
      for (const pid of (() => {
        try {
          return ip('netns', 'pids', ns).split('\n').filter(Boolean);
        } catch {
          return [];
        }
      })())
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // gone
        }
      ipQuiet('netns', 'del', ns);
    }
    this.made.ns.clear();
    for (let i = 0; i < SIZE; i++) ipQuiet('link', 'del', this.n.veth(i));
    if (this.made.bridge) ipQuiet('link', 'del', this.n.bridge);
    this.made.bridge = false;
    // Deleting a namespace removes its veth peer asynchronously: wait until the kernel is done.
    await waitFor(() => this.leftovers().length === 0, {
      timeoutMs: 10_000,
      intervalMs: 100,
      what: 'namespaces and links removed',
    }).catch(() => undefined);
  }
}
