// The test environment of the integration and end-to-end projects: jest's node environment plus a
// leak check. Each suite gets a tag (OPENQ_TEST_SUITE); after the suite — its afterAll hooks done —
// any process it spawned that is still alive and any database it created that still exists fail
// the suite, naming them (then they are killed and dropped so the run goes on clean).
const { randomBytes } = require('node:crypto');
const { relative } = require('node:path');
const { TestEnvironment } = require('jest-environment-node');
const { collectLeaks, describeLeaks, livePids } = require('./leaks');

class LeakCheckingEnvironment extends TestEnvironment {
  constructor(config, context) {
    const run = process.env.OPENQ_TEST_RUN ?? 'r0';
    // Set before the sandbox copies process.env: the suite's code and every process it spawns see it.
    process.env.OPENQ_TEST_SUITE = `${run}${randomBytes(3).toString('hex')}`;
    super(config, context);
    this.tag = process.env.OPENQ_TEST_SUITE;
    this.suite = relative(config.projectConfig.rootDir, context.testPath);
    this.before = livePids();
  }

  async teardown() {
    await super.teardown();
    const leaks = await collectLeaks({ tag: this.tag, root: process.pid, before: this.before });
    delete process.env.OPENQ_TEST_SUITE;
    const message = describeLeaks(this.suite, leaks);
    if (message) throw new Error(message);
  }
}

module.exports = LeakCheckingEnvironment;
