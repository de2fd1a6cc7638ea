import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** The process entry points: the only product files that may read `process.env` (and pass it to a loader). */
const ENTRY_POINTS = [
  'lambdas/handlers/api.ts',
  'etl/handlers/feed.ts',
  'etl/handlers/rebuild-static.ts',
  'etl/cli.ts',
  'infra/app.ts',
];

/** Every .ts file under `dir` (repo-relative). */
function tsFiles(dir: string): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.posix.join(dir, file.split(path.sep).join('/')));
}

/** The code of a file without its comments (doc comments may mention `process.env`). */
function code(file: string): string {
  return readFileSync(path.join(REPO_ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
}

describe('the environment', () => {
  it('is read only by the process entry points; everything below them gets a config object', () => {
    const readers = ['data-contracts', 'platform', 'etl', 'lambdas', 'infra']
      .flatMap(tsFiles)
      .filter((file) => !ENTRY_POINTS.includes(file) && /\bprocess\.env\b/.test(code(file)));
    expect(readers).toEqual([]);
  });

  it('is read by each entry point through its loader', () => {
    for (const file of ENTRY_POINTS) expect(code(file)).toMatch(/load\w*Config\(process\.env|env: process\.env/);
  });
});
