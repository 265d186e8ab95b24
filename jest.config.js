/**
 * Three jest projects (README, docs/testing.md):
 * - unit: no servers, seconds (`npm run test:unit`);
 * - integration: the real servers that test/support/global-setup.ts starts once (`npm test` runs unit and this);
 * - faults: each scenario starts its own servers and kills parts of them (`npm run test:faults`, one at a time);
 * - cluster: each file starts the production-shaped cluster (src/cluster/) and races or kills its parts
 *   (`npm run test:cluster`, one at a time).
 */
// raw-body 4 ships ES modules only: Node requires them as they are (require(esm), Node 22.12 and later),
// jest's own module loader only with --experimental-vm-modules, so swc makes it CommonJS for the tests.
const ESM_ONLY = ['raw-body'];
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'], [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: ['@swc/jest'] },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  testMatch: ['**/*.test.ts'],
};

module.exports = {
  // The default for integration; the fault scenarios get 20 minutes from `npm run test:faults`.
  testTimeout: 300_000,
  maxWorkers: 2,
  // The CSV at scale runs last, not beside other files on the shared dev server (test/support/sequencer.js).
  testSequencer: '<rootDir>/test/support/sequencer.js',
  projects: [
    { ...shared, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
    {
      ...shared,
      displayName: 'integration',
      roots: ['<rootDir>/test'],
      testPathIgnorePatterns: ['/node_modules/', '/test/unit/', '/test/faults/', '/test/cluster/'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      ...shared,
      displayName: 'faults',
      roots: ['<rootDir>/test/faults'],
      globalSetup: '<rootDir>/test/faults/global-setup.ts',
    },
    {
      ...shared,
      displayName: 'cluster',
      roots: ['<rootDir>/test/cluster'],
      globalSetup: '<rootDir>/test/cluster/global-setup.ts',
    },
  ],
};
