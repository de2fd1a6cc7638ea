/**
 * The snapshot layout: where every object lives in the object store (an S3 bucket, or a local folder with the
 * same key layout) and what each holds. The manifest and the pointer (manifest.ts), the lines of an NPI bucket
 * (npi-lines.ts) and the schema of every Parquet table (parquet-tables.ts) have their modules, re-exported here.
 *
 * Keys are relative to the store root. A snapshot is immutable once its manifest is written; the pointer
 * (`current.json`) is the only object that is ever overwritten, in one atomic write, after the manifest.
 *
 * ```
 * current.json                                             pointer to the current snapshot (written last)
 * public/coverage.json | public/coverage.html | public/sample.json | public/sample.csv
 *                                                          fixed keys served by the CDN, rebuilt hourly
 * snapshots/<id>/manifest.json                             written after every other object of the snapshot
 * snapshots/<id>/vertical/<boundary>/vertical=<v>/state=<ST>/data.parquet
 * snapshots/<id>/identity/classification=<key>/data.parquet
 * snapshots/<id>/identity-index/classification=<key>/index.bin   the partition's serving index (below)
 * snapshots/<id>/search/state=<ST>/index.bin                     the state's identity search index (below)
 * snapshots/<id>/taxonomy/taxonomy.parquet
 * snapshots/<id>/geo/zip-centroids.bin                        the ZIP table the build placed identity rows with
 *                                                           (platform/geo/zip-table.ts; layout 5)
 * snapshots/<id>/static/coverage.json | coverage.html | sample.json | sample.csv | openapi.json
 * snapshots/<id>/rejects/rejects.csv
 * snapshots/<id>/screens/oig-leie.parquet | fda-letters.parquet   the screening lists the build used (below)
 * snapshots/<id>/npi/bucket=<digits>/records.npi               the NPI lookup records of one NPI prefix (below)
 * <key of an identity-index, search or npi object>.blocks    its block digests (below)
 * snapshots/<id>/changes/basis.parquet | month=<YYYY-MM>/data.parquet | month=<YYYY-MM>/npi.bin   the change feed
 *                                                           (data-contracts/changes.ts)
 * ```
 *
 * Vertical partitions: `<boundary>` is `verified` (verified records only) or `tracked` (every record, verified
 * and internal_only). A record without a state goes to `state=_`.
 *
 * Identity partitions: one file per NUCC classification. Every identity query carries a taxonomy, which is a
 * code (one classification) or a classification name (one classification), so any identity query reads exactly
 * one file. A file holds one row per (active NPI, taxonomy code of that classification held by the NPI); the
 * `class_rep` flag marks the one row per NPI that answers a classification-name query (the primary code when it
 * is in the classification, else the lowest slot), so neither query shape needs a de-duplication at read time.
 * Rows are sorted by `taxonomy_code, state, npi` so that DuckDB's row-group statistics prune code and state filters.
 *
 * Identity serving index: for each identity partition, the same rows in a binary file that answers any identity
 * query (code or classification, state, city, limit, offset) in O(limit) with an exact total, read by the API with
 * positional reads or from memory, without DuckDB (format: `platform/identity-index/format.ts`).
 *
 * Identity search indexes (`search` objects): one file per practice state, one entry per active NPI of that state,
 * sorted by search name (the organisation name, or an individual's last name), with the postal code, entity type,
 * city and taxonomy codes: a `name` or `postal_code` search reads one state's file, a binary search and one pass over
 * the matching range (format: `platform/search-index/format.ts`). The page's rows come from the NPI lookup records.
 *
 * Screening lists (`screen` objects): the OIG matches and FDA letters a build screened against, so that a later build
 * that reuses this snapshot (the feed Lambda) screens new vertical records against the same lists. The API does not
 * read them. `oig-leie`: npi, oig_type, oig_date, oig_checked_at (latest exclusion per NPI); `fda-letters`:
 * normalised, company, letter_date, issuing_office, url.
 *
 * NPI lookup buckets (`npi` objects): every active NPI with its full identity record and every deactivated NPI
 * with its deactivation date, grouped by the NPI's first digits: as many digits as keep a bucket under
 * {@link NPI_BUCKET_TARGET} NPIs ({@link npiBucketDigits}; every bucket of a snapshot has the same width, 5 digits
 * at national scale: at most 20,000 buckets of about 450 NPIs). A lookup reads one bucket, so at national scale it
 * touches one small object. Each object is a binary file (format: `platform/npi-index/format.ts`; gzipped in
 * layout 3, `records.npi.gz`, stored as it is since layout 4 so that a record is a byte range): a
 * header, an uncompressed fixed-width directory of the bucket's NPIs (10 digits and the end offset of the NPI's
 * record, 16 bytes per NPI, sorted by NPI), then the records in NPI order: version 2 (written since 2026-11-26),
 * one record head per NPI (the answer's JSON record without its constant members, data-contracts/npi-record.ts);
 * version 1, one {@link NpiLookupLine} JSON text per NPI. The API unzips a bucket once per process to a local file
 * and then answers each lookup with a binary search over the directory and one positional read of the record,
 * through the page cache, without holding the bucket in the process (`lambdas/query/npi-buckets.ts`), and copies
 * a head into its answer without parsing it. Snapshots built before this format hold gzipped JSON
 * lines (`records.jsonl.gz`); a build that reuses one rewrites its buckets in this format (etl/writers/npi-buckets.ts).
 *
 * Block digests (layout 4): the objects the API reads in place by byte ranges (`identity_index`, `search`, `npi`)
 * each have a block digests object beside them (`<key>.blocks`, format: `platform/ranged/block-digests.ts`): the
 * SHA-256 of every 16 KB block and the ranges a reader consults first. The object's manifest entry holds the
 * digests object's size and SHA-256 (`block_digests`), so the manifest covers every block (docs/read-in-place.md).
 */
