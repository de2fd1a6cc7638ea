import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BUILD_STEPS, type BuildStep, buildSnapshot } from '../../../etl/build';
import { demoBuildInputs } from '../../../etl/cli/demo-inputs';
import { parseCsv } from '../../../etl/csv/read';
import { EtlInputError } from '../../../etl/errors';
import { FolderObjectStore } from '../../../platform/folder-store';
import type { ObjectInfo, ObjectStore } from '../../../platform/object-store';
import { currentOf, expectSnapshotComplete, REPO_ROOT, tempDir } from './helpers';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures');

/** A store that fails every write after the first `okWrites` (puts and uploads). */
class FailingStore implements ObjectStore {
  readonly location: string;
  private writes = 0;

  constructor(
    private readonly inner: ObjectStore,
    private readonly okWrites: number,
  ) {
    this.location = inner.location;
  }

  private tick(key: string): void {
    this.writes += 1;
    if (this.writes > this.okWrites) throw new Error(`injected store failure on ${key}`);
  }

  head(key: string) {
    return this.inner.head(key);
  }
  getBytes(key: string) {
    return this.inner.getBytes(key);
  }
  getRange(key: string, offset: number, length: number) {
    return this.inner.getRange(key, offset, length);
  }
  download(key: string, filePath: string) {
    return this.inner.download(key, filePath);
  }
  list(prefix: string) {
    return this.inner.list(prefix);
  }
  getTags(key: string) {
    return this.inner.getTags(key);
  }
  setTags(key: string, tags: Record<string, string>) {
    return this.inner.setTags(key, tags);
  }
  async put(key: string, body: Buffer | string, contentType: string): Promise<ObjectInfo> {
    this.tick(key);
    return this.inner.put(key, body, contentType);
  }
  async upload(key: string, filePath: string, contentType: string): Promise<ObjectInfo> {
    this.tick(key);
    return this.inner.upload(key, filePath, contentType);
  }
}

