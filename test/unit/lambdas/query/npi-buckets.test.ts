import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { NpiLookupLine } from '../../../../data-contracts/layout';
import { makeNpi } from '../../../../data-contracts/npi-check';
import {
  completeNpiRecord,
  type NpiRecordBytes,
  npiRecordHead,
  npiRecordOf,
  npiRecordText,
} from '../../../../data-contracts/npi-record';
import { MAX_NPI_BUCKET_LOADS, NpiBuckets } from '../../../../lambdas/query/npi-buckets';
import { UNZIP_CHUNK_BYTES, type UnzipBucket, unzipBucket } from '../../../../lambdas/query/npi-unzip';
import { silentLogger } from '../../../../platform/logger';
import { NPI_ENTRY_BYTES } from '../../../../platform/npi-index/format';
import { encodeNpiBucket } from '../../../../platform/npi-index/writer';

/** A field of a record as the lookups answer it. */
const fieldOf = (record: NpiRecordBytes | null | undefined, field: 'npi' | 'name'): string | undefined =>
  record === null || record === undefined
    ? undefined
    : (JSON.parse(npiRecordText(record)) as Record<string, string>)[field];
const nameOf = (record: NpiRecordBytes | null) => fieldOf(record, 'name');
const npiOf = (record: NpiRecordBytes | null | undefined) => fieldOf(record, 'npi');

const lineOf = (npi: string, name = 'Smith Clinic'): NpiLookupLine => ({
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

/** The stored head (bucket version 2) of an active NPI. */
const recordOf = (npi: string, name = 'Smith Clinic') => npiRecordHead(lineOf(npi, name));

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pf-npi-buckets-'));
});

let made: NpiBuckets[] = [];
afterEach(async () => {
  for (const buckets of made) buckets.close();
  made = [];
  await rm(dir, { recursive: true, force: true });
});

/** An NpiBuckets whose arena is in the test's folder (closed after the test). */
function newBuckets(options: ConstructorParameters<typeof NpiBuckets>[0] = {}): NpiBuckets {
  const buckets = new NpiBuckets({ arenaDir: path.join(dir, 'arena'), ...options });
  made.push(buckets);
  return buckets;
}

/** Writes the gzipped bucket object of `records` (in NPI order) and returns its path. */
async function bucketFile(name: string, records: string[]): Promise<string> {
  const file = path.join(dir, `${name}.npi.gz`);
  await writeFile(file, gzipSync(encodeNpiBucket(records, 2)));
  return file;
}

/** An unzip that counts its calls, around the real one. */
function countingUnzip(): { unzip: UnzipBucket; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    unzip: async (gz, sink) => {
      calls.push(gz);
      await unzipBucket(gz, sink);
    },
  };
}

