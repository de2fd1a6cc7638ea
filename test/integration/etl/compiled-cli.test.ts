/**
 * The ETL as the container image runs it (etl/Dockerfile): `npm run build:etl` compiles the CLI to JavaScript,
 * and plain `node dist/etl/cli.js` runs it, without tsx or TypeScript. The folder laid out here is the image's
 * /app: package.json, node_modules and dist/.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, readFile, rm, symlink } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { DEMO_LEIE_AS_OF, demoBuildInputs } from '../../../etl/cli/demo-inputs';
import { REPO_ROOT, tempDir } from './helpers';

const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
};

let app: string;

const runCompiled = (args: string[], cwd = app) =>
  spawnSync(process.execPath, [path.join(app, 'dist', 'etl', 'cli.js'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, PF_LOG_LEVEL: '', NODE_OPTIONS: '--enable-source-maps' },
    timeout: 60_000,
  });

/** Every file under `dir`, as paths relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));

/** The package a bare require specifier names: `@scope/name` or `name`. */
const packageOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

beforeAll(async () => {
  app = await tempDir('pf-etl-compiled-');
  const build = spawnSync('npm', ['run', 'build:etl', '--', '--outDir', path.join(app, 'dist')], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (build.status !== 0) throw new Error(`npm run build:etl failed:\n${build.stdout}\n${build.stderr}`);
  await copyFile(path.join(REPO_ROOT, 'package.json'), path.join(app, 'package.json'));
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(app, 'node_modules'), 'dir');
}, 120_000);

afterAll(async () => {
  if (app) await rm(app, { recursive: true, force: true });
});

describe('npm run build:etl', () => {
  it('emits JavaScript only (with source maps and the OpenAPI document), no TypeScript', () => {
    const files = filesUnder(path.join(app, 'dist'));
    expect(files).toContain(path.join('etl', 'cli.js'));
    expect(files).toContain(path.join('data-contracts', 'openapi.json'));
    expect(files.filter((file) => !/\.(js|js\.map|json)$/.test(file))).toEqual([]);
    // Only what the CLI imports: neither the API nor the tools.
    expect(files.filter((file) => /^(lambdas|tools|infra|test)\b/.test(file))).toEqual([]);
  });

  it('requires only node built-ins and packages of `dependencies` (the image installs with --omit=dev)', () => {
    const dist = path.join(app, 'dist');
    const packages = new Set<string>();
    for (const file of filesUnder(dist).filter((f) => f.endsWith('.js'))) {
      const source = readFileSync(path.join(dist, file), 'utf8');
      for (const [, specifier] of source.matchAll(/\brequire\("([^"]+)"\)/g)) {
        if (specifier && !specifier.startsWith('.')) packages.add(packageOf(specifier));
      }
    }
    const builtins = new Set(builtinModules);
    const outside = [...packages].filter(
      (name) => !name.startsWith('node:') && !builtins.has(name) && !Object.hasOwn(pkg.dependencies, name),
    );
    expect(packages.size).toBeGreaterThan(0);
    expect(outside).toEqual([]);
  });
});

describe('node dist/etl/cli.js', () => {
  it('prints the version of package.json, found two folders above dist/etl/', () => {
    const run = runCompiled(['--version']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`etl ${pkg.version}\n`);
  });

  it('prints the help of every command', () => {
    const run = runCompiled(['--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Provider Facts ETL/);
    for (const command of ['build', 'rebuild-static']) expect(run.stdout).toContain(command);
    expect(runCompiled(['build', '--help']).stdout).toContain('--nppes');
  });

  it('builds a snapshot from input files named on the command line, as the Fargate task does, and rebuilds public/', async () => {
    const inputs = demoBuildInputs(REPO_ROOT);
    const out = path.join(app, 'data');
    const flags = [
      ...inputs.nppes.flatMap((file) => ['--nppes', file]),
      ...['--nucc', inputs.nucc],
      ...inputs.leie.flatMap((file) => ['--leie', file]),
      // Both LEIE files are slices of one release: one --leie-as-of per file.
      ...inputs.leie.flatMap(() => ['--leie-as-of', DEMO_LEIE_AS_OF]),
      ...inputs.fda.flatMap((file) => ['--fda', file]),
      ...inputs.feeds.flatMap((folder) => ['--feed', folder]),
    ];
    const build = runCompiled(['build', ...flags, '--out', out, '--json']);
    expect(build.status).toBe(0);
    const summary = JSON.parse(build.stdout);
    expect(summary.counts).toMatchObject({ identity: 917, tracked: 340, verified: 200 });
    const rebuild = runCompiled(['rebuild-static', '--out', out, '--json']);
    expect(rebuild.status).toBe(0);
    expect(JSON.parse(rebuild.stdout).snapshot_id).toBe(summary.snapshot_id);
    const coverage = JSON.parse(await readFile(path.join(out, 'public', 'coverage.json'), 'utf8'));
    expect(coverage.tracked.total).toBe(340);
  });

  it('finds the demo inputs next to package.json with --demo', async () => {
    await symlink(path.join(REPO_ROOT, 'test'), path.join(app, 'test'), 'dir');
    await symlink(path.join(REPO_ROOT, 'tools'), path.join(app, 'tools'), 'dir');
    const build = runCompiled(['build', '--demo', '--out', path.join(app, 'demo-data'), '--json']);
    expect(build.status).toBe(0);
    expect(JSON.parse(build.stdout).counts.identity).toBe(919);
  });
});
