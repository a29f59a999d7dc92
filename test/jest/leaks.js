// What a test suite leaves behind: processes and databases. Used by the suites' environment
// (test/jest/environment.js, after each suite) and by the global teardown (after the run).
// A suite is tagged OPENQ_TEST_SUITE=<run><n>: every process it spawns inherits the tag in its
// environment and every database it creates (libs/testing createTestDatabase) carries it in its name.
const { readdirSync, readFileSync } = require('node:fs');
const { Client } = require('pg');

const BASE_URL =
  process.env.OPENQ_TEST_DATABASE_URL ??
  process.env.DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

function readProc(pid, file) {
  try {
    return readFileSync(`/proc/${pid}/${file}`);
  } catch {
    return null;
  }
}

/** Live processes (not zombies) with their parent, command line and environment. */
function processes() {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readProc(name, 'stat');
    if (!stat) continue;
    const fields = stat
      .toString()
      .slice(stat.toString().lastIndexOf(')') + 2)
      .split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') continue;
    const environ = readProc(name, 'environ');
    out.push({
      pid: Number(name),
      ppid: Number(fields[1]),
      cmd: (readProc(name, 'cmdline') ?? Buffer.alloc(0))
        .toString()
        .split('\0')
        .join(' ')
        .trim()
        .slice(0, 160),
      env: environ ? environ.toString().split('\0') : [],
    });
  }
  return out;
}

/** Processes tagged with `tag` (OPENQ_TEST_SUITE or OPENQ_TEST_RUN prefix), or descended from `root`. */
function strayProcesses({ tag, root, before = new Set() }) {
  const all = processes().filter((p) => !before.has(p.pid));
  const byParent = new Map();
  for (const p of all) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const found = new Map();
  if (root) {
    const stack = [...(byParent.get(root) ?? [])];
    while (stack.length) {
      const p = stack.pop();
      found.set(p.pid, p);
      stack.push(...(byParent.get(p.pid) ?? []));
    }
  }
  if (tag)
    for (const p of all)
      if (p.pid !== process.pid && p.env.some((e) => e.startsWith(`OPENQ_TEST_SUITE=${tag}`)))
        found.set(p.pid, p);
  return [...found.values()];
}

/** Databases whose name carries `tag` (see libs/testing createTestDatabase). */
async function strayDatabases(tag) {
  const client = new Client({ connectionString: BASE_URL, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT datname FROM pg_database WHERE position($1 in datname) > 0 ORDER BY datname`,
      [`_${tag}`],
    );
    return rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}

async function dropDatabases(names) {
  const client = new Client({ connectionString: BASE_URL, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    for (const name of names)
      await client
        .query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`)
        .catch(() => undefined);
  } finally {
    await client.end();
  }
}

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits up to `graceMs` for the suite's processes to go (a process killed a moment ago may still be
 * exiting), then kills what is left and drops leftover databases. Returns what it found.
 */
async function collectLeaks({ tag, root, before, graceMs = 5_000 }) {
  const deadline = Date.now() + graceMs;
  let procs = strayProcesses({ tag, root, before });
  while (procs.length && Date.now() < deadline) {
    await pause(100);
    procs = strayProcesses({ tag, root, before });
  }
  for (const p of procs) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  }
  const databases = await strayDatabases(tag);
  if (databases.length) await dropDatabases(databases);
  return { processes: procs.map((p) => `${p.pid} ${p.cmd}`), databases };
}

function describeLeaks(where, { processes: procs, databases }) {
  if (!procs.length && !databases.length) return null;
  return [
    `${where} left behind (now stopped and dropped):`,
    ...procs.map((p) => `  process ${p}`),
    ...databases.map((d) => `  database ${d}`),
  ].join('\n');
}

/** The pids alive now (a suite's leftovers are the processes that were not there when it began). */
const livePids = () => new Set(processes().map((p) => p.pid));

module.exports = { collectLeaks, describeLeaks, livePids };
