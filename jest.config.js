/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(ts|js|mjs)$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  // ESM-only packages used by tests are compiled to CommonJS like our own code.
  transformIgnorePatterns: ['/node_modules/(?!(@seriousme|hono|@hono|d3-geo|d3-array|internmap)/)'],
  // Integration suites start DuckDB, dynalite and s3rver; give them room on a 2-core CI machine.
  testTimeout: 60000,
  maxWorkers: 2,
};
