/**
 * How every Lambda function is bundled: one place, shared by the stack and by `test/infra/api-bundle.test.ts`,
 * so the test bundles exactly what a deployment ships.
 *
 * DuckDB is a native addon. `@duckdb/node-api` (pure JS) loads `@duckdb/node-bindings`, whose `duckdb.js`
 * picks the platform package at run time with a plain `require('@duckdb/node-bindings-linux-x64/duckdb.node')`
 * (or `-linux-arm64`). esbuild bundles the JS parts, leaves every `@duckdb/node-bindings-*` import EXTERNAL, and
 * an `afterBundling` hook copies the one platform package into `<asset>/node_modules/@duckdb/`, where Node's
 * resolution from `<asset>/index.js` finds it. `duckdb.node` links `libduckdb.so` through `RUNPATH $ORIGIN`, so
 * the two files only have to stay side by side, which copying the whole package folder guarantees.
 *
 * Files a handler reads at run time from a package ({@link HANDLER_PACKAGE_FILES}: the API's reference page serves
 * Redoc's standalone bundle, resolved with `require.resolve`) are copied the same way, to the same path under
 * `<asset>/node_modules`, so the one resolution works locally and in the asset.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, LogLevel, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ArchitectureName } from './config';

/** The repository root: entry paths, the lock file and `node_modules` are resolved from here. */
export const PROJECT_ROOT = resolve(__dirname, '..');

/** The deployed handlers' entry files (relative to the repository root). Infra knows these paths and nothing else. */
export const HANDLER_ENTRIES = {
  api: 'lambdas/handlers/api.ts',
  rebuildStatic: 'etl/handlers/rebuild-static.ts',
  feed: 'etl/handlers/feed.ts',
} as const;
export type HandlerName = keyof typeof HANDLER_ENTRIES;

/**
 * Package files each handler reads at run time (module paths, as `require.resolve` takes them), carried in its
 * asset under `node_modules/` (lambdas/http/docs-page.ts reads Redoc's bundle).
 */
export const HANDLER_PACKAGE_FILES = {
  api: ['redoc/bundles/redoc.standalone.js'],
  rebuildStatic: [],
  feed: [],
} as const satisfies Record<HandlerName, readonly string[]>;

/** Lambda runtime of every function (CI runs the test suite on Node 22 too; the code still runs on Node 20). */
export const LAMBDA_RUNTIME = Runtime.NODEJS_22_X;

/** The DuckDB platform package (glibc builds: Lambda's Amazon Linux 2023 is glibc) for each architecture. */
export const DUCKDB_BINDING_PACKAGES = {
  x86_64: '@duckdb/node-bindings-linux-x64',
  arm64: '@duckdb/node-bindings-linux-arm64',
} as const satisfies Record<ArchitectureName, string>;

/** Lambda architecture for each architecture name. */
export const LAMBDA_ARCHITECTURES = {
  x86_64: Architecture.X86_64,
  arm64: Architecture.ARM_64,
} as const satisfies Record<ArchitectureName, Architecture>;

/**
 * esbuild externals: every DuckDB platform package (including the musl and non-Linux variants that the loader
 * names in branches never taken on Lambda, which esbuild would otherwise fail to resolve).
 */
export const BUNDLE_EXTERNALS = ['@duckdb/node-bindings-*'] as const;

function readVersion(packageDir: string): string {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}

/**
 * The folder of the DuckDB platform package for `architecture`, checked to exist and to match the version of the
 * installed loader. Throws with the install command when it is missing: a function deployed without its
 * binding would fail every request, so synth stops instead.
 */
export function resolveDuckdbBinding(architecture: ArchitectureName, projectRoot: string = PROJECT_ROOT): string {
  const pkg = DUCKDB_BINDING_PACKAGES[architecture];
  const loaderDir = join(projectRoot, 'node_modules', '@duckdb', 'node-bindings');
  const bindingDir = join(projectRoot, 'node_modules', ...pkg.split('/'));
  const loaderVersion = existsSync(loaderDir) ? readVersion(loaderDir) : 'unknown';
  if (!existsSync(join(bindingDir, 'duckdb.node'))) {
    throw new Error(
      `architecture=${architecture} needs the DuckDB binding ${pkg}@${loaderVersion} in node_modules, and it is ` +
        `not installed (npm only installs the binding of the machine's own platform). Install it with ` +
        `\`npm install --no-save --os=linux --cpu=${architecture === 'arm64' ? 'arm64' : 'x64'} ${pkg}@${loaderVersion}\`, ` +
        `or deploy with \`-c architecture=x86_64\`.`,
    );
  }
  const bindingVersion = readVersion(bindingDir);
  if (bindingVersion !== loaderVersion) {
    throw new Error(`${pkg} is ${bindingVersion} but @duckdb/node-bindings is ${loaderVersion}: reinstall with npm ci`);
  }
  return bindingDir;
}

