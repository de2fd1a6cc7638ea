/**
 * The demo build's inputs: the committed real public samples (test/fixtures/source-data, see PROVENANCE.md) and the
 * fictional glp1 curation feed (tools/demo/glp1).
 */
import path from 'node:path';
import type { BuildInputs } from './build';
import { packageRoot } from './package-root';

/** The October 2026 OIG release that the LEIE slices come from (PROVENANCE.md: run date 10/03/2026). */
export const DEMO_LEIE_AS_OF = '2026-10-03T00:00:00Z' as const;

/**
 * Inputs for `npm run etl -- build --demo`.
 * @param repoRoot the repository root (default: the folder of package.json, above etl/ or dist/etl/).
 */
export function demoBuildInputs(repoRoot: string = packageRoot()): BuildInputs {
  const source = (name: string) => path.join(repoRoot, 'test', 'fixtures', 'source-data', name);
  return {
    nppes: [source('nppes_sample.csv'), source('nppes_pristine_excerpt_v2.csv')],
    nucc: source('nucc_taxonomy.csv'),
    leie: [source('leie.csv'), source('leie_head.csv')],
    leieAsOf: DEMO_LEIE_AS_OF,
    fda: [source('fda_warning_letters.csv'), source('fda_warning_letters_scraped_2026.csv')],
    feeds: [path.join(repoRoot, 'tools', 'demo', 'glp1')],
  };
}
