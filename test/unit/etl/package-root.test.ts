import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../../etl/cli/package-root';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

describe('packageRoot', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pf-package-root-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is the repository root when run from the sources (etl/)', () => {
    expect(packageRoot()).toBe(REPO_ROOT);
  });

  it('is two folders above dist/etl/ in the compiled layout of the image', async () => {
    const app = path.join(dir, 'app');
    await mkdir(path.join(app, 'dist', 'etl'), { recursive: true });
    await writeFile(path.join(app, 'package.json'), '{}');
    expect(packageRoot(path.join(app, 'dist', 'etl'))).toBe(app);
  });
});
