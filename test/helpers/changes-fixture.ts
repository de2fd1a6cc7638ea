/**
 * The change feed's fixture (issue 12): the demo's snapshots A and B (and C, for the tests that span two steps),
 * built with the real ETL from the committed inputs into a folder store, so that B's (or C's) `changes` layer holds
 * exactly the changes listed in test/fixtures/changes/README.md. Used by the ETL's and the API's integration suites.
 */
import path from 'node:path';
import { type BuildSummary, buildSnapshot } from '../../etl/build';
import { DEMO_SNAPSHOT_TIMES, type DemoSnapshot, demoChangedInputs } from '../../etl/demo-inputs';
import { FolderObjectStore } from '../../platform/folder-store';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface ChangesFixture {
  /** The folder store the snapshots were published to (its pointer names the last one). */
  store: FolderObjectStore;
  /** The build summaries (`snapshot_id`, `created_at`: the as-of time of each step's end), in build order. */
  a: BuildSummary;
  b: BuildSummary;
  /** Only when built `through: 'c'`. */
  c?: BuildSummary;
}

/**
 * Builds A (the committed demo inputs, as of {@link DEMO_SNAPSHOT_TIMES}.a), then B (test/fixtures/changes/b), then
 * with `through: 'c'` C (test/fixtures/changes/c) into the folder store at `dir`, with the real ETL. Takes a few
 * seconds per snapshot.
 * @example const { store, a, b } = await buildChangesFixture(await mkdtemp(path.join(tmpdir(), 'pf-changes-')));
 */
export async function buildChangesFixture(dir: string, options: { through?: 'b' | 'c' } = {}): Promise<ChangesFixture> {
  const store = new FolderObjectStore(dir);
  const build = (snapshot: DemoSnapshot) =>
    buildSnapshot({
      store,
      inputs: demoChangedInputs(snapshot, REPO_ROOT),
      snapshotTime: new Date(DEMO_SNAPSHOT_TIMES[snapshot]),
      duckdb: { threads: 2 },
    });
  const a = await build('a');
  const b = await build('b');
  if (options.through !== 'c') return { store, a, b };
  return { store, a, b, c: await build('c') };
}
