import { spawnSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CLI_COMMANDS } from '../../../etl/cli/help';
import { REPO_ROOT, tempDir } from './helpers';

const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const runEtl = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(TSX, ['etl/cli.ts', ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, PF_LOG_LEVEL: '', ...env },
    timeout: 60_000,
  });

describe('npm run etl', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await tempDir('pf-etl-cli-');
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('build --demo --out DIR --json exits 0 and prints one JSON object with snapshot_id and counts', () => {
    const run = runEtl(['build', '--demo', '--out', path.join(dir, 'data'), '--json']);
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0] ?? '');
    expect(summary.snapshot_id).toMatch(/^\d{8}T\d{6}Z-[a-z0-9]{6,16}$/);
    expect(summary.counts).toMatchObject({ identity: 919, tracked: expect.any(Number), verified: expect.any(Number) });
    // The per-source summary goes to stderr with --json; no progress line when stderr is not a terminal.
    expect(run.stderr).toContain('nppes_sample.csv');
    expect(run.stderr).not.toContain('\r');
  });

  it("build --demo --demo-snapshot b builds the demo's second snapshot at its fixed time, with a change step", () => {
    const out = path.join(dir, 'pair');
    for (const snapshot of ['a', 'b']) {
      expect(runEtl(['build', '--demo', '--demo-snapshot', snapshot, '--out', out, '--json']).status).toBe(0);
    }
    const run = runEtl(['build', '--demo', '--demo-snapshot', 'b', '--out', out, '--json']);
    expect(run.status).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.created_at).toBe('2026-11-15T00:00:00Z');
    // The same inputs again: a step without changes, after the A -> B step.
    expect(summary.changes.span.steps.map((s: { changes: number }) => s.changes)).toEqual([16, 0]);
  });

  it('refuses --demo-snapshot without --demo, or with a name the demo does not have', () => {
    const out = path.join(dir, 'pair');
    expect(runEtl(['build', '--demo-snapshot', 'b', '--out', out]).stderr).toContain('--demo-snapshot needs --demo');
    const run = runEtl(['build', '--demo', '--demo-snapshot', 'z', '--out', out]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--demo-snapshot is one of a, b, c: z');
  });

  it('rebuild-static --json rebuilds from the same folder', () => {
    const run = runEtl(['rebuild-static', '--out', path.join(dir, 'data'), '--json']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).counts.sample).toBe(50);
  });

  it('fails with one line naming the file and the column, and a non-zero exit', () => {
    const feed = path.join('test', 'fixtures', 'feed-missing-column');
    const run = runEtl(['build', '--demo', '--feed', feed, '--out', path.join(dir, 'data')]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      'error: test/fixtures/feed-missing-column/providers.csv: missing required column "business_mode"',
    ]);
  });

  it('--help documents every command and input', () => {
    const run = runEtl(['--help']);
    expect(run.status).toBe(0);
    for (const command of CLI_COMMANDS) expect(run.stdout).toContain(command);
    for (const flag of [
      '--demo',
      '--out',
      '--bucket',
      '--prefix',
      '--nppes',
      '--nucc',
      '--leie',
      '--leie-as-of',
      '--fda',
      '--feed',
      '--snapshot-time',
      '--memory-budget',
      '--max-reject-share',
      '--max-shrink-share',
      '--allow-shrink',
      '--json',
    ]) {
      expect(run.stdout).toContain(flag);
    }
  });

  it('--help gives --bucket and --prefix their own descriptions', () => {
    const lines = runEtl(['--help']).stdout.split('\n');
    expect(lines.find((l) => l.trimStart().startsWith('--bucket'))).toMatch(
      /--bucket B\s+S3 bucket instead of a folder/,
    );
    expect(lines.find((l) => l.trimStart().startsWith('--prefix'))).toMatch(/--prefix P\s+Key prefix in the bucket/);
  });

  it.each([
    [['help', 'build'], /^Usage: npm run etl -- build \[options\]/],
    [['build', '--help'], /^Usage: npm run etl -- build \[options\]/],
    [['rebuild-static', '-h'], /^Usage: npm run etl -- rebuild-static \[options\]/],
  ])("prints one command's help for %j", (args, usage) => {
    const run = runEtl(args);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(usage);
  });

  it('rebuild-static --help leaves out the build inputs', () => {
    expect(runEtl(['rebuild-static', '--help']).stdout).not.toContain('--nppes');
  });

  it('prints the version from package.json on --version', () => {
    const run = runEtl(['--version']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`etl ${require('../../../package.json').version}\n`);
  });

  it('refuses --demo --leie FILE without --leie-as-of (exit code 2) instead of stamping the demo date on it', async () => {
    const out = path.join(dir, 'leie-refused');
    const run = runEtl(['build', '--demo', '--leie', 'test/fixtures/source-data/leie.csv', '--out', out]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^error: --leie needs --leie-as-of ISO/);
    // Nothing was built.
    await expect(readFile(path.join(out, 'pointer.json'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.each([
    [
      'a second LEIE file without an as-of in its name',
      ['--leie-as-of', '2026-10-03T00:00:00Z'],
      /^error: --leie-as-of: no LEIE as-of for leie_head\.csv/,
    ],
    [
      'as-ofs that decrease',
      ['--leie-as-of', '2026-10-03T00:00:00Z', '--leie-as-of', '2026-09-03T00:00:00Z'],
      /^error: --leie-as-of: LEIE as-ofs must not decrease in file order: leie_head\.csv/,
    ],
    [
      'more as-ofs than files',
      [
        '--leie-as-of',
        '2026-10-03T00:00:00Z',
        '--leie-as-of',
        '2026-10-03T00:00:00Z',
        '--leie-as-of',
        '2026-10-04T00:00:00Z',
      ],
      /^error: --leie-as-of: 3 LEIE as-ofs for 2 LEIE files/,
    ],
  ])('refuses %s (exit code 2)', (_what, asOfs, message) => {
    const leie = ['leie.csv', 'leie_head.csv'].flatMap((f) => ['--leie', `test/fixtures/source-data/${f}`]);
    const run = runEtl(['build', '--demo', ...leie, ...asOfs, '--out', path.join(dir, 'as-of-refused')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('refuses an unknown option with exit code 2', () => {
    const run = runEtl(['build', '--nope']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^error: /);
  });

  it('refuses a memory budget that is not a size with exit code 2, naming the flag', () => {
    const run = runEtl(['build', '--demo', '--out', path.join(dir, 'data'), '--memory-budget', 'lots']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^error: --memory-budget is not a size like 2GB or 3072MB: lots/);
  });

  it('refuses a shrinking build with exit code 1 and the comparison, and publishes it with --allow-shrink', async () => {
    const out = path.join(dir, 'data');
    const sample = await readFile(path.join(REPO_ROOT, 'test', 'fixtures', 'source-data', 'nppes_sample.csv'), 'utf8');
    const headerOnly = path.join(dir, 'nppes-header-only.csv');
    await writeFile(headerOnly, `${sample.split('\r\n')[0]}\r\n`);
    const pointer = await readFile(path.join(out, 'current.json'), 'utf8');
    const refused = runEtl(['build', '--demo', '--nppes', headerOnly, '--out', out]);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^error: refusing to publish: identity NPIs would drop from 919 to 0 \(-100%\)/);
    expect(refused.stderr).toMatch(/identity NPIs +919 -> +0 +-100% +SHRINKS/);
    expect(await readFile(path.join(out, 'current.json'), 'utf8')).toBe(pointer);
    // The environment's share is honoured too: a 100% drop is refused even at 99%.
    const env = runEtl(['build', '--demo', '--nppes', headerOnly, '--out', out], { PF_ETL_MAX_SHRINK_SHARE: '0.99' });
    expect(env.status).toBe(1);
    const allowed = runEtl(['build', '--demo', '--nppes', headerOnly, '--out', out, '--allow-shrink']);
    expect(allowed.status).toBe(0);
    expect(allowed.stdout).toMatch(/identity NPIs +919 -> +0 +-100% +SHRINKS/);
    expect(await readFile(path.join(out, 'current.json'), 'utf8')).not.toBe(pointer);
  });

  it('refuses a reject share that is not between 0 and 1 with exit code 2, naming the flag', () => {
    const run = runEtl(['build', '--demo', '--out', path.join(dir, 'data'), '--max-reject-share', '5']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^error: --max-reject-share is not a share between 0 and 1: 5/);
  });
});
