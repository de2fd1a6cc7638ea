/**
 * The identity search indexes of the process (data-contracts/layout.ts, `search` objects): a state's file is
 * fetched to local disk by the snapshot cache on its first search and read with positional reads through the page
 * cache; the process holds only open file handles (at most {@link MAX_OPEN_SEARCH_FILES}, least recently used
 * closed first) and a small block cache, whatever the number of states searched.
 *
 * One instance serves every snapshot of the process (keys hold the snapshot id); `forget` closes a released
 * snapshot's files.
 */
import { BlockCache, type ByteSource, FileSource } from '../../platform/identity-index/byte-source';
import { InFlight } from '../../platform/in-flight';
import { readInPlace } from '../../platform/ranged/ranged-object';
import { SearchIndexReader, type SearchQuery, type SearchResult } from '../../platform/search-index/reader';
import type { IndexFile } from '../storage/snapshot-files';

/** Files open at once, at most (the 56 states and territories of one snapshot, and some of the next). */
export const MAX_OPEN_SEARCH_FILES = 64;
/** Blocks of the search block cache: 2 MB (README, "Memory and sizing": part of the native reserve). */
export const SEARCH_BLOCK_CACHE_BLOCKS = 128;

interface Open {
  readonly reader: SearchIndexReader;
  readonly file: ByteSource & { close(): void };
  closed: boolean;
}

export class SearchIndexes {
  /** Open files, least recently used first. */
  private readonly open = new Map<string, Open>();
  private readonly opening = new InFlight<string, Open>();
  private readonly blocks = new BlockCache(SEARCH_BLOCK_CACHE_BLOCKS);

  constructor(private readonly maxOpen = MAX_OPEN_SEARCH_FILES) {}

  /**
   * Runs `query` on search index object `key`, which `file(cache)` opens: a local file's path, or an
   * {@link IndexFile} read in place (ranges fetched between runs of the search). A file evicted while this call
   * waited is reopened, never read closed.
   * @example await indexes.search(key, (cache) => files.openIndex(key, cache), query);
   */
  async search(
    key: string,
    file: (cache: BlockCache) => Promise<string | IndexFile>,
    query: SearchQuery,
  ): Promise<SearchResult> {
    for (;;) {
      const entry = await this.entry(key, file);
      if (entry.closed) continue;
      try {
        return await readInPlace(() => entry.reader.search(query));
      } catch (err) {
        // Closed while its blocks were fetched: open it again.
        if (!entry.closed) throw err;
      }
    }
  }

  private async entry(key: string, file: (cache: BlockCache) => Promise<string | IndexFile>): Promise<Open> {
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
        return { reader: await readInPlace(() => SearchIndexReader.open(source)), file: source, closed: false };
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

  /** Closes the files whose key starts with `prefix` (a released snapshot's). */
  forget(prefix: string): void {
    for (const [key, entry] of [...this.open]) if (key.startsWith(prefix)) this.close(key, entry);
  }

  /** Files open now (tests). */
  get openFiles(): number {
    return this.open.size;
  }

  private close(key: string, entry: Open): void {
    this.open.delete(key);
    entry.closed = true;
    entry.file.close();
  }
}
