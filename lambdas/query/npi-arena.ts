/**
 * The arena of the NPI lookup buckets (./npi-buckets.ts): local files that hold the unzipped buckets one after the
 * other, so that any number of buckets costs one open file, not one each. Two generations at most: when the current
 * one is full, the older one is retired (closed and deleted; its buckets are placed again on their next use) and a
 * new one starts.
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, write } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SlicedSource } from '../../platform/binary/byte-source';
import { readFully } from '../../platform/binary/file-source';

/** One arena file: append-only, read with positional reads. */
export interface Generation {
  readonly id: number;
  readonly file: string;
  fd: number | null;
  /** Bytes reserved so far (the next append's offset). */
  size: number;
}

/** The arena's generations: the current one (appended to) and the previous one (still read). */
export class NpiArena {
  private current: Generation | null = null;
  private previous: Generation | null = null;
  private nextGeneration = 1;

  /**
   * Files in `dir` (emptied now; null: a new temporary folder on first use), generations of `generationBytes`;
   * `onRetire` is told a generation before it is closed.
   */
  constructor(
    private dir: string | null,
    private readonly generationBytes: number,
    private readonly onRetire: (generation: Generation) => void,
  ) {
    if (dir !== null) {
      // A previous process's arena (a warm Lambda's /tmp) is of no use: its positions were in that process.
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    }
  }

  /** The generation a bucket of `bytes` is appended to: the current one, or a new one when it is full. */
  generationFor(bytes: number): Generation {
    if (this.current !== null && this.current.size + bytes <= this.generationBytes) return this.current;
    if (this.current !== null && this.current.size === 0) return this.current;
    if (this.previous !== null) this.retire(this.previous);
    this.previous = this.current;
    const dir = this.ensureDir();
    const id = this.nextGeneration++;
    const file = path.join(dir, `arena-${id}.bin`);
    this.current = { id, file, fd: openSync(file, 'w+'), size: 0 };
    return this.current;
  }

  /** The generations open, the older first. */
  generations(): Generation[] {
    return [this.previous, this.current].filter((g): g is Generation => g !== null);
  }

  /** Retires both generations. */
  close(): void {
    for (const generation of [this.previous, this.current]) if (generation !== null) this.retire(generation);
    this.previous = null;
    this.current = null;
  }

  /** Closes and deletes a generation. */
  private retire(generation: Generation): void {
    this.onRetire(generation);
    if (generation.fd !== null) closeSync(generation.fd);
    generation.fd = null;
    rmSync(generation.file, { force: true });
  }

  private ensureDir(): string {
    if (this.dir === null) this.dir = mkdtempSync(path.join(tmpdir(), 'pf-npi-arena-'));
    return this.dir;
  }
}

/** A bucket's bytes in an arena file, read positionally (the checks of a bucket just placed). */
export class ArenaSource extends SlicedSource {
  constructor(
    private readonly fd: number,
    private readonly base: number,
    readonly size: number,
  ) {
    super();
  }

  slice(offset: number, length: number): Buffer {
    if (offset < 0 || length < 0 || offset + length > this.size) throw new RangeError('NPI bucket: read out of bounds');
    const out = Buffer.allocUnsafe(length);
    readFully(this.fd, out, this.base + offset, 'NPI arena');
    return out;
  }
}

/** Writes `body` at `at` of the generation's file (positional, so concurrent appends do not interleave). */
export async function writeAt(generation: Generation, body: Buffer, at: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let done = 0;
    const step = () => {
      if (generation.fd === null) return resolve();
      write(generation.fd, body, done, body.length - done, at + done, (err, n) => {
        if (err) return reject(err);
        done += n;
        if (done >= body.length) resolve();
        else step();
      });
    };
    step();
  });
}
