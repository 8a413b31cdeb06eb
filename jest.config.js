/**
 * Projects: `unit` (the pure domain and `*.unit.test.ts`: no PostgreSQL, no Kafka, seconds), `integration` (everything under
 * test/, against real PostgreSQL and, for the Kafka path, a real broker), and three that `pnpm test` runs afterwards one
 * suite at a time: `loop` (suites that time the event loop), `carga` (suites that load the machine) and `browser`.
 * `pnpm test:unit` runs the first alone.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript' },
      target: 'es2022',
    },
    module: { type: 'commonjs', ignoreDynamic: true },
    sourceMaps: 'inline',
  },
];
// The panel's pages (services/console) are TSX rendered by preact: parsed as TSX only there, since a .ts file's
// generic arrow functions would read as tags.
const swcTsx = [
  '@swc/jest',
  {
    ...swc[1],
    jsc: {
      ...swc[1].jsc,
      parser: { ...swc[1].jsc.parser, tsx: true },
      transform: { react: { runtime: 'automatic', importSource: 'preact' } },
    },
  },
];
// The OTLP exporter loads `http` with import() from CommonJS, which jest's module sandbox refuses (without
// --experimental-vm-modules): that one package is compiled to require() like the sources.
const swcDynamicImport = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs', ignoreDynamic: false } },
];
const mapped = {
  contracts: 'contracts',
  domain: 'domain',
  projections: 'projections',
  platform: 'services/platform',
  documents: 'services/documents',
  adapters: 'services/adapters',
  application: 'services/application',
  api: 'services/api',
  console: 'services/console',
  'emission-processor': 'services/emission-processor',
  'payout-processor': 'services/payout-processor',
  'webhooks-processor': 'services/webhooks-processor',
  'distribuicao-processor': 'services/distribuicao-processor',
  ops: 'services/ops',
  server: 'services/server',
  authority: 'services/authority',
};
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc, '^.+\\.tsx$': swcTsx, '/@opentelemetry/otlp-exporter-base/.+\\.cjs$': swcDynamicImport },
  transformIgnorePatterns: ['/node_modules/(?!.*@opentelemetry/otlp-exporter-base/)'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleNameMapper: Object.fromEntries(Object.entries(mapped).map(([name, dir]) => [`^@frete/${name}$`, `<rootDir>/${dir}/src`])),
};
module.exports = {
  projects: [
    // Pure tests beside the integration suites are named `*.unit.test.ts`: they need no database and run here.
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/domain/test/**/*.test.ts', '<rootDir>/test/**/*.unit.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: [
        ...common.testPathIgnorePatterns,
        '\\.unit\\.test\\.ts$',
        '\\.browser\\.test\\.ts$',
        '\\.carga\\.test\\.ts$',
        '\\.loop\\.test\\.ts$',
      ],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    // Suites that time the event loop (`*.loop.test.ts`: hostile inputs, PKCS#12, document readers): `pnpm test` runs
    // them one at a time after the integration suites, since a full run's other worker (and the broker, and PostgreSQL)
    // stalled this process past the 200 ms bound although the same requests held the loop for a few ms alone.
    {
      ...common,
      displayName: 'loop',
      testMatch: ['<rootDir>/test/**/*.loop.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    // Suites that load the machine on purpose (`*.carga.test.ts`: hundreds of races under running batches): `pnpm test`
    // runs them after the integration suites, one at a time, for the same reason as the browser's.
    {
      ...common,
      displayName: 'carga',
      testMatch: ['<rootDir>/test/**/*.carga.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    // The panel in Chromium (`*.browser.test.ts`): `pnpm test` runs them after the rest, one at a time, so that a
    // browser's processes never share the two cores with the suites that time the event loop.
    {
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/**/*.browser.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  maxWorkers: 2,
  // Jest takes the timeout from the top level only. Hooks start a whole service (migrations, processors, a
  // certificate): on a busy 2-core machine 30 s came too close.
  testTimeout: 90_000,
};
