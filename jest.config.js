/** Every suite runs against real PostgreSQL (embedded, or TEST_DATABASE_URL) and, for the Kafka path, a real broker. */
const swc = ['@swc/jest', {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs', ignoreDynamic: true },
  sourceMaps: 'inline',
}];
const mapped = {
  contracts: 'contracts', domain: 'domain', projections: 'projections',
  platform: 'services/platform', api: 'services/api', 'emission-processor': 'services/emission-processor',
  'payout-processor': 'services/payout-processor', ops: 'services/ops', server: 'services/server',
};
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/**/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleNameMapper: Object.fromEntries(
    Object.entries(mapped).map(([name, dir]) => [`^@frete/${name}$`, `<rootDir>/${dir}/src`]),
  ),
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFiles: ['reflect-metadata'],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  maxWorkers: 2,
  testTimeout: 30000,
};
