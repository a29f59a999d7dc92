// After the whole run: stops the embedded PostgreSQL that global-setup.js started, if it started one,
// and fails the run if anything of this run (OPENQ_TEST_RUN) is still alive or still exists —
// a process or a database that outlived every suite's own check.
const { collectLeaks, describeLeaks } = require('./leaks');

module.exports = async () => {
  const run = process.env.OPENQ_TEST_RUN;
  let message = null;
  if (run && !globalThis.__openqLeaksChecked) {
    globalThis.__openqLeaksChecked = true; // both projects run this file
    message = describeLeaks(`the test run ${run}`, await collectLeaks({ tag: run, graceMs: 10_000 }));
  }
  const stop = globalThis.__openqTestPostgresStop;
  if (stop) {
    globalThis.__openqTestPostgresStop = undefined;
    await stop();
  }
  if (message) throw new Error(message);
};
