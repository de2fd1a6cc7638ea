import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { ENV } from '../../../../data-contracts/env';
import type { SnapshotManifest } from '../../../../data-contracts/layout';
import { type BuildSummary, buildSnapshot } from '../../../../etl/build';
import { demoBuildInputs } from '../../../../etl/cli/demo-inputs';
import type { runFeedBuild as RunFeedBuild } from '../../../../etl/handlers/feed';
import { FolderObjectStore } from '../../../../platform/folder-store';
import { checkDb, currentOf, expectSnapshotComplete, REPO_ROOT, readJson, tempDir } from '../helpers';

const FEED = path.join(REPO_ROOT, 'test', 'fixtures', 'feed-bad');
const PREFIX = 'inputs/glp1/2026-11-21/';

describe('runFeedBuild (the feed Lambda) on a folder store', () => {
  let dir: string;
  let store: FolderObjectStore;
  let workDir: string;
  let base: BuildSummary;
  let runFeedBuild: typeof RunFeedBuild;
  let db: Awaited<ReturnType<typeof checkDb>>;

  const pointerText = async () => (await store.getBytes('current.json'))?.body.toString('utf8');
  const snapshotIds = async () => readdir(path.join(dir, 'store', 'snapshots'));

  beforeAll(async () => {
    // The handler module reads its configuration at load (the Lambda's cold start).
    process.env[ENV.dataBucket] = 'unused-by-runFeedBuild';
    process.env[ENV.logLevel] = 'error';
    runFeedBuild = require('../../../../etl/handlers/feed').runFeedBuild as typeof RunFeedBuild;
    dir = await tempDir('pf-etl-feed-');
    store = new FolderObjectStore(path.join(dir, 'store'));
    workDir = path.join(dir, 'work');
    base = await buildSnapshot({ store, inputs: demoBuildInputs(REPO_ROOT) });
    for (const name of ['providers.csv', 'observations.csv']) {
      await store.put(`${PREFIX}${name}`, await readFile(path.join(FEED, name)), 'text/csv');
    }
    db = await checkDb();
  });

  afterAll(async () => {
    db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  // First, while the current snapshot is the demo build (340 tracked records).
  it('refuses a feed that shrinks a layer without allow_shrink, and one past the reject share', async () => {
    const before = await pointerText();
    const ids = await snapshotIds();
    await expect(runFeedBuild({ prefix: PREFIX, max_reject_share: 1 }, { store, workDir })).rejects.toThrow(
      /refusing to publish: tracked records would drop from \d+ to 4/,
    );
    await expect(runFeedBuild({ prefix: PREFIX, allow_shrink: true }, { store, workDir })).rejects.toThrow(
      /providers\.csv: 6 of 10 rows rejected \(60%\), more than the 1% allowed/,
    );
    expect(await pointerText()).toBe(before);
    expect(await snapshotIds()).toEqual(ids);
  });

  it('publishes a new snapshot whose vertical layer is the feed, on the reused identity layer, and moves the pointer', async () => {
    const summary = await runFeedBuild(
      // feed-bad is mostly rejects and shrinks the glp1 vertical: both limits lifted for this fixture.
      { prefix: PREFIX.slice(0, -1), snapshot_time: '2026-11-22T06:00:00Z', max_reject_share: 1, allow_shrink: true },
      { store, workDir },
    );
    expect(summary.reused_from).toBe(base.snapshot_id);
    expect(summary.created_at).toBe('2026-11-22T06:00:00Z');
    expect(summary.counts).toMatchObject({ identity: base.counts.identity, taxonomies: base.counts.taxonomies });
    expect(summary.counts).toMatchObject({ tracked: 4, verified: 2 });
    expect(summary.sources.map((s) => s.source)).toEqual(['feed_providers', 'feed_observations']);

    const { pointer, manifest } = await currentOf(store);
    expect(pointer.snapshot_id).toBe(summary.snapshot_id);
    await expectSnapshotComplete(store, summary.manifest_key);

    // The vertical layer holds the feed's accepted providers, and only them.
    const snap = path.join(dir, 'store', 'snapshots', summary.snapshot_id);
    const tracked = await db.rows(
      `SELECT entity_id FROM read_parquet('${snap}/vertical/tracked/*/*/data.parquet', hive_partitioning = false)
       ORDER BY entity_id`,
    );
    expect(tracked).toHaveLength(4);
    for (const { entity_id } of tracked) expect(String(entity_id)).toMatch(/^glp1-9000/);

    // Identity partitions, serving indexes, NPI lookup buckets, taxonomy and screening lists are the base snapshot's,
    // byte for byte.
    const baseManifest = await readJson<SnapshotManifest>(store, base.manifest_key);
    const reusedKinds = new Set(['identity', 'identity_index', 'npi', 'taxonomy', 'screen']);
    expect(manifest.objects.filter((o) => o.kind === 'npi').length).toBeGreaterThan(0);
    const digestsOf = (m: SnapshotManifest) =>
      m.objects
        .filter((o) => reusedKinds.has(o.kind))
        .map((o) => ({ key: o.key.replace(`snapshots/${m.snapshot_id}/`, ''), kind: o.kind, sha256: o.sha256 }));
    expect(digestsOf(manifest)).toEqual(digestsOf(baseManifest));
    expect(manifest.objects.filter((o) => o.kind === 'screen').map((o) => o.key.split('/').pop())).toEqual([
      'fda-letters.parquet',
      'oig-leie.parquet',
    ]);
    // The run's local copies are gone.
    expect(await readdir(workDir)).toEqual([]);
  });

  it('leaves the pointer and the snapshots unchanged when the feed is missing from the store', async () => {
    const before = await pointerText();
    const ids = await snapshotIds();
    await expect(runFeedBuild({ prefix: 'inputs/nothing-here/' }, { store, workDir })).rejects.toThrow(
      'inputs/nothing-here/providers.csv does not exist',
    );
    expect(await pointerText()).toBe(before);
    expect(await snapshotIds()).toEqual(ids);
  });

  it('leaves the pointer unchanged when the feed is unreadable (a required column missing)', async () => {
    await store.put('inputs/broken/providers.csv', 'entity_id,name\r\nx,y\r\n', 'text/csv');
    await store.put('inputs/broken/observations.csv', await readFile(path.join(FEED, 'observations.csv')), 'text/csv');
    const before = await pointerText();
    const ids = await snapshotIds();
    await expect(runFeedBuild({ prefix: 'inputs/broken/' }, { store, workDir })).rejects.toThrow(/missing/);
    expect(await pointerText()).toBe(before);
    expect(await snapshotIds()).toEqual(ids);
  });

  it('rejects an event without a prefix, and LEIE files without their as-of time, before any work', async () => {
    const before = await pointerText();
    await expect(runFeedBuild({}, { store, workDir })).rejects.toThrow('event.prefix');
    await expect(
      runFeedBuild({ prefix: PREFIX, leie: ['inputs/leie/UPDATED.csv'] }, { store, workDir }),
    ).rejects.toThrow('event.leie needs event.leie_as_of');
    await expect(
      runFeedBuild(
        {
          prefix: PREFIX,
          leie: ['inputs/leie/UPDATED.csv', 'inputs/leie/supplement.csv'],
          leie_as_of: '2026-11-03T00:00:00Z',
        },
        { store, workDir },
      ),
    ).rejects.toThrow('event.leie_as_of: no LEIE as-of for supplement.csv');
    await expect(
      runFeedBuild({ prefix: PREFIX, leie: ['inputs/leie/UPDATED.csv'], leie_as_of: [1] }, { store, workDir }),
    ).rejects.toThrow('event.leie_as_of must be an ISO date-time or a list of them');
    await expect(runFeedBuild({ prefix: PREFIX, max_reject_share: 5 }, { store, workDir })).rejects.toThrow(
      'event.max_reject_share must be a number between 0 and 1',
    );
    expect(await pointerText()).toBe(before);
  });

  it('reuses the screening lists of a snapshot from before the screen kind (listed as static)', async () => {
    const { pointer, manifest } = await currentOf(store);
    const legacy = manifest.objects.map((o) => (o.kind === 'screen' ? { ...o, kind: 'static' } : o));
    await store.put(pointer.manifest_key, JSON.stringify({ ...manifest, objects: legacy }), 'application/json');
    const summary = await runFeedBuild({ prefix: PREFIX, max_reject_share: 1, allow_shrink: true }, { store, workDir });
    expect(summary.reused_from).toBe(pointer.snapshot_id);
    const after = await readJson<SnapshotManifest>(store, summary.manifest_key);
    // No LEIE file given: the reused identity rows were screened with the reused snapshot's LEIE files.
    expect(after.leie_files).toEqual(manifest.leie_files);
    expect(after.leie_files?.map((f) => f.file)).toEqual(['leie.csv', 'leie_head.csv']);
    expect(after.objects.filter((o) => o.kind === 'screen')).toHaveLength(2);
    expect(after.objects.filter((o) => o.key.includes('/screens/') && o.kind !== 'screen')).toEqual([]);
  });

  it('refuses to reuse a snapshot of an older layout, asking for a full build, and leaves the pointer', async () => {
    const { pointer, manifest } = await currentOf(store);
    const before = await pointerText();
    const ids = await snapshotIds();
    await store.put(pointer.manifest_key, JSON.stringify({ ...manifest, layout_version: 2 }), 'application/json');
    try {
      await expect(runFeedBuild({ prefix: PREFIX }, { store, workDir })).rejects.toThrow(
        /layout_version 2, expected one of 3, 4.*run a full build/,
      );
      expect(await pointerText()).toBe(before);
      expect(await snapshotIds()).toEqual(ids);
      // Layout 3 is still read by the API, but its NPI buckets are not what this build writes: a full build first.
      await store.put(pointer.manifest_key, JSON.stringify({ ...manifest, layout_version: 3 }), 'application/json');
      await expect(runFeedBuild({ prefix: PREFIX }, { store, workDir })).rejects.toThrow(
        /has layout 3, this build writes 5.*run a full build/,
      );
      expect(await pointerText()).toBe(before);
    } finally {
      await store.put(pointer.manifest_key, JSON.stringify(manifest), 'application/json');
    }
  });
});
