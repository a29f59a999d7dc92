// One jest run for the whole workspace. Unit tests (*.spec.ts) need nothing running;
// integration (*.int.spec.ts) and end-to-end (*.e2e.spec.ts) tests talk to the real
// PostgreSQL and a NATS JetStream server of their own (see libs/testing).
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
  },
];
const moduleNameMapper = {
  '^@openq/contracts/testing$': '<rootDir>/libs/contracts/src/testing.ts',
  // Browser-safe modules of the contracts, imported by path (the inbox bundles them).
  '^@openq/contracts/(refusals|vocabulary|browser)$': '<rootDir>/libs/contracts/src/$1.ts',
  // Test kit modules that load heavy packages (Chromium's driver, an SMTP server) are imported by path.
  '^@openq/testing/(.+)$': '<rootDir>/libs/testing/src/$1',
  '^@openq/(contracts|messaging|persistence|platform|testing|agent-sdk)$': '<rootDir>/libs/$1/src',
};
const common = {
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper,
  testEnvironment: 'node',
  rootDir: __dirname,
  // The packed SDK (npm run pack:sdk) has a package.json of the same name as libs/agent-sdk's;
  // .openq/ holds the embedded servers' data of `npm start`.
  modulePathIgnorePatterns: ['<rootDir>/dist/packages/', '<rootDir>/.openq/'],
};
// Tests against real servers: an embedded PostgreSQL when none answers on 127.0.0.1:5432.
// Each of their suites runs in test/jest/environment.js, which fails the suite when a process it
// spawned or a database it created outlives it.
const realServers = {
  globalSetup: '<rootDir>/test/jest/global-setup.js',
  globalTeardown: '<rootDir>/test/jest/global-teardown.js',
  testEnvironment: '<rootDir>/test/jest/environment.js',
};
module.exports = {
  // testTimeout is global in jest: integration and end-to-end tests wait on real servers.
  testTimeout: 120000,
  // Two suites at a time on this 2-core machine (OPENQ_TEST_WORKERS for another), every suite
  // having its own database and nats-server on free ports. A worker that has grown past the
  // limit after a suite is replaced by a fresh one, so nothing accumulates over the run.
  maxWorkers: Number(process.env.OPENQ_TEST_WORKERS ?? 2),
  workerIdleMemoryLimit: '1200MB',
  projects: [
    {
      ...common,
      displayName: 'unit',
      // test/bench: the bench's own code (the bench itself is a command, `npm run bench`).
      testMatch: ['<rootDir>/{libs,services,tools,deploy}/**/*.spec.ts', '<rootDir>/test/bench/**/*.spec.ts'],
      testPathIgnorePatterns: ['\\.int\\.spec\\.ts$', '\\.e2e\\.spec\\.ts$', '/node_modules/', '/dist/'],
    },
    {
      ...common,
      ...realServers,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,services,test,tools,deploy}/**/*.int.spec.ts'],
    },
    {
      ...common,
      ...realServers,
      displayName: 'e2e',
      testMatch: ['<rootDir>/{services,test}/**/*.e2e.spec.ts'],
    },
  ],
};
