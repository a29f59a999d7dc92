import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (utime + stime) of a process, in ms; 0 when it is gone. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11], fields[12] = utime, stime (stat fields 14 and 15), in clock ticks of 10 ms
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** The pid of the nats-server listening on `port` (the bench's private one). */
export function natsServerPid(port: number): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmd[0]?.endsWith('nats-server') && cmd.includes(String(port))) return Number(entry);
    } catch {
      // gone
    }
  }
  return null;
}

/** The PostgreSQL backends serving a database, through any way of querying it. */
export function databaseBackends(
  query: (sql: string) => Promise<{ pid: number }[]>,
): () => Promise<number[]> {
  return async () =>
    (await query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)).map((r) => r.pid);
}

export interface CpuSplit {
  /** CPU ms per event in Node: this process (openq in-process, the load) and any service processes. */
  node: number;
  /** CPU ms per event in the PostgreSQL backends serving the bench's database. */
  postgres: number;
  /** CPU ms per event in the private nats-server. */
  nats: number;
}

/**
 * Where the CPU goes during a measurement: this process, the PostgreSQL backends of the bench's
 * database (found through pg_stat_activity), the private nats-server. Read from /proc at both
 * ends, so it costs nothing while the measurement runs.
 */
export class CpuMeter {
  private constructor(
    private readonly backends: () => Promise<number[]>,
    private readonly natsPid: number | null,
    private readonly node0: NodeJS.CpuUsage,
    private readonly pg0: Map<number, number>,
    private readonly nats0: number,
    private readonly services0: Map<number, number>,
  ) {}

  /**
   * `servicePids`: openq's services when they run as processes of their own (as deployed); their
   * CPU counts as Node's with this process's (the load).
   */
  static async start(
    backends: () => Promise<number[]>,
    natsPort: number,
    servicePids: readonly number[] = [],
  ): Promise<CpuMeter> {
    const natsPid = natsServerPid(natsPort);
    const pg0 = new Map((await backends()).map((pid) => [pid, processCpuMs(pid)]));
    const services0 = new Map(servicePids.map((pid) => [pid, processCpuMs(pid)]));
    return new CpuMeter(
      backends,
      natsPid,
      process.cpuUsage(),
      pg0,
      natsPid ? processCpuMs(natsPid) : 0,
      services0,
    );
  }

  /** CPU per event since start. */
  async stop(events: number): Promise<CpuSplit> {
    const own = process.cpuUsage(this.node0);
    let node = (own.user + own.system) / 1000;
    for (const [pid, ms] of this.services0) node += processCpuMs(pid) - ms;
    let pg = 0;
    for (const pid of await this.backends()) pg += processCpuMs(pid) - (this.pg0.get(pid) ?? 0);
    const nats = this.natsPid ? processCpuMs(this.natsPid) - this.nats0 : Number.NaN;
    return { node: node / events, postgres: pg / events, nats: nats / events };
  }
}
