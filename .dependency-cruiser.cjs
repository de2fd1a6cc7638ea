/**
 * The house's import rules (README "The house"; STYLE.md section 1), checked by `npm run deps` inside `npm test`.
 * Data flows one way: data-contracts <- platform <- etl | lambdas; tools and tests stand on top and may import
 * anything; infra knows the contract only (handler entry paths are strings, not imports).
 * Reference: https://github.com/sverweij/dependency-cruiser/blob/main/doc/rules-reference.md
 */

/** Where a dependency on a node built-in or an npm package resolves: not code of ours. */
const NOT_OURS = { dependencyTypesNot: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg'] };

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'contract-imports-nothing-of-ours',
      comment: 'data-contracts/ is the contract: it imports nothing of ours outside data-contracts/.',
      severity: 'error',
      from: { path: '^data-contracts/' },
      to: { pathNot: '^data-contracts/', ...NOT_OURS },
    },
    {
      name: 'platform-imports-only-contract',
      comment: 'platform/ (the shared layer below the ETL and the API) imports only data-contracts/ and itself.',
      severity: 'error',
      from: { path: '^platform/' },
      to: { pathNot: '^(platform|data-contracts)/', ...NOT_OURS },
    },
    {
      name: 'platform-binary-imports-nothing-of-ours',
      comment:
        'platform/binary/ (byte sources, block cache, encoding builders, string tables, the binary search, the ' +
        'versioned magic) is the bottom of the platform: every binary format stands on it, so it imports nothing ' +
        'of ours outside itself and knows no format, not even the contract.',
      severity: 'error',
      from: { path: '^platform/binary/' },
      to: { pathNot: '^platform/binary/', ...NOT_OURS },
    },
    {
      name: 'etl-not-api-tools-infra',
      comment: 'etl/ never imports lambdas/, tools/ or infra/: it stands on platform/ and data-contracts/ only.',
      severity: 'error',
      from: { path: '^etl/' },
      to: { path: '^(lambdas|tools|infra|test)/' },
    },
    {
      name: 'api-not-etl-tools-infra',
      comment: 'lambdas/ never imports etl/, tools/ or infra/: it stands on platform/ and data-contracts/ only.',
      severity: 'error',
      from: { path: '^lambdas/' },
      to: { path: '^(etl|tools|infra|test)/' },
    },
    {
      name: 'infra-imports-only-contract',
      comment:
        'infra/ imports only data-contracts/ and its own files: it knows handler entry paths (as strings) and env ' +
        'names, nothing of the code it deploys.',
      severity: 'error',
      from: { path: '^infra/' },
      to: { pathNot: '^(infra|data-contracts)/', ...NOT_OURS },
    },
    {
      name: 'use-cases-not-http-or-handlers',
      comment:
        'lambdas/core, lambdas/query and lambdas/masking never import lambdas/http or lambdas/handlers: ' +
        'use cases know nothing of HTTP or of the entry points.',
      severity: 'error',
      from: { path: '^lambdas/(core|query|masking)/' },
      to: { path: '^lambdas/(http|handlers)/' },
    },
    {
      name: 'use-cases-not-aws-or-web-framework',
      comment:
        'lambdas/core, lambdas/query and lambdas/masking never import the AWS SDK, AWS Lambda types or Hono: ' +
        'clients come in through ports (lambdas/core/ports.ts).',
      severity: 'error',
      from: { path: '^lambdas/(core|query|masking)/' },
      to: { path: 'node_modules/(@aws-sdk/|@types/aws-lambda/|hono/|@hono/)' },
    },
    {
      name: 'only-handlers-import-handlers',
      comment:
        'Inside lambdas/, only lambdas/handlers imports lambdas/handlers: the entries build the runtime, nothing ' +
        'below them reaches up (tools/local and tests may).',
      severity: 'error',
      from: { path: '^lambdas/', pathNot: '^lambdas/handlers/' },
      to: { path: '^lambdas/handlers/' },
    },
    {
      name: 'product-never-imports-tests',
      comment: 'No code outside test/ imports test/ (fixtures are read as files, not imported).',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
    {
      name: 'runtime-code-only-production-dependencies',
      comment:
        'What the ETL and the Lambdas run (data-contracts, platform, etl, lambdas) imports only packages of ' +
        '`dependencies`: the ETL image installs with `npm ci --omit=dev` (etl/Dockerfile). Type-only imports ' +
        'vanish at compile time; data-contracts/generate.ts is a build tool (`npm run contracts:generate`).',
      severity: 'error',
      from: { path: '^(data-contracts|platform|etl|lambdas)/', pathNot: '^data-contracts/generate\\.ts$' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      comment: 'No module depends on itself through a chain of imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves to a file or an installed package.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(cdk\\.out|\\.local|coverage)/' },
    // `import type` counts: a type-only import still couples the layers.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
