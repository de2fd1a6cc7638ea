/**
 * The manifest of a snapshot (`snapshots/<id>/manifest.json`, written after every other object of the snapshot) and
 * the pointer to the current snapshot (`current.json`, written last): the layout version, the objects with their
 * sizes, SHA-256 and block digests, the sources read and the layers' counts. Where the objects live: layout.ts.
 */
import type { ChangesSpan } from './changes';
import type { PublishBoundary, Vertical } from './constants';

/**
 * 2: identity partitions carry a serving index (`identity_index` objects). 3: NPI lookup buckets in the binary
 * format (`records.npi.gz`) and the per-state identity search indexes (`search` objects). 4: block digests beside
 * the objects read in place, NPI buckets stored unzipped (`records.npi`). 5: the ZIP table (`zip_table`), identity
 * serving indexes with radius lists (version 5) and identity partitions with `postal_code` and `entity_type`. An API
 * reads the versions of
 * {@link READABLE_LAYOUT_VERSIONS} and refuses the others (their objects are not what it reads); a reusing build
 * asks for a full build first when the current snapshot is not of {@link LAYOUT_VERSION}.
 */
export const LAYOUT_VERSION = 5 as const;
/** The layouts the API reads: 3 (objects read whole, as before block digests), 4 and 5 (radius search needs 5). */
export const READABLE_LAYOUT_VERSIONS = [3, 4, 5] as const;
export type ReadableLayoutVersion = (typeof READABLE_LAYOUT_VERSIONS)[number];

/** The key of the block digests of the object at `key` (layout 4). */
export function blockDigestsKey(key: string): string {
  return `${key}.blocks`;
}

/**
 * Every stored key of a manifest's objects: each object's, and its block digests' (which its entry covers). What
 * copies a snapshot copies.
 */
export function storedKeysOf(objects: readonly Pick<ManifestObject, 'key' | 'block_digests'>[]): string[] {
  return objects.flatMap((o) => (o.block_digests === undefined ? [o.key] : [o.key, blockDigestsKey(o.key)]));
}

/** The pointer object at `current.json`. */
export interface SnapshotPointer {
  snapshot_id: string;
  manifest_key: string;
  published_at: string;
}

export const MANIFEST_OBJECT_KINDS = [
  'vertical',
  'identity',
  'identity_index',
  'taxonomy',
  'static',
  'rejects',
  /** Screening lists (before this kind existed they were listed as `static`; a reusing build accepts both). */
  'screen',
  /** NPI lookup buckets (`npi_bucket` names the bucket). */
  'npi',
  /** Identity search indexes (`state` names the state). */
  'search',
  /** The change feed's kept changes (`month` names the month) and the basis the next build compares against. */
  'changes',
  'changes_basis',
  /** A month's roster index of changes by NPI (`month` names the month). */
  'changes_npi',
  /** The ZIP table (ZIP centroids) the build placed identity rows with (layout 5). */
  'zip_table',
] as const;
export type ManifestObjectKind = (typeof MANIFEST_OBJECT_KINDS)[number];

/** One object of a snapshot, as listed in its manifest. */
export interface ManifestObject {
  key: string;
  kind: ManifestObjectKind;
  bytes: number;
  sha256: string;
  /** Rows in a Parquet object. */
  rows?: number;
  /** Vertical partitions. */
  boundary?: PublishBoundary;
  vertical?: Vertical;
  state?: string | null;
  /** Identity partitions and their serving indexes. */
  classification_key?: string;
  /** NPI lookup buckets. */
  npi_bucket?: string;
  /** Change partitions (`YYYY-MM`). */
  month?: string;
  /**
   * The block digests object of an object read in place (at {@link blockDigestsKey}): its size and SHA-256. Layout
   * 4's `identity_index`, `search` and `npi` objects have one.
   */
  block_digests?: { bytes: number; sha256: string };
}

/** Read / accepted / rejected counts for one source file. */
export interface SourceSummary {
  file: string;
  sha256: string;
  read: number;
  accepted: number;
  rejected: number;
  /** The as-of time of the source, when known (LEIE release, NPPES file date). */
  as_of?: string | null;
}

/**
 * A snapshot's layer counts: identity NPIs, vertical records (tracked, verified), NUCC codes, rejected rows, and the
 * rows of its screening lists (`leie`: OIG LEIE matches by NPI; `fda_letters`: FDA warning letters). `leie` and
 * `fda_letters` were added later: a manifest written before lacks them.
 */
export interface SnapshotCounts {
  identity: number;
  tracked: number;
  verified: number;
  taxonomies: number;
  rejects: number;
  leie?: number;
  fda_letters?: number;
}

/**
 * One OIG LEIE file a snapshot was screened with: the full list (`list`) or a monthly supplement of exclusions and
 * reinstatements (`supplement`), in the order the ETL applied them.
 */
export interface LeieRelease {
  /** The file's display name (no local path). */
  file: string;
  kind: 'list' | 'supplement';
  /** The file's release (as-of) time, ISO 8601. */
  release: string;
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
  /** Rows read from the file. */
  rows: number;
}

/** `snapshots/<id>/manifest.json`: written after every other object of the snapshot. */
export interface SnapshotManifest {
  layout_version: ReadableLayoutVersion;
  snapshot_id: string;
  /** The snapshot time: `generated_at` of its coverage, `checked_at` of its automated screens. */
  created_at: string;
  sources: Record<string, SourceSummary>;
  counts: SnapshotCounts;
  objects: ManifestObject[];
  /**
   * The change feed's kept span (data-contracts/changes.ts). A manifest written before the change feed lacks it: its
   * snapshot answers no `since` but itself, and the next build starts the chain.
   */
  changes?: ChangesSpan;
  /**
   * The LEIE files the snapshot's NPI records and identity rows were screened with, in the order applied (a build
   * that reuses the identity layers carries the reused manifest's). A manifest written before lacks it.
   */
  leie_files?: LeieRelease[];
}