import type { PublishBoundary, Vertical } from './constants';

// The layout's other parts, each in its module, importable from here as one layout.
export * from './manifest';
export * from './npi-lines';
export * from './parquet-tables';

export const POINTER_KEY = 'current.json' as const;
export const PUBLIC_KEYS = {
  coverage: 'public/coverage.json',
  /** The coverage page: coverage.json's figures as HTML, with the map (etl/pages/coverage-page.ts). */
  coveragePage: 'public/coverage.html',
  sampleJson: 'public/sample.json',
  sampleCsv: 'public/sample.csv',
} as const;
export const STATIC_FILES = {
  coverage: 'coverage.json',
  coveragePage: 'coverage.html',
  sampleJson: 'sample.json',
  sampleCsv: 'sample.csv',
  openapi: 'openapi.json',
} as const;

/**
 * The classification key of taxonomy codes that the NUCC map does not know: their rows live in
 * `identity/classification=unmapped/`, so a query by such a code still reads exactly one file.
 */
export const UNMAPPED_CLASSIFICATION_KEY = 'unmapped' as const;

/** The state segment used for a vertical record that has no state (an online-only provider, say). */
export const NO_STATE_PARTITION = '_' as const;

const SNAPSHOT_ID_PATTERN = /^[0-9]{8}T[0-9]{6}Z-[a-z0-9]{6,16}$/;
const CLASSIFICATION_KEY_PATTERN = /^[a-z0-9-]{1,80}$/;
const STATE_PATTERN = /^[A-Z]{2}$/;

/** True when `id` has the form the ETL gives snapshot ids: `20261121T053800Z-1a2b3c`. */
export function isSnapshotId(id: string): boolean {
  return SNAPSHOT_ID_PATTERN.test(id);
}

function assertSegment(value: string, pattern: RegExp, what: string): string {
  if (!pattern.test(value)) throw new Error(`invalid ${what} for an object key: ${JSON.stringify(value)}`);
  return value;
}

/**
 * Turns a NUCC classification name into its partition key: lower case, every run of other characters a `-`.
 * @example classificationKey('Counselor') === 'counselor'; classificationKey('Nurse Practitioner') === 'nurse-practitioner'
 */
export function classificationKey(classification: string): string {
  const key = classification
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return key === '' ? 'unclassified' : key;
}

export function snapshotPrefix(snapshotId: string): string {
  return `snapshots/${assertSegment(snapshotId, SNAPSHOT_ID_PATTERN, 'snapshot id')}/`;
}

export function manifestKey(snapshotId: string): string {
  return `${snapshotPrefix(snapshotId)}manifest.json`;
}

export function verticalPartitionKey(
  snapshotId: string,
  boundary: PublishBoundary,
  vertical: Vertical,
  state: string | null,
): string {
  const st = state === null ? NO_STATE_PARTITION : assertSegment(state, STATE_PATTERN, 'state');
  return `${snapshotPrefix(snapshotId)}vertical/${boundary}/vertical=${vertical}/state=${st}/data.parquet`;
}

export function identityPartitionKey(snapshotId: string, classificationKeyValue: string): string {
  const key = assertSegment(classificationKeyValue, CLASSIFICATION_KEY_PATTERN, 'classification key');
  return `${snapshotPrefix(snapshotId)}identity/classification=${key}/data.parquet`;
}

export function identityIndexKey(snapshotId: string, classificationKeyValue: string): string {
  const key = assertSegment(classificationKeyValue, CLASSIFICATION_KEY_PATTERN, 'classification key');
  return `${snapshotPrefix(snapshotId)}identity-index/classification=${key}/index.bin`;
}

