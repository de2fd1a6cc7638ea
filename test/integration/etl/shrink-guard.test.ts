/**
 * The shrink guard: a new snapshot whose layer counts drop by more than the allowed share against the current
 * snapshot is not published (nothing uploaded, pointer untouched) unless the operator allows it.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type BuildSummary, buildSnapshot, ShrinkRefused } from '../../../etl/build';
import { demoBuildInputs } from '../../../etl/cli/demo-inputs';
import { FolderObjectStore } from '../../../platform/folder-store';
import { currentOf, REPO_ROOT, SOURCE_DATA, tempDir } from './helpers';

describe('shrink guard', () => {
  let dir: string;
  let store: FolderObjectStore;
  let base: BuildSummary;
  let headerOnly: string;

  const pointerText = async () => (await store.getBytes('current.json'))?.body.toString('utf8');
  const snapshotIds = async () => readdir(path.join(dir, 'store', 'snapshots'));

  beforeAll(async () => {
    dir = await tempDir('pf-etl-shrink-');
    store = new FolderObjectStore(path.join(dir, 'store'));
    base = await buildSnapshot({
      store,
      inputs: demoBuildInputs(REPO_ROOT),
      snapshotTime: new Date('2026-11-20T00:00:00Z'),
    });
    headerOnly = path.join(dir, 'nppes-header-only.csv');
    const sample = await readFile(path.join(SOURCE_DATA, 'nppes_sample.csv'), 'utf8');
    await writeFile(headerOnly, `${sample.split('\r\n')[0]}\r\n`);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('counts the screening lists in the manifest and compares nothing on a first build', async () => {
    expect(base.counts).toMatchObject({ identity: 917, leie: expect.any(Number), fda_letters: 3954 });
    expect(base.counts.leie).toBeGreaterThan(0);
    expect(base.shrink).toEqual({ current_snapshot: null, max_share: 0.1, allowed: false, layers: expect.any(Array) });
    expect((await currentOf(store)).manifest.counts).toEqual(base.counts);
  });

  it('refuses to publish a header-only NPPES file over a full identity layer, naming the layer and both counts', async () => {
    const pointer = await pointerText();
    const before = await snapshotIds();
    const run = buildSnapshot({ store, inputs: { ...demoBuildInputs(REPO_ROOT), nppes: [headerOnly] } });
    await expect(run).rejects.toThrow(ShrinkRefused);
    await expect(run).rejects.toThrow(
      `refusing to publish: identity NPIs would drop from 917 to 0 (-100%), more than the 10% allowed against snapshot ${base.snapshot_id}`,
    );
    expect(await pointerText()).toBe(pointer);
    // Nothing of the refused snapshot was uploaded.
    expect(await snapshotIds()).toEqual(before);
  });

  it('refuses a drop past a lower configured share, and lets an equal snapshot through', async () => {
    const feed = path.join(REPO_ROOT, 'test', 'fixtures', 'api-edge', 'glp1');
    await expect(
      buildSnapshot({ store, inputs: { ...demoBuildInputs(REPO_ROOT), feeds: [feed] }, maxRejectShare: 1 }),
    ).rejects.toThrow(/tracked records would drop from 340 to \d+/);
    const same = await buildSnapshot({ store, inputs: demoBuildInputs(REPO_ROOT), maxShrinkShare: 0 });
    expect(same.shrink.layers.map((l) => [l.layer, l.current, l.next, l.shrinks])).toEqual([
      ['identity', 917, 917, false],
      ['tracked', 340, 340, false],
      ['verified', 200, 200, false],
      ['leie', base.counts.leie, base.counts.leie, false],
      ['fda_letters', 3954, 3954, false],
    ]);
  });

  it('publishes the shrunken snapshot when the operator allows it, and shows the comparison', async () => {
    const current = (await currentOf(store)).pointer.snapshot_id;
    const summary = await buildSnapshot({
      store,
      inputs: { ...demoBuildInputs(REPO_ROOT), nppes: [headerOnly] },
      allowShrink: true,
    });
    expect((await currentOf(store)).pointer.snapshot_id).toBe(summary.snapshot_id);
    expect(summary.counts.identity).toBe(0);
    expect(summary.shrink).toMatchObject({ current_snapshot: current, allowed: true });
    expect(summary.shrink.layers[0]).toEqual({ layer: 'identity', current: 917, next: 0, change: -1, shrinks: true });
  });

  it('does not compare a layer that an older manifest does not count', async () => {
    const restored = await buildSnapshot({ store, inputs: demoBuildInputs(REPO_ROOT) });
    // An older manifest: without the screening-list counts.
    const manifestFile = path.join(dir, 'store', restored.manifest_key);
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    delete manifest.counts.leie;
    delete manifest.counts.fda_letters;
    await writeFile(manifestFile, JSON.stringify(manifest));
    const emptyLists = path.join(dir, 'fda-header-only.csv');
    await writeFile(emptyLists, 'Posted Date,Letter Issue Date,Company Name,Issuing Office,Subject\n');
    const summary = await buildSnapshot({ store, inputs: { ...demoBuildInputs(REPO_ROOT), fda: [emptyLists] } });
    expect(summary.counts.fda_letters).toBe(0);
    expect(summary.shrink.layers.find((l) => l.layer === 'fda_letters')).toEqual({
      layer: 'fda_letters',
      current: null,
      next: 0,
      change: null,
      shrinks: false,
    });
  });

  it('compares nothing when the current snapshot cannot be read (an older layout), and publishes', async () => {
    const other = new FolderObjectStore(path.join(dir, 'old-layout'));
    const first = await buildSnapshot({ store: other, inputs: demoBuildInputs(REPO_ROOT) });
    const manifestFile = path.join(dir, 'old-layout', first.manifest_key);
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    await writeFile(manifestFile, JSON.stringify({ ...manifest, layout_version: 1 }));
    const summary = await buildSnapshot({
      store: other,
      inputs: { ...demoBuildInputs(REPO_ROOT), nppes: [headerOnly] },
    });
    expect(summary.shrink).toMatchObject({
      current_snapshot: null,
      unreadable_current: expect.stringMatching(/layout_version 1/),
    });
    expect((await currentOf(other)).pointer.snapshot_id).toBe(summary.snapshot_id);
  });
});
