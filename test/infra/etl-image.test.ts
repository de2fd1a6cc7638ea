/**
 * The NPPES task's image asset as `cdk synth` stages it: its build context (the repository root filtered by
 * .dockerignore) holds what etl/Dockerfile copies and nothing else, so a change to the API, the tests, the README
 * or cdk.json does not rebuild the image, and node_modules never goes into it.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { synthStack, tempOutdir } from './helpers';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

type AssetsManifest = {
  dockerImages: Record<string, { source: { directory: string; dockerFile: string } }>;
};

/** The sources of the Dockerfile's `COPY` lines that read the build context (not `COPY --from=` a stage). */
function copiedFromContext(dockerfile: string): string[] {
  return dockerfile
    .split('\n')
    .filter((line) => /^COPY\s/.test(line) && !line.includes('--from='))
    .flatMap((line) => line.trim().split(/\s+/).slice(1, -1));
}

let outdir: string;
let context: string;
let dockerfile: string;

beforeAll(() => {
  outdir = tempOutdir('pf-infra-etl-image-');
  const { stack } = synthStack({}, { bundle: false, outdir });
  const manifest = JSON.parse(
    readFileSync(path.join(outdir, `${stack.artifactId}.assets.json`), 'utf8'),
  ) as AssetsManifest;
  const images = Object.values(manifest.dockerImages);
  expect(images).toHaveLength(1);
  const [image] = images;
  if (!image) throw new Error('no docker image asset');
  context = path.join(outdir, image.source.directory);
  dockerfile = readFileSync(path.join(context, image.source.dockerFile), 'utf8');
});

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

describe('ETL image asset', () => {
  it('builds etl/Dockerfile from the repository, in two stages, running compiled JavaScript with node', () => {
    expect(dockerfile).toBe(readFileSync(path.join(REPO_ROOT, 'etl', 'Dockerfile'), 'utf8'));
    expect(dockerfile).toMatch(/^FROM node:22-slim AS build$/m);
    expect(dockerfile).toMatch(/^RUN npm run build:etl$/m);
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev\b/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "dist\/etl\/cli\.js"\]$/m);
    const instructions = dockerfile.split('\n').filter((line) => !line.startsWith('#'));
    expect(instructions.filter((line) => /tsx|--include=dev/.test(line))).toEqual([]);
  });

  it('stages every file the Dockerfile copies, and nothing else at the top level', () => {
    const copied = copiedFromContext(dockerfile);
    expect(copied).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'etl', 'tsconfig.etl.json']));
    for (const source of copied) expect(existsSync(path.join(context, source))).toBe(true);
    const staged = readdirSync(context).filter((name) => name !== '.dockerignore');
    expect(staged.sort()).toEqual([...new Set(copied)].sort());
  });

  it('leaves node_modules, tests and docs out of the context', () => {
    const all = readdirSync(context, { recursive: true, encoding: 'utf8' });
    expect(all.filter((file) => file.split(path.sep).includes('node_modules'))).toEqual([]);
    expect(all.filter((file) => file.endsWith('.md') || file.endsWith('.test.ts'))).toEqual([]);
  });
});
