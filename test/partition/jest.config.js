// `npm run test:partition`: the partition nemesis (test/partition/*.nemesis.spec.ts) alone, with the
// end-to-end project's settings (real servers, the suite leak check). It is not part of `npm test`:
// it needs root (network namespaces) and takes minutes of both cores (docs/reliability.md).
const root = require('../../jest.config.js');

const e2e = root.projects.find((p) => p.displayName === 'e2e');

module.exports = {
  testTimeout: root.testTimeout,
  maxWorkers: 1,
  projects: [
    {
      ...e2e,
      displayName: 'partition',
      testMatch: ['<rootDir>/test/partition/**/*.nemesis.spec.ts'],
    },
  ],
};
