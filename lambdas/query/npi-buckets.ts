/**
 * The NPI lookup buckets of the process (data-contracts/layout.ts, `npi` objects): a bucket is fetched to local
 * disk by the snapshot cache on its first lookup, unzipped once, and held as its bytes plus the offsets of its
 * lines, within {@link DEFAULT_NPI_BUCKET_BYTES} (least recently used first out). A lookup is a binary search over
 * the line offsets comparing the 10 NPI bytes each line starts with, then one `JSON.parse` of the one line: no
 * object per NPI is built, and a bucket of 4,500 national NPIs costs its ~1.6 MB of bytes and 18 KB of offsets.
 *
 * One cache serves every snapshot of the process (keys hold the snapshot id); `forget` drops a released snapshot's.
 */
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { NpiLookupLine } from '../../data-contracts/layout';
import { InFlight } from '../../platform/in-flight';

const gunzipAsync = promisify(gunzip);

/** Unzipped bucket bytes held at most by default: about ten national buckets. */
export const DEFAULT_NPI_BUCKET_BYTES = 16 * 1024 * 1024;

/**
 * Bucket loads (read + unzip) running at once, at most: a batch of 100 NPIs on every connection must not unzip
 * hundreds of buckets side by side (memory grows with them); the rest wait their turn.
 */
export const MAX_NPI_BUCKET_LOADS = 4;

/** Every line starts with these bytes, then the 10 NPI digits. */
const LINE_HEAD = '{"npi":"';
const NPI_AT = LINE_HEAD.length;

interface Bucket {
  readonly body: Buffer;
  /** Start of each line; one more entry than lines, the end of the body. */
  readonly starts: Uint32Array;
}

/** Splits a bucket's bytes into line offsets (lines end with `\n`). */
export function indexLines(body: Buffer): Bucket {
  const starts: number[] = [0];
  for (let at = body.indexOf(10); at !== -1; at = body.indexOf(10, at + 1)) starts.push(at + 1);
  if (starts[starts.length - 1] !== body.length) starts.push(body.length);
  return { body, starts: Uint32Array.from(starts) };
}

/** The line of `npi` in a bucket (lines sorted by NPI), or null. */
export function findLine(bucket: Bucket, npi: string): NpiLookupLine | null {
  const target = Buffer.from(npi, 'latin1');
  let lo = 0;
  let hi = bucket.starts.length - 2;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const start = bucket.starts[mid] as number;
    const order = bucket.body.compare(target, 0, 10, start + NPI_AT, start + NPI_AT + 10);
    if (order === 0) {
      const end = bucket.starts[mid + 1] as number;
      return JSON.parse(bucket.body.toString('utf8', start, end)) as NpiLookupLine;
    }
    // `order` compares the line's NPI with the target.
    if (order < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
}

export class NpiBuckets {
  /** Held buckets, least recently used first. */
  private readonly held = new Map<string, Bucket>();
  private readonly loads = new InFlight<string, Bucket>();
  private bytes = 0;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  /**
   * @param maxBytes unzipped bucket bytes held at most
   * @param read reads a bucket's local file (tests observe the loads through it)
   */
  constructor(
    private readonly maxBytes = DEFAULT_NPI_BUCKET_BYTES,
    private readonly read: (file: string) => Promise<Buffer> = (file) => readFile(file),
  ) {}

  /**
   * The line of `npi` in bucket object `key`, whose local file `file()` gives (downloading it if needed).
   * @example await buckets.find(key, () => files.localPath(key), '1003633876')
   */
  async find(key: string, file: () => Promise<string>, npi: string): Promise<NpiLookupLine | null> {
    const held = this.held.get(key);
    if (held === undefined) return findLine(await this.loads.run(key, () => this.load(key, file)), npi);
    this.held.delete(key);
    this.held.set(key, held);
    return findLine(held, npi);
  }

  /** Drops the buckets whose key starts with `prefix` (a released snapshot's). */
  forget(prefix: string): void {
    for (const [key, bucket] of [...this.held]) {
      if (key.startsWith(prefix)) this.drop(key, bucket);
    }
  }

  /** Bytes held (tests). */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Runs `work` when fewer than {@link MAX_NPI_BUCKET_LOADS} loads run. */
  private async limited<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= MAX_NPI_BUCKET_LOADS) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next !== undefined) next();
      else this.running -= 1;
    }
  }

  private async load(key: string, file: () => Promise<string>): Promise<Bucket> {
    const path = await file();
    const bucket = await this.limited(async () => indexLines(await gunzipAsync(await this.read(path))));
    const size = bucket.body.length + bucket.starts.byteLength;
    // Oldest out until the new one fits; a bucket larger than the whole budget is used once and not held.
    for (const [old, held] of this.held) {
      if (this.bytes + size <= this.maxBytes) break;
      this.drop(old, held);
    }
    if (this.bytes + size <= this.maxBytes) {
      this.held.set(key, bucket);
      this.bytes += size;
    }
    return bucket;
  }

  private drop(key: string, bucket: Bucket): void {
    this.held.delete(key);
    this.bytes -= bucket.body.length + bucket.starts.byteLength;
  }
}