describe('bad input and failed runs', () => {
  let dir: string;
  let store: FolderObjectStore;
  let pointerBytes: string;

  beforeAll(async () => {
    dir = await tempDir('pf-etl-fail-');
    store = new FolderObjectStore(path.join(dir, 'store'));
    await buildSnapshot({ store, inputs: demoBuildInputs(REPO_ROOT) });
    pointerBytes = (await store.getBytes('current.json'))?.body.toString('utf8') ?? '';
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('sets the bad feed rows aside with file, line and reason, as its README lists them', async () => {
    const summary = await buildSnapshot({
      store,
      inputs: { ...demoBuildInputs(REPO_ROOT), feeds: [path.join(FIXTURES, 'feed-bad')] },
      // A fixture of mostly bad rows that replaces the demo feed: both limits lifted.
      maxRejectShare: 1,
      allowShrink: true,
    });
    const providers = summary.sources.find((s) => s.source === 'feed_providers');
    const observations = summary.sources.find((s) => s.source === 'feed_observations');
    expect(providers).toMatchObject({ read: 10, accepted: 4, rejected: 6 });
    expect(observations).toMatchObject({ read: 13, accepted: 6, rejected: 7 });
    const csv = (await store.getBytes(`snapshots/${summary.snapshot_id}/rejects/rejects.csv`))?.body.toString('utf8');
    const [header, ...rows] = parseCsv(csv ?? '').filter((r) => r.raw !== '');
    expect(header?.fields).toEqual(['source', 'file', 'line', 'reason', 'raw']);
    const got = rows
      .filter((r) => r.fields[0]?.startsWith('feed_'))
      .map((r) => [path.basename(r.fields[1] ?? ''), Number(r.fields[2]), r.fields[3] ?? '']);
    const expected: [string, number, RegExp][] = [
      ['providers.csv', 5, /business_mode.*hybrid/],
      ['providers.csv', 6, /^overlong field: state has 3 characters, over its bound of 2$/],
      ['providers.csv', 7, /1900000055.*check digit/],
      ['providers.csv', 8, /duplicate slug summit-glp-1-clinic/],
      ['providers.csv', 9, /verified without a sourced signal/],
      ['providers.csv', 10, /duplicate entity_id glp1-900002/],
      ['observations.csv', 7, /unknown entity_id glp1-900008/],
      ['observations.csv', 8, /unknown entity_id glp1-900008/],
      ['observations.csv', 9, /unknown entity_id glp1-999999/],
      ['observations.csv', 10, /observed_at.*03\/14\/2026/],
      ['observations.csv', 11, /verified_at.*2026-02-01/],
      ['observations.csv', 12, /status.*pending/],
      ['observations.csv', 13, /states_count/],
    ];
    expect(got).toHaveLength(expected.length);
    for (const [file, line, reason] of expected) {
      const hit = got.find(([f, l]) => f === file && l === line);
      expect(hit).toBeDefined();
      expect(hit?.[2]).toMatch(reason);
    }
    expect(summary.counts.rejects).toBe(13);
    expect(summary.counts.tracked).toBe(4);
  });

  it('fails on a feed without a required column, naming the file and the column, pointer untouched', async () => {
    const before = (await store.getBytes('current.json'))?.body.toString('utf8');
    pointerBytes = before ?? '';
    const run = buildSnapshot({
      store,
      inputs: { ...demoBuildInputs(REPO_ROOT), feeds: [path.join(FIXTURES, 'feed-missing-column')] },
    });
    await expect(run).rejects.toThrow(EtlInputError);
    await expect(run).rejects.toThrow(/feed-missing-column\/providers\.csv: missing required column "business_mode"/);
    expect((await store.getBytes('current.json'))?.body.toString('utf8')).toBe(before);
  });

  it('fails on an unreadable NPPES file (binary), naming the file', async () => {
    const binary = path.join(dir, 'npidata.csv');
    await writeFile(binary, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff, 0x10]));
    await expect(buildSnapshot({ store, inputs: { ...demoBuildInputs(REPO_ROOT), nppes: [binary] } })).rejects.toThrow(
      /npidata\.csv: not a CSV text file/,
    );
    expect((await store.getBytes('current.json'))?.body.toString('utf8')).toBe(pointerBytes);
  });

  it('fails on an NPPES file missing a required column, naming the file and the column', async () => {
    const cut = path.join(dir, 'nppes-no-update.csv');
    await writeFile(cut, 'NPI,Entity Type Code\r\n1234567893,1\r\n');
    await expect(buildSnapshot({ store, inputs: { ...demoBuildInputs(REPO_ROOT), nppes: [cut] } })).rejects.toThrow(
      /nppes-no-update\.csv: missing required column "Provider Organization Name \(Legal Business Name\)"/,
    );
  });

  it('rejects bad NPPES rows with their line numbers and skips deactivated NPIs', async () => {
    const text = await readFile(path.join(REPO_ROOT, 'test/fixtures/source-data/nppes_sample.csv'), 'utf8');
    const [header, ...records] = parseCsv(text);
    const names = header?.fields ?? [];
    const col = (name: string) => names.indexOf(name);
    const rows = records.slice(0, 7).map((r) => [...r.fields]);
    const set = (row: string[] | undefined, name: string, value: string) => {
      if (row) row[col(name)] = value;
    };
    set(rows[1], 'NPI', '1234567890'); // line 3: check digit fails
    set(rows[2], 'Last Update Date', '15/6/26'); // line 4: not a date
    set(rows[3], 'Entity Type Code', '3'); // line 5: unknown entity type
    set(rows[4], 'Provider First Name', ''); // line 6: no name (individual)
    set(rows[4], 'Provider Last Name (Legal Name)', '');
    set(rows[4], 'Provider Middle Name', '');
    set(rows[4], 'Provider Name Suffix Text', '');
    set(rows[5], 'NPI Deactivation Date', '1/2/25'); // line 7: deactivated, skipped
    set(rows[5], 'NPI Reactivation Date', '');
    // CMS form: every field quoted, LF.
    const quote = (fields: string[]) => fields.map((f) => `"${f.replace(/"/g, '""')}"`).join(',');
    const file = path.join(dir, 'nppes-bad.csv');
    await writeFile(file, `${[names, ...rows].map(quote).join('\n')}\n`);
    const summary = await buildSnapshot({
      store,
      inputs: { ...demoBuildInputs(REPO_ROOT), nppes: [file] },
      maxRejectShare: 1,
      allowShrink: true,
    });
    expect(summary.sources.find((s) => s.source === 'nppes')).toMatchObject({
      read: 7,
      accepted: 2,
      rejected: 4,
      skipped: 1,
    });
    const csv = (await store.getBytes(`snapshots/${summary.snapshot_id}/rejects/rejects.csv`))?.body.toString('utf8');
    const got = parseCsv(csv ?? '')
      .slice(1)
      .filter((r) => r.fields[0] === 'nppes')
      .map((r) => [Number(r.fields[2]), r.fields[3]]);
    expect(got).toEqual([
      [3, 'invalid NPI: check digit fails: 1234567890'],
      [4, 'unparseable Last Update Date: 15/6/26'],
      [5, 'unknown Entity Type Code: 3'],
      [6, 'active NPI without a name'],
    ]);
    expect(summary.counts.identity).toBe(2);
  });

  it.each(BUILD_STEPS.filter((s) => BUILD_STEPS.indexOf(s) < BUILD_STEPS.indexOf('pointer')))(
    'leaves the pointer and the previous snapshot untouched when the run fails after step %s',
    async (step) => {
      const { pointer } = await currentOf(store);
      pointerBytes = (await store.getBytes('current.json'))?.body.toString('utf8') ?? '';
      await expect(
        buildSnapshot({ store, inputs: demoBuildInputs(REPO_ROOT), failAfterStep: step as BuildStep }),
      ).rejects.toThrow(`simulated failure after step "${step}"`);
      expect((await store.getBytes('current.json'))?.body.toString('utf8')).toBe(pointerBytes);
      await expectSnapshotComplete(store, pointer.manifest_key);
    },
  );

  it.each([1, 40, 120])('leaves everything untouched when the store fails after %i writes', async (okWrites) => {
    const { pointer } = await currentOf(store);
    pointerBytes = (await store.getBytes('current.json'))?.body.toString('utf8') ?? '';
    await expect(
      buildSnapshot({ store: new FailingStore(store, okWrites), inputs: demoBuildInputs(REPO_ROOT) }),
    ).rejects.toThrow(/injected store failure/);
    expect((await store.getBytes('current.json'))?.body.toString('utf8')).toBe(pointerBytes);
    await expectSnapshotComplete(store, pointer.manifest_key);
  });

  it('keeps the snapshot readable when only the public objects fail (after the pointer)', async () => {
    const run = buildSnapshot({ store, inputs: demoBuildInputs(REPO_ROOT), failAfterStep: 'pointer' });
    await expect(run).rejects.toThrow(/after step "pointer"/);
    const { pointer } = await currentOf(store);
    await expectSnapshotComplete(store, pointer.manifest_key);
  });
});
