import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { NpiLookupLine } from '../../../../data-contracts/layout';
import { makeNpi } from '../../../../data-contracts/npi-check';
import { MAX_NPI_BUCKET_LOADS, NpiBuckets, type UnzipBucket, unzipBucket } from '../../../../lambdas/query/npi-buckets';
import { FileSource } from '../../../../platform/identity-index/byte-source';
import { encodeNpiBucket } from '../../../../platform/npi-index/writer';

const nameOf = (line: NpiLookupLine | null) => (line !== null && 'name' in line ? line.name : undefined);

const recordOf = (npi: string, name = 'Smith Clinic') =>
  JSON.stringify({
    npi,
    status: 'active',
    entity_type: 'organization',
    name,
    organization_name: name,
    last_name: null,
    first_name: null,
    taxonomies: [],
    city: 'Boston',
    state: 'MA',
    postal_code: '02115',
    enumeration_date: '2010-01-01',
    last_update_date: '2026-01-01',
    oig_excluded: false,
    oig_type: null,
    oig_date: null,
    oig_checked_at: null,
  });

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pf-npi-buckets-'));
});

afterEach(async () => {
  jest.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

/** Writes the gzipped bucket object of `records` (in NPI order) and returns its path. */
async function bucketFile(name: string, records: string[]): Promise<string> {
  const file = path.join(dir, `${name}.npi.gz`);
  await writeFile(file, gzipSync(encodeNpiBucket(records)));
  return file;
}

/** An unzip that counts its calls, around the real one. */
function countingUnzip(): { unzip: UnzipBucket; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    unzip: async (gz, raw) => {
      calls.push(gz);
      await unzipBucket(gz, raw);
    },
  };
}

describe('NpiBuckets', () => {
  const npis = Array.from({ length: 300 }, (_, i) => makeNpi(String(100_000_000 + i * 13))).sort();

  it('finds every NPI of a bucket, first and last included, and answers null for the others', async () => {
    const records = npis.map((n, i) => recordOf(n, `Clinic ${i}`));
    const file = await bucketFile('a', records);
    const buckets = new NpiBuckets();
    const first = npis[0] as string;
    const last = npis[npis.length - 1] as string;
    expect(await buckets.find('k/a', async () => file, first)).toEqual(JSON.parse(records[0] as string));
    expect(await buckets.find('k/a', async () => file, last)).toEqual(
      JSON.parse(records[records.length - 1] as string),
    );
    for (const [i, npi] of npis.entries()) {
      expect(nameOf(await buckets.find('k/a', async () => file, npi))).toBe(`Clinic ${i}`);
    }
    expect(await buckets.find('k/a', async () => file, makeNpi('099999999'))).toBeNull();
    expect(await buckets.find('k/a', async () => file, makeNpi('100000001'))).toBeNull();
    expect(await buckets.find('k/a', async () => file, makeNpi('300000000'))).toBeNull();
    // Unzipped once, next to the object.
    expect(existsSync(`${file}.raw`)).toBe(true);
  });

  it('reads a bucket of one NPI', async () => {
    const npi = makeNpi('123456789');
    const file = await bucketFile('one', [recordOf(npi)]);
    const buckets = new NpiBuckets();
    expect((await buckets.find('k/one', async () => file, npi))?.npi).toBe(npi);
    expect(await buckets.find('k/one', async () => file, makeNpi('123456788'))).toBeNull();
  });

  it('returns names outside ASCII as written', async () => {
    const names = ['Zoë Ångström', 'Клиника', '診療所 🏥', 'O\u2019Brien "Quoted" \\ Back'];
    const some = npis.slice(0, names.length);
    const file = await bucketFile(
      'u',
      some.map((n, i) => recordOf(n, names[i])),
    );
    const buckets = new NpiBuckets();
    for (const [i, npi] of some.entries())
      expect(nameOf(await buckets.find('k/u', async () => file, npi))).toBe(names[i]);
  });

  it('shares one unzip among concurrent first lookups of a bucket', async () => {
    const file = await bucketFile(
      'c',
      npis.map((n) => recordOf(n)),
    );
    const { unzip, calls } = countingUnzip();
    const buckets = new NpiBuckets({ unzip });
    const found = await Promise.all(npis.map((npi) => buckets.find('k/c', async () => file, npi)));
    expect(found.map((r) => r?.npi)).toEqual(npis);
    expect(calls).toEqual([file]);
    // Only the finished file is left: no temporary one.
    expect((await readdir(dir)).sort()).toEqual(['c.npi.gz', 'c.npi.gz.raw']);
  });

  it(`unzips at most ${MAX_NPI_BUCKET_LOADS} buckets at once, and every lookup still answers`, async () => {
    let running = 0;
    let most = 0;
    const unzip: UnzipBucket = async (gz, raw) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      await unzipBucket(gz, raw);
      running -= 1;
    };
    const some = npis.slice(0, 30);
    const files = await Promise.all(some.map((npi) => bucketFile(npi, [recordOf(npi)])));
    const buckets = new NpiBuckets({ unzip });
    const found = await Promise.all(
      some.map((npi, i) => buckets.find(`k/${npi}`, async () => files[i] as string, npi)),
    );
    expect(found.map((line) => line?.npi)).toEqual(some);
    expect(most).toBe(MAX_NPI_BUCKET_LOADS);
    expect(running).toBe(0);
  });

  it('keeps at most its open files, closes the least recently used, and reopens them without a second unzip', async () => {
    const some = npis.slice(0, 5);
    const files = await Promise.all(some.map((npi) => bucketFile(npi, [recordOf(npi)])));
    const { unzip, calls } = countingUnzip();
    const closes = jest.spyOn(FileSource.prototype, 'close');
    const buckets = new NpiBuckets({ maxOpenFiles: 2, unzip });
    const find = (i: number) => buckets.find(`k/${i}`, async () => files[i] as string, some[i] as string);
    expect((await find(0))?.npi).toBe(some[0]);
    expect((await find(1))?.npi).toBe(some[1]);
    expect((await find(0))?.npi).toBe(some[0]); // 0 is now the most recently used
    expect((await find(2))?.npi).toBe(some[2]);
    expect(buckets.stats().open).toEqual(['k/0', 'k/2']);
    expect(closes).toHaveBeenCalledTimes(1);
    expect((await find(1))?.npi).toBe(some[1]);
    expect(buckets.stats().open).toEqual(['k/2', 'k/1']);
    expect(closes).toHaveBeenCalledTimes(2);
    expect(calls).toHaveLength(3);
    // Many buckets at once: every lookup answers, never more than two files open.
    const all = await Promise.all(some.map((_, i) => find(i)));
    expect(all.map((r) => r?.npi)).toEqual(some);
    expect(buckets.stats().open.length).toBeLessThanOrEqual(2);
    expect(calls).toHaveLength(5);
  });

  it('keeps its unzipped files within the disk budget, least recently used deleted first, unzipped again when used', async () => {
    const some = npis.slice(0, 3);
    const files = await Promise.all(some.map((npi) => bucketFile(npi, [recordOf(npi)])));
    const oneFile = encodeNpiBucket([recordOf(some[0] as string)]).length;
    const { unzip, calls } = countingUnzip();
    const buckets = new NpiBuckets({ maxRawBytes: 2 * oneFile, unzip });
    const find = (i: number) => buckets.find(`k/${i}`, async () => files[i] as string, some[i] as string);
    await find(0);
    await find(1);
    await find(0);
    await find(2); // 1 is the least recently used: its file goes
    expect(buckets.stats()).toMatchObject({ unzipped: ['k/0', 'k/2'], rawBytes: 2 * oneFile, open: ['k/0', 'k/2'] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(existsSync(`${files[1]}.raw`)).toBe(false);
    expect(existsSync(`${files[0]}.raw`)).toBe(true);
    expect((await find(1))?.npi).toBe(some[1]);
    expect(calls).toEqual([files[0], files[1], files[2], files[1]]);
    buckets.forget('k/');
    expect(buckets.stats()).toMatchObject({ unzipped: [], rawBytes: 0, open: [] });
  });

  it('forgets a released snapshot: its files closed, the others kept', async () => {
    const some = npis.slice(0, 3);
    const files = await Promise.all(some.map((npi) => bucketFile(npi, [recordOf(npi)])));
    const closes = jest.spyOn(FileSource.prototype, 'close');
    const buckets = new NpiBuckets();
    await buckets.find('snapshots/a/npi/0', async () => files[0] as string, some[0] as string);
    await buckets.find('snapshots/a/npi/1', async () => files[1] as string, some[1] as string);
    await buckets.find('snapshots/b/npi/2', async () => files[2] as string, some[2] as string);
    expect(buckets.stats().blockBytes).toBeGreaterThan(0);
    buckets.forget('snapshots/a/');
    expect(buckets.stats().open).toEqual(['snapshots/b/npi/2']);
    expect(closes).toHaveBeenCalledTimes(2);
    expect((await buckets.find('snapshots/b/npi/2', async () => files[2] as string, some[2] as string))?.npi).toBe(
      some[2],
    );
  });

  it('does not use a file that is not a bucket, and tries again on the next lookup', async () => {
    const npi = npis[0] as string;
    const file = path.join(dir, 'bad.npi.gz');
    await writeFile(file, gzipSync(`${recordOf(npi)}\n`));
    const { unzip, calls } = countingUnzip();
    const buckets = new NpiBuckets({ unzip });
    await expect(buckets.find('k/bad', async () => file, npi)).rejects.toThrow(/unreadable/);
    expect(buckets.stats().open).toEqual([]);
    await writeFile(file, gzipSync(encodeNpiBucket([recordOf(npi)])));
    expect((await buckets.find('k/bad', async () => file, npi))?.npi).toBe(npi);
    expect(calls).toHaveLength(2);
  });
});
