/**
 * Ranged reads (platform/ranged) against a brute-force reader of the same bytes, on generated data: every slice,
 * u32 and comparison a reader can make returns the bytes of the object, through a tiny memory cache and a tiny
 * local disk (so that blocks come and go), whatever the block size and object size; every block is verified, a bad
 * block is fetched once more and then refused; concurrent reads of a block share one GET.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeNpi } from '../../../data-contracts/npi-check';
import { BufferSource } from '../../../platform/binary/byte-source';
import { NpiIndexReader } from '../../../platform/npi-index/reader';
import { encodeNpiBucket } from '../../../platform/npi-index/writer';
import { BlockDigests, blockDigestsOf, IntegrityError } from '../../../platform/ranged/block-digests';
import { prefetchRangesOf } from '../../../platform/ranged/prefetch';
import { type FetchRange, RangedObject } from '../../../platform/ranged/ranged-object';
import { MissingBlocks, readInPlace } from '../../../platform/ranged/read-in-place';
import { createRangedStorage } from '../../../platform/ranged/storage';

/** A deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pf-ranged-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** An object of `bytes` read in place with blocks of `blockBytes`, through `fetch` (default: the bytes). */
function ranged(
  bytes: Buffer,
  blockBytes: number,
  options: { fetch?: FetchRange; cacheBlocks?: number; diskBlocks?: number; name?: string } = {},
) {
  const digests = BlockDigests.parse(
    blockDigestsOf(bytes, [[0, Math.min(bytes.length, 100)]], blockBytes),
    bytes.length,
  );
  const calls = { gets: 0, bytes: 0 };
  const fetch: FetchRange =
    options.fetch ??
    (async (offset, length) => {
      calls.gets += 1;
      calls.bytes += length;
      return Buffer.from(bytes.subarray(offset, offset + length));
    });
  const storage = createRangedStorage({
    cacheBytes: (options.cacheBlocks ?? 16) * 16 * 1024,
    diskBytes: (options.diskBlocks ?? 4) * blockBytes,
  });
  const object = new RangedObject(
    'k',
    digests,
    fetch,
    storage,
    options.name === undefined ? null : path.join(dir, options.name),
  );
  return { object, calls, storage };
}