export function searchIndexKey(snapshotId: string, state: string): string {
  const st = assertSegment(state, STATE_PATTERN, 'state');
  return `${snapshotPrefix(snapshotId)}search/state=${st}/index.bin`;
}

/** The snapshot's ZIP table: each ZIP's centroid and state, as the radius lists were built with (layout 5). */
export function zipTableKey(snapshotId: string): string {
  return `${snapshotPrefix(snapshotId)}geo/zip-centroids.bin`;
}

export function taxonomyKey(snapshotId: string): string {
  return `${snapshotPrefix(snapshotId)}taxonomy/taxonomy.parquet`;
}

export function staticKey(snapshotId: string, file: (typeof STATIC_FILES)[keyof typeof STATIC_FILES]): string {
  return `${snapshotPrefix(snapshotId)}static/${file}`;
}

export function rejectsKey(snapshotId: string): string {
  return `${snapshotPrefix(snapshotId)}rejects/rejects.csv`;
}

/** The change feed's basis of a snapshot (data-contracts/changes.ts). */
export function changesBasisKey(snapshotId: string): string {
  return `${snapshotPrefix(snapshotId)}changes/basis.parquet`;
}

const MONTH_PATTERN = /^[0-9]{4}-(0[1-9]|1[0-2])$/;

/** A month partition of a snapshot's kept changes (`YYYY-MM`, the month of the step's `to_as_of`). */
export function changesPartitionKey(snapshotId: string, month: string): string {
  const m = assertSegment(month, MONTH_PATTERN, 'changes month');
  return `${snapshotPrefix(snapshotId)}changes/month=${m}/data.parquet`;
}

/**
 * A month's changes by NPI (`changes_npi` objects): the NPI lookup bucket format (platform/npi-index/format.ts), one
 * record per NPI with a change in the month, `{"npi":"…","rows":[…]}`, its rows as the month partition holds them
 * (CHANGES_TABLE columns, in step order). A roster query reads one record per asked NPI instead of scanning Parquet.
 */
export function changesNpiIndexKey(snapshotId: string, month: string): string {
  const m = assertSegment(month, MONTH_PATTERN, 'changes month');
  return `${snapshotPrefix(snapshotId)}changes/month=${m}/npi.bin`;
}

/** The screening lists of a snapshot (`screen` objects). */
export const SCREEN_NAMES = ['oig-leie', 'fda-letters'] as const;
export type ScreenName = (typeof SCREEN_NAMES)[number];

export function screenKey(snapshotId: string, name: ScreenName): string {
  return `${snapshotPrefix(snapshotId)}screens/${name}.parquet`;
}

/** The NPIs a bucket holds at most on average (the digits are chosen for it). */
export const NPI_BUCKET_TARGET = 1024 as const;
/** A bucket: 1 to 6 digits of the NPI prefix. */
export const NPI_BUCKET_PATTERN = /^[0-9]{1,6}$/;

/**
 * The bucket width (digits of the NPI prefix) for `count` NPIs: the fewest digits whose buckets hold at most
 * {@link NPI_BUCKET_TARGET} NPIs on average. NPIs start with 1 or 2, so `d` digits make about 2 * 10^(d-1) buckets.
 * @example npiBucketDigits(900) === 1; npiBucketDigits(1_000_000) === 4; npiBucketDigits(9_000_000) === 5
 */
export function npiBucketDigits(count: number): number {
  let digits = 1;
  while (digits < 6 && count / (2 * 10 ** (digits - 1)) > NPI_BUCKET_TARGET) digits += 1;
  return digits;
}

/** The bucket of a 10-digit NPI for a width. @example npiBucketOf('1234567893', 4) === '1234' */
export function npiBucketOf(npi: string, digits: number): string {
  return npi.slice(0, digits);
}

/** What every NPI bucket's key starts with, its digits next: `snapshots/<id>/npi/bucket=`. */
export function npiBucketsPrefix(snapshotId: string): string {
  return `${snapshotPrefix(snapshotId)}npi/bucket=`;
}

export function npiBucketKey(snapshotId: string, bucket: string): string {
  const b = assertSegment(bucket, NPI_BUCKET_PATTERN, 'NPI bucket');
  return `${npiBucketsPrefix(snapshotId)}${b}/records.npi`;
}

/** Prefix of every snapshot object. */
export const SNAPSHOTS_PREFIX = 'snapshots/' as const;

/**
 * The object tag that marks a snapshot's objects as superseded, and so eligible for lifecycle expiry. Written by
 * the hourly rebuild on every snapshot older than the current one, except the newest of them (the rollback
 * target). The current snapshot is never tagged, so no lifecycle rule can reach it.
 */
export const SNAPSHOT_RETENTION_TAG = { key: 'pf-snapshot', superseded: 'superseded' } as const;
