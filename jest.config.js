/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(ts|js|mjs)$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] },
  // ESM-only packages (Hono, the map's d3-geo, the browser tests' puppeteer-core) are compiled to CommonJS like our
  // own code. @sparticuz/chromium reads import.meta, so the browser harness runs it in a child process instead.
  transformIgnorePatterns: [
    '/node_modules/(?!(@seriousme|hono|@hono|d3-geo|d3-array|internmap|puppeteer-core|@puppeteer|chromium-bidi)/)',
  ],
  // Integration suites start DuckDB, dynalite and s3rver; give them room on a 2-core CI machine.
  testTimeout: 60000,
  maxWorkers: 2,
};
