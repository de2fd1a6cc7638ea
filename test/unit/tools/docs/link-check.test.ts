/**
 * The link check of `npm test` (`npm run lint:links`: remark-validate-links over every Markdown file, offline) fails
 * on a link to a missing file and on an anchor no heading makes, and passes the repository's own documents.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const REMARK = path.join(REPO_ROOT, 'node_modules', '.bin', 'remark');
const scripts = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

/** Runs the check as lint:links does, with the repository's settings, over `files` in `cwd`. */
function check(cwd: string, files: string[]) {
  return spawnSync(
    REMARK,
    ['--rc-path', path.join(REPO_ROOT, '.remarkrc.json'), '--no-color', '--quiet', '--frail', '--no-stdout', ...files],
    { cwd, encoding: 'utf8', timeout: 60_000 },
  );
}

describe('the link check', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pf-links-'));
    writeFileSync(path.join(dir, 'other.md'), '# Other\n\n## A heading\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs in npm test', () => {
    expect(scripts.test).toContain('npm run lint:links');
    expect(scripts['lint:links']).toBe('remark . --quiet --frail --no-stdout');
  });

  it('passes links to files and headings that exist', () => {
    writeFileSync(
      path.join(dir, 'good.md'),
      '# Good\n\n[other](other.md), [its heading](other.md#a-heading), [here](#good)\n',
    );
    const run = check(dir, ['good.md']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('fails a link to a missing file and an anchor that no heading makes', () => {
    writeFileSync(path.join(dir, 'bad.md'), '# Bad\n\n[gone](gone.md) and [nowhere](other.md#no-such-heading)\n');
    const run = check(dir, ['bad.md']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Cannot find file `gone.md`');
    expect(run.stderr).toContain('Cannot find heading for `#no-such-heading` in `other.md`');
  });
});
