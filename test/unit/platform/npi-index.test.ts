import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { NpiLookupLine } from '../../../data-contracts/layout';
import { makeNpi } from '../../../data-contracts/npi-check';
import { BlockCache } from '../../../platform/binary/block-cache';
import { BufferSource } from '../../../platform/binary/byte-source';
import { FileSource } from '../../../platform/binary/file-source';
import { NPI_ENTRY_BYTES, NPI_INDEX_HEADER_BYTES, npiIndexMagic } from '../../../platform/npi-index/format';
import { NpiDirectory, NpiIndexReader } from '../../../platform/npi-index/reader';
import { encodeNpiBucket } from '../../../platform/npi-index/writer';

const nameOf = (line: unknown) =>
  line !== null && typeof line === 'object' && 'name' in line
    ? (line as NpiLookupLine & { name: string }).name
    : undefined;

const recordOf = (npi: string, name = 'A') =>
  JSON.stringify({ npi, status: 'active', name, oig_excluded: false, oig_type: null, oig_date: null });

describe('NPI lookup bucket format', () => {
  it('reads back every NPI of a bucket and no other', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 100_000_000, max: 299_999_999 }), { maxLength: 80 }),
        fc.string(),
        (bodies, name) => {
          const npis = bodies.map((b) => makeNpi(String(b))).sort();
          const records = npis.map((n) => recordOf(n, name));
          const reader = NpiIndexReader.open(new BufferSource(encodeNpiBucket(records, 1)));
          expect(reader.count).toBe(npis.length);
          for (const [i, npi] of npis.entries()) {
            expect(reader.indexOf(npi)).toBe(i);
            expect(reader.npiAt(i)).toBe(npi);
            expect(reader.recordBytes(i).toString('utf8')).toBe(records[i]);
            expect(reader.find(npi)).toEqual(JSON.parse(records[i] as string));
          }
          expect(reader.find(makeNpi('300000000'))).toBeNull();
          expect(reader.find(makeNpi('099999999'))).toBeNull();
        },
      ),
    );
  });

  it('lays out the header and the fixed-width directory as documented', () => {
    const records = [recordOf('1000000004', 'Zoë'), recordOf('1000000012')];
    const file = encodeNpiBucket(records, 1);
    expect(file.subarray(0, 8).equals(npiIndexMagic(1))).toBe(true);
    expect(encodeNpiBucket(records, 2).subarray(0, 8).toString('latin1')).toBe('PFNPI\0\0\x02');
    expect(NpiIndexReader.open(new BufferSource(encodeNpiBucket(records, 2))).version).toBe(2);
    expect(file.readUInt32LE(8)).toBe(2);
    expect(file.readUInt32LE(12)).toBe(0);
    const entry = (i: number) => file.subarray(NPI_INDEX_HEADER_BYTES + i * NPI_ENTRY_BYTES);
    expect(entry(0).toString('latin1', 0, 10)).toBe('1000000004');
    expect(entry(0).readUInt32LE(12)).toBe(Buffer.byteLength(records[0] as string));
    expect(entry(1).readUInt32LE(12)).toBe(Buffer.byteLength(records.join('')));
    expect(file.subarray(NPI_INDEX_HEADER_BYTES + 2 * NPI_ENTRY_BYTES).toString('utf8')).toBe(records.join(''));
  });

  it('refuses records out of order, duplicates and records without a leading NPI', () => {
    expect(() => encodeNpiBucket([recordOf('1000000012'), recordOf('1000000004')], 1)).toThrow(/order/);
    expect(() => encodeNpiBucket([recordOf('1000000004'), recordOf('1000000004')], 1)).toThrow(/order/);
    expect(() => encodeNpiBucket(['{"status":"active","npi":"1000000004"}'], 1)).toThrow(/must start/);
  });

  it('refuses a file that is not a bucket, or a truncated one', () => {
    expect(() => NpiIndexReader.open(new BufferSource(Buffer.from('{"npi":"1000000004"}\n')))).toThrow(/not an NPI/);
    const file = encodeNpiBucket([recordOf('1000000004')], 1);
    expect(() => NpiIndexReader.open(new BufferSource(file.subarray(0, file.length - 1)))).toThrow(/end/);
    expect(() => NpiIndexReader.open(new BufferSource(file.subarray(0, 20)))).toThrow(/out of bounds/);
  });

  it('reads an empty bucket', () => {
    const reader = NpiIndexReader.open(new BufferSource(encodeNpiBucket([], 1)));
    expect(reader.count).toBe(0);
    expect(reader.find('1000000004')).toBeNull();
  });

  it('finds every NPI and its record span through the decoded directory, as the file reader does', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 100_000_000, max: 999_999_999 }), { maxLength: 120 }),
        fc.array(fc.string(), { maxLength: 120 }),
        fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 20 }),
        (bodies, names, asked) => {
          const npis = bodies.map((b) => makeNpi(String(b))).sort();
          const records = npis.map((n, i) => recordOf(n, names[i % Math.max(1, names.length)] ?? 'A'));
          const file = encodeNpiBucket(records, 1);
          const reader = NpiIndexReader.open(new BufferSource(file));
          const directory = NpiDirectory.of(
            file.subarray(NPI_INDEX_HEADER_BYTES, NPI_INDEX_HEADER_BYTES + npis.length * NPI_ENTRY_BYTES),
            npis.length,
          );
          expect(directory.count).toBe(npis.length);
          expect(directory.bytes).toBe(NPI_ENTRY_BYTES * npis.length);
          const recordsAt = NPI_INDEX_HEADER_BYTES + npis.length * NPI_ENTRY_BYTES;
          for (const [i, npi] of npis.entries()) {
            expect(directory.indexOf(npi)).toBe(i);
            const [start, end] = directory.span(i);
            expect(file.toString('utf8', recordsAt + start, recordsAt + end)).toBe(records[i]);
          }
          // Anything else, an NPI of the bucket's range or any text, is absent for both readers.
          for (const text of [...asked, makeNpi('099999999'), makeNpi('300000000'), ' 1234567893', '1e9']) {
            expect(directory.indexOf(text)).toBe(reader.indexOf(text));
          }
        },
      ),
    );
  });

  it('reads a bucket file through a file source and its block cache', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pf-npi-index-'));
    try {
      // Records longer than a block, and a directory that spans blocks.
      const npis = Array.from({ length: 1500 }, (_, i) => makeNpi(String(100_000_000 + i * 7))).sort();
      const records = npis.map((n, i) => recordOf(n, i % 100 === 0 ? 'x'.repeat(20_000) : `Name ${i} – 名前`));
      const file = path.join(dir, 'bucket.raw');
      await writeFile(file, encodeNpiBucket(records, 1));
      const blocks = new BlockCache(4);
      const source = new FileSource(file, blocks);
      const reader = NpiIndexReader.open(source);
      for (const [i, npi] of npis.entries())
        expect(nameOf(reader.find(npi))).toBe(JSON.parse(records[i] as string).name);
      expect(reader.find(makeNpi('099999999'))).toBeNull();
      expect(blocks.bytes).toBeLessThanOrEqual(4 * 16 * 1024);
      source.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the block cache', () => {
  const block = (n: number) => Buffer.alloc(1, n);

  it('holds at most its capacity, keeps a block just added, and gives used blocks a second chance', () => {
    const cache = new BlockCache(3);
    for (const k of [1, 2, 3]) cache.set(k, block(k));
    cache.get(1);
    cache.get(2);
    cache.get(3);
    cache.set(4, block(4));
    expect(cache.bytes).toBe(3 * 16 * 1024);
    expect(cache.get(4)?.[0]).toBe(4);
    // Every older block was used: one of them goes, never the block just added.
    expect([1, 2, 3].filter((k) => cache.get(k) !== undefined)).toHaveLength(2);
  });

  it('drops the least recently used blocks first when some were not used again', () => {
    const cache = new BlockCache(3);
    for (const k of [1, 2, 3]) cache.set(k, block(k));
    cache.get(1);
    cache.set(4, block(4));
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)?.[0]).toBe(1);
    expect(cache.get(3)?.[0]).toBe(3);
    expect(cache.get(4)?.[0]).toBe(4);
  });

  it('reuses the memory of evicted blocks for misses, and a file read through it stays exact', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pf-block-cache-'));
    try {
      const bytes = Buffer.alloc(16 * 1024 * 40 + 123);
      for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 7919) % 251;
      const file = path.join(dir, 'blocks.bin');
      await writeFile(file, bytes);
      const cache = new BlockCache(3);
      const source = new FileSource(file, cache);
      const kept: [number, Buffer][] = [];
      fc.assert(
        fc.property(fc.nat(bytes.length - 1), fc.nat(40_000), (offset, wanted) => {
          const length = Math.min(wanted, bytes.length - offset);
          const slice = source.slice(offset, length);
          expect(slice.equals(bytes.subarray(offset, offset + length))).toBe(true);
          const word = Math.min(offset, bytes.length - 4);
          expect(source.u32(word)).toBe(bytes.readUInt32LE(word));
          kept.push([offset, slice]);
        }),
        { numRuns: 300 },
      );
      // Slices handed out earlier were copies: later misses that reused evicted blocks did not change them.
      for (const [offset, slice] of kept)
        expect(slice.equals(bytes.subarray(offset, offset + slice.length))).toBe(true);
      expect(cache.bytes).toBeLessThanOrEqual(3 * 16 * 1024);
      source.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stays within capacity under any sequence of reads', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 300 }),
        (capacity, keys) => {
          const cache = new BlockCache(capacity);
          for (const k of keys) {
            const hit = cache.get(k);
            if (hit === undefined) cache.set(k, block(k));
            else expect(hit[0]).toBe(k);
            expect(cache.bytes).toBeLessThanOrEqual(capacity * 16 * 1024);
            expect(cache.get(k)?.[0]).toBe(k);
          }
        },
      ),
    );
  });
});
