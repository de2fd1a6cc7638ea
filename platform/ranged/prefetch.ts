/**
 * The ranges of a data object that its reader consults before any query (its header and directories), by kind:
 * what the block digests object lists as `prefetch` (./block-digests.ts), and what the API reads once per instance
 * when it opens the object.
 */
import type { ByteSource } from '../binary/byte-source';
import { FileSource } from '../binary/file-source';
import { IdentityIndexReader } from '../identity-index/reader';
import { npiRecordsStart } from '../npi-index/format';
import { NpiIndexReader } from '../npi-index/reader';
import { SearchIndexReader } from '../search-index/reader';
import type { ByteRange } from './block-digests';

/** The kinds of object read in place. */
export type RangedKind = 'identity_index' | 'search' | 'npi' | 'changes_npi';

export function isRangedKind(kind: string): kind is RangedKind {
  return kind === 'identity_index' || kind === 'search' || kind === 'npi' || kind === 'changes_npi';
}

/** The ranges of `source` (an object of `kind`) that its reader reads when it opens and on every query. */
export function prefetchRangesOf(kind: RangedKind, source: ByteSource): ByteRange[] {
  switch (kind) {
    case 'identity_index':
      // The meta region: header, code ranges, directory, dictionaries and OIG entries (identity-index/format.ts).
      return [[0, IdentityIndexReader.open(source).metaLength]];
    case 'npi':
    case 'changes_npi':
      // Header and directory (npi-index/format.ts); the records are read one range each.
      return [[0, npiRecordsStart(NpiIndexReader.open(source).count)]];
    case 'search': {
      // Header, the tables a page's cells are read from, the fences and the OIG entries (search-index/format.ts).
      const { sections } = SearchIndexReader.open(source).header;
      const head: ByteRange = [0, sections.entries[0]];
      const tables = ['city_keys', 'cities', 'dates', 'codes', 'code_classes', 'displays'] as const;
      const tail = ['name_fence', 'postal_fence', 'oig', 'oig_strings'] as const;
      return [head, ...[...tables, ...tail].map((name) => sections[name] as ByteRange)];
    }
  }
}

/** {@link prefetchRangesOf} a local file. */
export function prefetchRangesOfFile(kind: RangedKind, file: string): ByteRange[] {
  const source = new FileSource(file);
  try {
    return prefetchRangesOf(kind, source);
  } finally {
    source.close();
  }
}
