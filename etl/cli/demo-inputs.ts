/**
 * The demo build's inputs: the committed real public samples (test/fixtures/source-data, see PROVENANCE.md) and the
 * fictional glp1 curation feed (tools/demo/glp1).
 *
 * The demo has two snapshots, so that the change feed has a step to show: A from those inputs
 * ({@link demoBuildInputs}), then B from inputs that differ in known ways ({@link demoChangedInputs}: the files of
 * test/fixtures/changes/b, described in its README), at fixed snapshot times ({@link DEMO_SNAPSHOT_TIMES}).
 * Both carry the fictional OIG case of tools/demo/oig (README there): made-up people in a made-up NPPES file and
 * made-up LEIE rows, so that the demo shows a possible match and a reinstatement without pinning either on anyone
 * real.
 */
import path from 'node:path';
import type { BuildInputs } from '../build';
import { packageRoot } from './package-root';

/** The October 2026 OIG release that the LEIE slices come from (PROVENANCE.md: run date 10/03/2026). */
export const DEMO_LEIE_AS_OF = '2026-10-03T00:00:00Z' as const;

/** The release time given to the demo's second LEIE list (test/fixtures/changes/b/leie_head.csv). */
export const DEMO_CHANGED_LEIE_AS_OF = '2026-11-05T00:00:00Z' as const;

/**
 * The snapshot times of the demo's snapshots: A, then B a month later (and C, which only the tests build). Fixed, so
 * that the demo is the same on every machine; after the feed's last observation (2026-09-28) and the LEIE release.
 */
export const DEMO_SNAPSHOT_TIMES = {
  a: '2026-10-15T00:00:00Z',
  b: '2026-11-15T00:00:00Z',
  c: '2026-12-15T00:00:00Z',
} as const;

/** The demo's snapshots, in build order. */
export const DEMO_SNAPSHOTS = ['a', 'b'] as const;
export type DemoSnapshot = keyof typeof DEMO_SNAPSHOT_TIMES;

/**
 * The committed real public samples and the fictional feed: the inputs the API's tests build on. The demo
 * snapshots (`npm run etl -- build --demo`, `npm start`) are {@link demoChangedInputs}, which add the fictional OIG
 * case.
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

/**
 * The inputs of a demo snapshot: `a` is {@link demoBuildInputs} with the fictional OIG case (tools/demo/oig: two
 * made-up NPPES records, one of them excluded by NPI in a made-up LEIE row); `b` adds the fictional supplement (that
 * exclusion reinstated; a made-up exclusion without an NPI naming the other record: a possible match), an NPPES
 * update file (deactivations, a rename, a move, a new primary taxonomy, a new NPI), replaces `leie_head.csv` (three
 * NPPES NPIs added, one row removed) and the feed (a provider demoted, one promoted, one flagged); `c` (tests only) adds a second NPPES update
 * (a reactivation) and a second LEIE list (one of B's additions removed). test/fixtures/changes/README.md lists every
 * change.
 */
export function demoChangedInputs(snapshot: DemoSnapshot, repoRoot: string = packageRoot()): BuildInputs {
  const real = demoBuildInputs(repoRoot);
  const fictional = (name: string) => path.join(repoRoot, 'tools', 'demo', 'oig', name);
  const a: BuildInputs = {
    ...real,
    nppes: [...real.nppes, fictional('nppes_fictional.csv')],
    leie: [...real.leie, fictional('leie_fictional_list.csv')],
  };
  if (snapshot === 'a') return a;
  const changed = (step: 'b' | 'c', name: string) => path.join(repoRoot, 'test', 'fixtures', 'changes', step, name);
  const [leie] = real.leie;
  return {
    ...a,
    nppes: [
      ...a.nppes,
      changed('b', 'nppes_update.csv'),
      ...(snapshot === 'c' ? [changed('c', 'nppes_update.csv')] : []),
    ],
    leie: [
      leie as string,
      changed(snapshot, 'leie_head.csv'),
      fictional('leie_fictional_list.csv'),
      fictional('leie_fictional_supplement_2026-11-05.csv'),
    ],
    leieAsOf: DEMO_CHANGED_LEIE_AS_OF,
    feeds: [changed('b', 'glp1')],
  };
}

/**
 * The as-of of each LEIE file of a demo snapshot, in the order of its `leie` list: every file of a snapshot is
 * given that snapshot's release time (the fictional supplement's name carries the same date).
 */
export function demoLeieAsOfs(snapshot: DemoSnapshot, repoRoot: string = packageRoot()): string[] {
  const asOf = snapshot === 'a' ? DEMO_LEIE_AS_OF : DEMO_CHANGED_LEIE_AS_OF;
  return demoChangedInputs(snapshot, repoRoot).leie.map(() => asOf);
}