describe('ranged reads against the bytes', () => {
  it.each([
    [1, 0],
    [2, 1],
    [3, 1023],
    [4, 1024],
    [5, 4097],
    [6, 70_001],
    [7, 300_000],
  ])("seed %i, %i bytes: every read returns the object's bytes", async (seed, size) => {
    const next = random(seed);
    const bytes = Buffer.from(Array.from({ length: size }, () => Math.floor(next() * 256)));
    for (const blockBytes of [64, 1000, 4096]) {
      const { object, calls } = ranged(bytes, blockBytes, {
        cacheBlocks: 16,
        diskBlocks: 8,
        name: `o-${seed}-${blockBytes}`,
      });
      await object.open();
      for (let i = 0; i < 300; i += 1) {
        const offset = Math.floor(next() * (size + 1));
        const length = Math.floor(next() * Math.min(size - offset + 1, next() < 0.2 ? 20_000 : 40));
        const expected = bytes.subarray(offset, offset + length);
        expect(Buffer.compare(await readInPlace(() => object.slice(offset, length)), expected)).toBe(0);
        expect(Buffer.compare(await readInPlace(() => object.read(offset, length)), expected)).toBe(0);
        const needle = Buffer.from(expected);
        if (needle.length > 0 && next() < 0.5) needle[needle.length - 1] = ((needle.at(-1) as number) + 1) % 256;
        expect(await readInPlace(() => object.compareAt(offset, length, needle))).toBe(
          Buffer.compare(expected, needle),
        );
        if (offset + 4 <= size) expect(await readInPlace(() => object.u32(offset))).toBe(bytes.readUInt32LE(offset));
      }
      // A read outside the object is an error, never bytes.
      expect(() => object.slice(size, 1)).toThrow(RangeError);
      // Each GET is at most one run of adjacent blocks: never more bytes than the blocks asked for.
      expect(calls.bytes).toBeLessThanOrEqual(calls.gets * Math.max(blockBytes, 1024 * 1024));
      object.close();
    }
  });

  it('fetches every block a reader says it needs in one round', async () => {
    const bytes = Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => i % 251));
    const { object, calls } = ranged(bytes, 1024, { cacheBlocks: 64 });
    const ranges = [0, 10, 20, 30, 40].map((k) => [k * 1024 + 5, 8] as const);
    let rounds = 0;
    const out = await readInPlace(() => {
      rounds += 1;
      object.need(ranges);
      return ranges.map(([o, l]) => object.slice(o, l));
    });
    expect(rounds).toBe(2);
    expect(calls.gets).toBe(5);
    expect(out.map((b) => b.toString('hex'))).toEqual(ranges.map(([o, l]) => bytes.subarray(o, o + l).toString('hex')));
    // Adjacent missing blocks come in one GET.
    await object.fetch([50, 51, 52, 53]);
    expect(calls.gets).toBe(6);
  });

  it('shares one GET between concurrent reads of a block', async () => {
    const bytes = Buffer.alloc(10_000, 7);
    const { object, calls } = ranged(bytes, 1000);
    await Promise.all([object.fetch([3]), object.fetch([3]), object.fetch([2, 3, 4])]);
    // Block 3 once, and blocks 2 and 4 around it.
    expect(calls.bytes).toBe(3000);
    expect(object.slice(3000, 1000).equals(Buffer.alloc(1000, 7))).toBe(true);
  });

  it('keeps blocks on local disk beyond its memory and answers from there without a GET', async () => {
    const bytes = Buffer.from(Array.from({ length: 40 * 1024 }, (_, i) => (i * 7) % 256));
    const { object, calls, storage } = ranged(bytes, 1024, { cacheBlocks: 1, diskBlocks: 40, name: 'disk' });
    await object.fetch(Array.from({ length: 40 }, (_, i) => i));
    const gets = calls.gets;
    for (let i = 0; i < 40; i += 1)
      expect(object.slice(i * 1024, 1024).equals(bytes.subarray(i * 1024, (i + 1) * 1024))).toBe(true);
    expect(calls.gets).toBe(gets);
    expect(storage.disk.usedBytes).toBe(40 * 1024);
    object.close();
    expect(storage.disk.usedBytes).toBe(0);
  });

  it('fetches a bad block once more, then refuses it', async () => {
    const bytes = Buffer.from(Array.from({ length: 8192 }, (_, i) => i % 256));
    let bad = 1;
    const flaky: FetchRange = async (offset, length) => {
      const out = Buffer.from(bytes.subarray(offset, offset + length));
      if (bad > 0) {
        bad -= 1;
        out[0] = (out[0] as number) ^ 1;
      }
      return out;
    };
    const once = ranged(bytes, 1024, { fetch: flaky });
    expect((await readInPlace(() => once.object.slice(2048, 16))).equals(bytes.subarray(2048, 2064))).toBe(true);

    const corrupt: FetchRange = async (offset, length) => {
      const out = Buffer.from(bytes.subarray(offset, offset + length));
      out[length - 1] = (out[length - 1] as number) ^ 1;
      return out;
    };
    const always = ranged(bytes, 1024, { fetch: corrupt });
    await expect(readInPlace(() => always.object.slice(4096, 16))).rejects.toBeInstanceOf(IntegrityError);
    // Nothing of it was kept: the read still misses.
    expect(() => always.object.slice(4096, 16)).toThrow(MissingBlocks);
    const short: FetchRange = async (offset, length) => Buffer.from(bytes.subarray(offset, offset + length - 1));
    await expect(readInPlace(() => ranged(bytes, 1024, { fetch: short }).object.slice(0, 8))).rejects.toThrow(
      IntegrityError,
    );
  });

  it('refuses digests that do not describe the object', () => {
    const bytes = Buffer.alloc(5000, 1);
    const digests = blockDigestsOf(bytes, [[0, 100]], 1024);
    expect(() => BlockDigests.parse(digests, 5001)).toThrow('do not describe');
    expect(() => BlockDigests.parse(digests.subarray(0, digests.length - 1), 5000)).toThrow('do not describe');
    expect(() => BlockDigests.parse(blockDigestsOf(bytes, [[4990, 100]], 1024), 5000)).toThrow('do not describe');
    expect(() => BlockDigests.parse(Buffer.from('not digests at all'), 5000)).toThrow('not block digests');
  });
});

describe('an NPI bucket read in place', () => {
  it('finds every NPI as the whole bucket does, and reads only its directory and records', async () => {
    const next = random(11);
    const npis = [
      ...new Set(Array.from({ length: 2000 }, () => makeNpi(String(100000000 + Math.floor(next() * 899999999))))),
    ].sort();
    const records = npis.map((npi) => JSON.stringify({ npi, name: 'x'.repeat(Math.floor(next() * 400)) }));
    const bytes = encodeNpiBucket(records, 2);
    const whole = NpiIndexReader.open(new BufferSource(bytes));
    const prefetch = prefetchRangesOf('npi', new BufferSource(bytes));
    const digests = BlockDigests.parse(blockDigestsOf(bytes, prefetch), bytes.length);
    let fetched = 0;
    const object = new RangedObject(
      'npi',
      digests,
      async (offset, length) => {
        fetched += length;
        return Buffer.from(bytes.subarray(offset, offset + length));
      },
      createRangedStorage(),
      null,
    );
    await object.open();
    const reader = await readInPlace(() => NpiIndexReader.open(object));
    for (const npi of [...npis.filter(() => next() < 0.005), makeNpi('199999999'), makeNpi('100000000')]) {
      expect((await readInPlace(() => reader.findBytes(npi)))?.toString('hex')).toBe(
        whole.findBytes(npi)?.toString('hex'),
      );
    }
    // Its directory and a dozen records' blocks, not the bucket.
    expect(fetched).toBeLessThan(bytes.length / 2);
  });
});
