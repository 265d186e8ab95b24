/** `npm run test:faults`: each scenario runs its own servers and kills parts of them. */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  roots: ['<rootDir>/test/faults'],
  testMatch: ['**/*.test.ts'],
  globalSetup: '<rootDir>/test/faults/global-setup.ts',
  testTimeout: 20 * 60_000,
  maxWorkers: 1,
};
