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
  '^@openq/testing/decider$': '<rootDir>/libs/testing/src/decider.ts',
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
const realServers = {
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
};
module.exports = {
  // testTimeout is global in jest: integration and end-to-end tests wait on real servers.
  testTimeout: 120000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,services,tools,deploy}/**/*.spec.ts'],
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
