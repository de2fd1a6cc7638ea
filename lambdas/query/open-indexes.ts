/**
 * Index objects held open by the process, for one kind of reader (the search indexes, the NPI buckets read in
 * place): at most `maxOpen` open (least recently used closed first), concurrent first uses of one object sharing
 * one open, every read run through `readInPlace` (platform/ranged) so that an object read in place fetches the
 * blocks it misses. One instance serves every snapshot of the process (keys hold the snapshot id); `forget` closes
 * a released snapshot's objects.
 */
import { BlockCache } from '../../platform/binary/block-cache';
import type { ByteSource } from '../../platform/binary/byte-source';
import { FileSource } from '../../platform/binary/file-source';
import { InFlight } from '../../platform/in-flight';
import { MissingBlocks, readInPlace } from '../../platform/ranged/read-in-place';
import type { IndexFile } from '../storage/snapshot-files';

/** Opens an object: a local file's path, or an {@link IndexFile} (lambdas/storage/snapshot-files.ts `openIndex`). */
export type OpenIndexFile = (cache: BlockCache) => Promise<string | IndexFile>;

interface Open<R> {
  readonly reader: R;
  readonly file: ByteSource & { close(): void };
  closed: boolean;
}

export class OpenIndexes<R> {
  /** Open objects, least recently used first. */
  private readonly open = new Map<string, Open<R>>();
  private readonly opening = new InFlight<string, Open<R>>();
  /** The blocks read from local files, shared by every open object of this kind. */
  private readonly blocks: BlockCache;

  /** `reader(source)` opens an object's reader (synchronously, over its bytes); `cacheBlocks` sizes the block cache. */
  constructor(
    private readonly reader: (source: ByteSource) => R,
    private readonly maxOpen: number,
    cacheBlocks: number,
  ) {
    this.blocks = new BlockCache(cacheBlocks);
  }

  /**
   * Runs `work` over the reader of object `key`, which `file(cache)` opens on its first use. An object closed
   * (evicted) while this call waited for it or for its blocks is opened again, never read closed.
   * @example await indexes.use(key, (cache) => files.openIndex(key, cache), (reader) => reader.search(q));
   */
  async use<T>(key: string, file: OpenIndexFile, work: (reader: R) => T): Promise<T> {
    for (;;) {
      const entry = await this.entry(key, file);
      if (entry.closed) continue;
      try {
        return await readInPlace(() => work(entry.reader));
      } catch (err) {
        if (!entry.closed) throw err;
      }
    }
  }

  /**
   * `work` over the reader of `key` when it is open and every byte `work` reads is here: answered at once, without a
   * promise; undefined otherwise (then {@link use}).
   */
  now<T>(key: string, work: (reader: R) => T): T | undefined {
    const entry = this.open.get(key);
    if (entry === undefined || entry.closed) return undefined;
    try {
      return work(entry.reader);
    } catch (err) {
      if (err instanceof MissingBlocks) return undefined;
      throw err;
    }
  }

  /** Closes the objects whose key starts with `prefix` (a released snapshot's). */
  forget(prefix: string): void {
    for (const [key, entry] of [...this.open]) if (key.startsWith(prefix)) this.close(key, entry);
  }

  /** Closes every object. */
  closeAll(): void {
    for (const [key, entry] of [...this.open]) this.close(key, entry);
  }

  /** Objects open now (tests). */
  get size(): number {
    return this.open.size;
  }

  private async entry(key: string, file: OpenIndexFile): Promise<Open<R>> {
    const held = this.open.get(key);
    if (held !== undefined) {
      this.open.delete(key);
      this.open.set(key, held);
      return held;
    }
    const opened = await this.opening.run(key, async () => {
      const found = await file(this.blocks);
      const source = typeof found === 'string' ? new FileSource(found, this.blocks) : found.source;
      try {
        return { reader: await readInPlace(() => this.reader(source)), file: source, closed: false };
      } catch (error) {
        source.close();
        throw error;
      }
    });
    if (!this.open.has(key) && !opened.closed) {
      this.open.set(key, opened);
      for (const [old, entry] of this.open) {
        if (this.open.size <= this.maxOpen) break;
        this.close(old, entry);
      }
    }
    return opened;
  }

  private close(key: string, entry: Open<R>): void {
    this.open.delete(key);
    entry.closed = true;
    entry.file.close();
  }
}