/**
 * The `afterBundling` commands that copy the platform package into the asset. `inputDir` is the project root
 * (local bundling runs there); `outputDir` is the asset folder.
 */
export function duckdbCopyCommands(architecture: ArchitectureName, inputDir: string, outputDir: string): string[] {
  const pkg = DUCKDB_BINDING_PACKAGES[architecture];
  return [
    `mkdir -p "${outputDir}/node_modules/@duckdb"`,
    // -L: follow symlinks, so a linked install (pnpm, workspaces) still ships real files.
    `cp -RL "${inputDir}/node_modules/${pkg}" "${outputDir}/node_modules/${pkg}"`,
  ];
}

/**
 * The `afterBundling` commands that copy package files (module paths such as `redoc/bundles/redoc.standalone.js`)
 * into `<asset>/node_modules/` at the same path. Each must exist under `<inputDir>/node_modules` (checked at synth).
 */
export function packageFileCopyCommands(files: readonly string[], inputDir: string, outputDir: string): string[] {
  return files.flatMap((file) => {
    const folder = file.split('/').slice(0, -1).join('/');
    return [
      `mkdir -p "${outputDir}/node_modules/${folder}"`,
      `cp -L "${inputDir}/node_modules/${file}" "${outputDir}/node_modules/${file}"`,
    ];
  });
}

/**
 * Bundling options of every function: local esbuild (no Docker on the build machine), CommonJS for Node 22,
 * the AWS SDK bundled at the pinned versions of package.json (not the runtime's copy, whose version drifts),
 * DuckDB's platform binding carried beside the bundle, and the package files the function reads at run time.
 */
export function functionBundling(
  architecture: ArchitectureName,
  packageFiles: readonly string[] = [],
): BundlingOptions {
  // Fail at synth, not at the first request, when the binding for this architecture is not installed.
  resolveDuckdbBinding(architecture);
  for (const file of packageFiles) {
    if (!existsSync(join(PROJECT_ROOT, 'node_modules', file))) {
      throw new Error(`${file} is not installed in node_modules, and the function reads it at run time: npm ci`);
    }
  }
  return {
    forceDockerBundling: false,
    format: OutputFormat.CJS,
    minify: true,
    // Source maps keep stack traces of logged 500s readable; `--enable-source-maps` is set in the environment.
    sourceMap: true,
    sourcesContent: false,
    externalModules: [...BUNDLE_EXTERNALS],
    logLevel: LogLevel.WARNING,
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (inputDir, outputDir) => [
        ...duckdbCopyCommands(architecture, inputDir, outputDir),
        ...packageFileCopyCommands(packageFiles, inputDir, outputDir),
      ],
    },
  };
}

/** The code-related props of a NodejsFunction for `handler`: entry, runtime, architecture, bundling. */
export function functionCodeProps(handler: HandlerName, architecture: ArchitectureName) {
  return entryCodeProps(HANDLER_ENTRIES[handler], architecture, HANDLER_PACKAGE_FILES[handler]);
}

/**
 * The same props for any entry file under the repository root (the bundle test also bundles a DuckDB probe
 * with them, to prove the binding loads from the asset whatever the handler is).
 */
export function entryCodeProps(entry: string, architecture: ArchitectureName, packageFiles: readonly string[] = []) {
  return {
    entry: resolve(PROJECT_ROOT, entry),
    handler: 'handler',
    projectRoot: PROJECT_ROOT,
    depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
    runtime: LAMBDA_RUNTIME,
    architecture: LAMBDA_ARCHITECTURES[architecture],
    bundling: functionBundling(architecture, packageFiles),
  } as const;
}