describe('NpiBuckets', () => {
  const npis = Array.from({ length: 300 }, (_, i) => makeNpi(String(100_000_000 + i * 13))).sort();

  it('finds every NPI of a bucket, first and last included, and answers null for the others', async () => {
    const records = npis.map((n, i) => recordOf(n, `Clinic ${i}`));
    const file = await bucketFile('a', records);
    const buckets = newBuckets();
    const first = npis[0] as string;
    const last = npis[npis.length - 1] as string;
    expect(await buckets.find('k/a', async () => file, first)).toEqual(
      completeNpiRecord(Buffer.from(records[0] as string)),
    );
    expect(await buckets.find('k/a', async () => file, last)).toEqual(
      completeNpiRecord(Buffer.from(records[records.length - 1] as string)),
    );
    for (const [i, npi] of npis.entries()) {
      expect(nameOf(await buckets.find('k/a', async () => file, npi))).toBe(`Clinic ${i}`);
    }
    expect(await buckets.find('k/a', async () => file, makeNpi('099999999'))).toBeNull();
    expect(await buckets.find('k/a', async () => file, makeNpi('100000001'))).toBeNull();
    expect(await buckets.find('k/a', async () => file, makeNpi('300000000'))).toBeNull();
    // Unzipped once, into the arena.
    expect(buckets.stats()).toMatchObject({ placed: ['k/a'], generations: 1 });
    expect(await readdir(path.join(dir, 'arena'))).toEqual(['arena-1.bin']);
  });

  it('answers from the unzipped bytes when the arena cannot be written, logs it, and places the bucket later', async () => {
    const records = npis.map((n, i) => recordOf(n, `Clinic ${i}`));
    const file = await bucketFile('full', records);
    const warnings: { message: string; fields: Record<string, unknown> | undefined }[] = [];
    const logger = {
      ...silentLogger,
      warn: (message: string, fields?: Record<string, unknown>) => warnings.push({ message, fields }),
    };
    const { unzip, calls } = countingUnzip();
    const buckets = newBuckets({ unzip, logger });
    // No arena file can be made (folders hold their names): as a full or broken disk would refuse them.
    const blocked = Array.from({ length: 20 }, (_, i) => path.join(dir, 'arena', `arena-${i + 1}.bin`));
    for (const name of blocked) await mkdir(name);
    for (const [i, npi] of npis.slice(0, 5).entries())
      expect(nameOf(await buckets.find('k/full', async () => file, npi))).toBe(`Clinic ${i}`);
    expect(await buckets.find('k/full', async () => file, makeNpi('099999999'))).toBeNull();
    expect(buckets.stats().placed).toEqual([]);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toMatchObject({ message: 'npi_arena_write_failed', fields: { key: 'k/full' } });
    // Once the disk takes it again, the bucket is placed and later lookups no longer unzip.
    for (const name of blocked) await rm(name, { recursive: true });
    const unzipsBefore = calls.length;
    expect(nameOf(await buckets.find('k/full', async () => file, npis[7] as string))).toBe('Clinic 7');
    expect(buckets.stats().placed).toEqual(['k/full']);
    expect(nameOf(await buckets.find('k/full', async () => file, npis[8] as string))).toBe('Clinic 8');
    expect(calls.length).toBe(unzipsBefore + 1);
  });

  it('answers a version 1 bucket (lookup lines, a snapshot written before heads) with the same records', async () => {
    const lines = npis.slice(0, 40).map((n, i) => ({
      ...lineOf(n, `Clinic ${i}`),
      ...(i % 7 === 0 ? { oig_excluded: true, oig_type: '1128a1', oig_date: '2020-01-02', oig_checked_at: 'x' } : {}),
    }));
    const v1 = path.join(dir, 'v1.npi.gz');
    await writeFile(
      v1,
      gzipSync(
        encodeNpiBucket(
          lines.map((l) => JSON.stringify(l)),
          1,
        ),
      ),
    );
    const v2 = await bucketFile('v2', lines.map(npiRecordHead));
    const buckets = newBuckets();
    for (const line of lines) {
      const old = await buckets.find('k/v1', async () => v1, line.npi);
      expect(old).toEqual(npiRecordOf(line));
      expect(await buckets.find('k/v2', async () => v2, line.npi)).toEqual(old);
    }
  });

  it('answers lookups of a placed bucket at once (placedRecord), and nothing for a bucket not yet placed', async () => {
    const records = npis.slice(0, 20).map((n, i) => recordOf(n, `Clinic ${i}`));
    const file = await bucketFile('sync', records);
    const buckets = newBuckets();
    const first = npis[0] as string;
    expect(buckets.placedRecord('k/sync', first)).toBeUndefined();
    expect(await buckets.find('k/sync', async () => file, first)).toEqual(
      completeNpiRecord(Buffer.from(records[0] as string)),
    );
    for (const [i, npi] of npis.slice(0, 20).entries()) {
      expect(buckets.placedRecord('k/sync', npi)).toEqual(completeNpiRecord(Buffer.from(records[i] as string)));
    }
    expect(buckets.placedRecord('k/sync', makeNpi('099999999'))).toBeNull();
    expect(buckets.placedRecord('k/other', first)).toBeUndefined();
  });

  it('reads a bucket of one NPI', async () => {
    const npi = makeNpi('123456789');
    const file = await bucketFile('one', [recordOf(npi)]);
    const buckets = newBuckets();
    expect(npiOf(await buckets.find('k/one', async () => file, npi))).toBe(npi);
    expect(await buckets.find('k/one', async () => file, makeNpi('123456788'))).toBeNull();
  });

  it('returns names outside ASCII as written', async () => {
    const names = ['Zoë Ångström', 'Клиника', '診療所 🏥', 'O\u2019Brien "Quoted" \\ Back'];
    const some = npis.slice(0, names.length);
    const file = await bucketFile(
      'u',
      some.map((n, i) => recordOf(n, names[i])),
    );
    const buckets = newBuckets();
    for (const [i, npi] of some.entries())
      expect(nameOf(await buckets.find('k/u', async () => file, npi))).toBe(names[i]);
  });

  it('shares one unzip among concurrent first lookups of a bucket', async () => {
    const file = await bucketFile(
      'c',
      npis.map((n) => recordOf(n)),
    );
    const { unzip, calls } = countingUnzip();
    const buckets = newBuckets({ unzip });
    const found = await Promise.all(npis.map((npi) => buckets.find('k/c', async () => file, npi)));
    expect(found.map(npiOf)).toEqual(npis);
    expect(calls).toEqual([file]);
    // Nothing is written next to the object.
    expect((await readdir(dir)).sort()).toEqual(['arena', 'c.npi.gz']);
  });

  it(`unzips at most ${MAX_NPI_BUCKET_LOADS} buckets at once, and every lookup still answers`, async () => {
    let running = 0;
    let most = 0;
    const unzip: UnzipBucket = async (gz, sink) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      await unzipBucket(gz, sink);
      running -= 1;
    };
    const some = npis.slice(0, 30);
    const files = await Promise.all(some.map((npi) => bucketFile(npi, [recordOf(npi)])));
    const buckets = newBuckets({ unzip });
    const found = await Promise.all(
      some.map((npi, i) => buckets.find(`k/${npi}`, async () => files[i] as string, npi)),
    );
    expect(found.map(npiOf)).toEqual(some);
    expect(most).toBe(MAX_NPI_BUCKET_LOADS);
    expect(running).toBe(0);
  });

  it('keeps every bucket in one arena file, whatever their number, and unzips each once', async () => {
    const some = npis.slice(0, 40);
    const files = await Promise.all(some.map((npi) => bucketFile(npi, [recordOf(npi)])));
    const { unzip, calls } = countingUnzip();
    const buckets = newBuckets({ unzip });
    for (let round = 0; round < 3; round += 1) {
      const found = await Promise.all(
        some.map((npi, i) => buckets.find(`k/${i}`, async () => files[i] as string, npi)),
      );
      expect(found.map(npiOf)).toEqual(some);
    }
    expect(calls).toHaveLength(some.length);
    expect(buckets.stats().generations).toBe(1);
    expect(await readdir(path.join(dir, 'arena'))).toEqual(['arena-1.bin']);
  });

  it('keeps the arena within its disk budget: a full generation starts a new one, the older one is deleted and its buckets unzipped again on use', async () => {
    const some = npis.slice(0, 6);
    const files = await Promise.all(some.map((npi) => bucketFile(npi, [recordOf(npi)])));
    const oneFile = encodeNpiBucket([recordOf(some[0] as string)], 2).length;
    const { unzip, calls } = countingUnzip();
    // Two generations of two buckets each.
    const buckets = newBuckets({ maxArenaBytes: 4 * oneFile, unzip });
    const find = (i: number) => buckets.find(`k/${i}`, async () => files[i] as string, some[i] as string);
    for (const i of [0, 1, 2, 3]) expect(npiOf(await find(i))).toBe(some[i]);
    expect(buckets.stats()).toMatchObject({
      placed: ['k/0', 'k/1', 'k/2', 'k/3'],
      arenaBytes: 4 * oneFile,
      generations: 2,
    });
    expect(npiOf(await find(4))).toBe(some[4]); // generation 1 (buckets 0, 1) goes
    expect(buckets.stats()).toMatchObject({ placed: ['k/2', 'k/3', 'k/4'], generations: 2 });
    expect((await readdir(path.join(dir, 'arena'))).sort()).toEqual(['arena-2.bin', 'arena-3.bin']);
    expect(npiOf(await find(0))).toBe(some[0]);
    expect(calls).toEqual([files[0], files[1], files[2], files[3], files[4], files[0]]);
    // Many buckets at once, over a small arena: every lookup still answers.
    const all = await Promise.all(some.map((_, i) => find(i)));
    expect(all.map(npiOf)).toEqual(some);
    expect(buckets.stats().arenaBytes).toBeLessThanOrEqual(4 * oneFile);
  });

  it('forgets a released snapshot: its buckets dropped, the others kept', async () => {
    const some = npis.slice(0, 3);
    const files = await Promise.all(some.map((npi) => bucketFile(npi, [recordOf(npi)])));
    const { unzip, calls } = countingUnzip();
    const buckets = newBuckets({ unzip });
    await buckets.find('snapshots/a/npi/0', async () => files[0] as string, some[0] as string);
    await buckets.find('snapshots/a/npi/1', async () => files[1] as string, some[1] as string);
    await buckets.find('snapshots/b/npi/2', async () => files[2] as string, some[2] as string);
    expect(buckets.stats().directoryBytes).toBeGreaterThan(0);
    buckets.forget('snapshots/a/');
    // One NPI held: its directory entry is held as in the file, 16 bytes.
    expect(buckets.stats()).toMatchObject({ placed: ['snapshots/b/npi/2'], directoryBytes: NPI_ENTRY_BYTES });
    expect(npiOf(await buckets.find('snapshots/b/npi/2', async () => files[2] as string, some[2] as string))).toBe(
      some[2],
    );
    expect(calls).toHaveLength(3);
  });

  it('empties a previous process arena at start, and deletes its own on close', async () => {
    const arena = path.join(dir, 'arena');
    await rm(arena, { recursive: true, force: true });
    await mkdir(arena);
    await writeFile(path.join(arena, 'arena-7.bin'), 'old');
    const npi = npis[0] as string;
    const file = await bucketFile('x', [recordOf(npi)]);
    const buckets = newBuckets();
    expect(await readdir(arena)).toEqual([]);
    expect(npiOf(await buckets.find('k/x', async () => file, npi))).toBe(npi);
    buckets.close();
    expect(await readdir(arena)).toEqual([]);
  });

  it('does not use a file that is not a bucket, and tries again on the next lookup', async () => {
    const npi = npis[0] as string;
    const file = path.join(dir, 'bad.npi.gz');
    await writeFile(file, gzipSync(`${recordOf(npi)}\n`));
    const { unzip, calls } = countingUnzip();
    const buckets = newBuckets({ unzip });
    await expect(buckets.find('k/bad', async () => file, npi)).rejects.toThrow(/unreadable/);
    expect(buckets.stats().placed).toEqual([]);
    await writeFile(file, gzipSync(encodeNpiBucket([recordOf(npi)], 2)));
    expect(npiOf(await buckets.find('k/bad', async () => file, npi))).toBe(npi);
    expect(calls).toHaveLength(2);
  });

  it('streams a bucket to the arena in chunks, never holding it whole', async () => {
    const records = npis.map((n, i) => recordOf(n, `Clinic ${i} ${'x'.repeat(400)}`));
    const file = await bucketFile('big', records);
    const bytes = encodeNpiBucket(records, 2).length;
    expect(bytes).toBeGreaterThan(2 * UNZIP_CHUNK_BYTES);
    const chunks: number[] = [];
    const buckets = newBuckets({
      unzip: (gz, sink) =>
        unzipBucket(gz, async (chunk) => {
          chunks.push(chunk.length);
          await sink(chunk);
        }),
    });
    for (const [i, npi] of npis.entries()) {
      expect(nameOf(await buckets.find('k/big', async () => file, npi))).toBe(`Clinic ${i} ${'x'.repeat(400)}`);
    }
    expect(chunks.length).toBeGreaterThan(2);
    expect(Math.max(...chunks)).toBeLessThanOrEqual(UNZIP_CHUNK_BYTES);
    expect(chunks.reduce((a, b) => a + b, 0)).toBe(bytes);
    expect(buckets.stats().arenaBytes).toBe(bytes);
  });

  it('refuses a gzip object whose trailer does not give its size, or that is cut short, and places nothing', async () => {
    const npi = npis[0] as string;
    const whole = gzipSync(encodeNpiBucket([recordOf(npi)], 2));
    const lying = Buffer.from(whole);
    lying.writeUInt32LE(whole.readUInt32LE(whole.length - 4) - 10, whole.length - 4);
    const cases = { lying, cut: whole.subarray(0, whole.length - 12), tiny: whole.subarray(0, 10) };
    for (const [name, bytes] of Object.entries(cases)) {
      const file = path.join(dir, `${name}.npi.gz`);
      await writeFile(file, bytes);
      const buckets = newBuckets();
      await expect(buckets.find(`k/${name}`, async () => file, npi)).rejects.toThrow(/unreadable/);
      expect(buckets.stats().placed).toEqual([]);
    }
  });
});
