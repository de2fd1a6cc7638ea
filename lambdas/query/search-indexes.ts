/**
 * The identity search indexes of the process (data-contracts/layout.ts, `search` objects): a state's index is opened
 * on its first search, read in place (verified byte ranges of the object, docs/read-in-place.md) or from a local
 * file with positional reads through the page cache; the process holds only open objects (at most
 * {@link MAX_OPEN_SEARCH_FILES}, least recently used closed first) and a small block cache, whatever the number of
 * states searched.
 *
 * One instance serves every snapshot of the process (keys hold the snapshot id); `forget` closes a released
 * snapshot's files.
 */
import { SearchIndexReader, type SearchQuery, type SearchResult } from '../../platform/search-index/reader';
import { OpenIndexes, type OpenIndexFile } from './open-indexes';

/** Files open at once, at most (the 56 states and territories of one snapshot, and some of the next). */
export const MAX_OPEN_SEARCH_FILES = 64;
/** Blocks of the search block cache: 2 MB (part of the native reserve: data-contracts/memory-budget.ts). */
export const SEARCH_BLOCK_CACHE_BLOCKS = 128;

export class SearchIndexes {
  private readonly indexes: OpenIndexes<SearchIndexReader>;

  constructor(maxOpen = MAX_OPEN_SEARCH_FILES) {
    this.indexes = new OpenIndexes((source) => SearchIndexReader.open(source), maxOpen, SEARCH_BLOCK_CACHE_BLOCKS);
  }

  /**
   * Runs `query` on search index object `key`, which `file(cache)` opens.
   * @example await indexes.search(key, (cache) => files.openIndex(key, cache), query);
   */
  search(key: string, file: OpenIndexFile, query: SearchQuery): Promise<SearchResult> {
    return this.indexes.use(key, file, (reader) => reader.search(query));
  }

  /** Closes the files whose key starts with `prefix` (a released snapshot's). */
  forget(prefix: string): void {
    this.indexes.forget(prefix);
  }

  /** Files open now (tests). */
  get openFiles(): number {
    return this.indexes.size;
  }
}
