/**
 * The house's import rules (docs/architecture.md says why; CONTRIBUTING.md the conventions), checked by
 * `npm run deps` inside `npm test`.
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
    // The rooms of etl/ (etl/README.md): files are read by csv/ and sources/, normalised by transforms/, written by
    // writers/; steps/ (the build as named steps) is the one place that takes rows from the one to the other.
    {
      name: 'etl-writers-not-sources',
      comment:
        'etl/writers/ never imports sources/ (nor changes/, which reads the staged NPPES rows, or steps/ and the ' +
        'entries): a writer takes the rows or values it is given, so that a file format never depends on where ' +
        'its rows come from. A shape both sides need lives in transforms/.',
      severity: 'error',
      from: { path: '^etl/writers/' },
      to: { path: '^etl/(sources|changes|steps|cli|handlers)/' },
    },
    {
      name: 'etl-only-steps-reach-writers',
      comment:
        'Only etl/steps/, the writers themselves and the two jobs (build.ts, rebuild-static.ts: the public static ' +
        'objects) import etl/writers/: with etl-jobs-not-sources, steps/ is the only place that calls both a ' +
        'source and a writer, so the flow reads sources -> transforms -> writers in one place.',
      severity: 'error',
      from: { path: '^etl/', pathNot: '^etl/(steps|writers)/|^etl/(build|rebuild-static)\\.ts$' },
      to: { path: '^etl/writers/' },
    },
    {
      name: 'etl-jobs-not-sources',
      comment:
        'The jobs (etl/build.ts, etl/rebuild-static.ts) run steps and never read a source themselves: a source ' +
        'is read by a step.',
      severity: 'error',
      from: { path: '^etl/(build|rebuild-static)\\.ts$' },
      to: { path: '^etl/sources/' },
    },
    {
      name: 'etl-sources-read-only',
      comment:
        'etl/sources/ reads source files into rows and tables: it never imports a writer, a step, changes/, pages/ ' +
        'or an entry point, so that a reader can be tested (and reused) without the build around it.',
      severity: 'error',
      from: { path: '^etl/sources/' },
      to: { path: '^etl/(writers|steps|changes|pages|cli|handlers)/' },
    },
    {
      name: 'etl-csv-transforms-are-the-floor',
      comment:
        'etl/csv/ (the line pass, reading, scanning, the rows set aside) and etl/transforms/ (pure parsing and ' +
        'normalising) stand under everything else of the wing: they import no source, writer, step or entry.',
      severity: 'error',
      from: { path: '^etl/(csv|transforms)/' },
      to: { path: '^etl/(sources|writers|steps|changes|pages|cli|handlers)/' },
    },
    {
      name: 'etl-changes-not-steps-or-writers',
      comment:
        'etl/changes/ computes the change feed in DuckDB; its step (steps/compute-changes.ts) hands the result to ' +
        'writers/changes.ts: changes/ imports no step, writer or entry.',
      severity: 'error',
      from: { path: '^etl/changes/' },
      to: { path: '^etl/(writers|steps|pages|cli|handlers)/' },
    },
    {
      name: 'etl-pages-only-pages',
      comment:
        'etl/pages/ renders HTML from the values it is given (the coverage figures): it imports nothing of etl/ ' +
        'outside pages/, steps least of all, so that a page is the same bytes for the same figures.',
      severity: 'error',
      from: { path: '^etl/pages/' },
      to: { path: '^etl/', pathNot: '^etl/pages/' },
    },
    {
      name: 'etl-entries-on-top',
      comment:
        'Nothing of etl/ imports the entry points (etl/cli.ts, etl/cli/, etl/handlers/): they build the runtime ' +
        'from the jobs, and nothing below reaches up to them.',
      severity: 'error',
      from: { path: '^etl/', pathNot: '^etl/(cli|handlers)/|^etl/cli\\.ts$' },
      to: { path: '^etl/(cli/|handlers/|cli\\.ts$)' },
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
