/**
 * Typed queries over one snapshot and what they return. The core builds these from validated input; the
 * query layer answers them without SQL (`provider-queries.ts`): typed filters over the vertical layer that was
 * loaded into memory when the snapshot became current, and positional reads of the identity serving indexes.
 */
import type { ChangeKind, ChangesSpan } from '../../data-contracts/changes';
import type { BusinessMode, EntityType, PublishBoundary, Vertical } from '../../data-contracts/constants';
import type { IdentityRows } from '../../data-contracts/identity-json';
import type { LeieRelease } from '../../data-contracts/manifest';
import type { NpiRecordBytes } from '../../data-contracts/npi-record';
import type { VerticalRow } from '../../data-contracts/rows';
import type { NearZips } from '../../platform/identity-index/reader';

/** A page of the vertical layer, ordered by name then entity_id. */
export interface VerticalListQuery {
  vertical: Vertical;
  /** Upper-case two-letter code, or null. */
  state: string | null;
  /** Matched case-insensitively, or null. */
  city: string | null;
  businessMode: BusinessMode | null;
  boundary: PublishBoundary;
  limit: number;
  offset: number;
}

/** A radius filter as the core asks for it: a ZIP code (resolved against the snapshot's ZIP table) or a point. */
export interface NearInput {
  zip: string | null;
  latitude: number | null;
  longitude: number | null;
  radiusMiles: number;
}

/** A resolved circle: its centre, its radius and the ZIPs of the snapshot's ZIP table within it. */
export interface NearCircle {
  latitude: number;
  longitude: number;
  /** The ZIP asked for, or null for a point. */
  zip: string | null;
  radiusMiles: number;
  /** The ZIPs of the snapshot's ZIP table within the circle (computed on first use: the vertical path needs none). */
  zips(): NearZips;
  /** The 5-digit code of each of `zips().ranks` (computed on first use: only a name search needs them). */
  zipCodes(): readonly string[];
  /** The states (and territories) of those ZIPs, sorted (computed on first use). */
  states(): readonly string[];
}

/** How a `near` was resolved. */
export type NearResolution =
  | { kind: 'circle'; circle: NearCircle }
  /** The ZIP has no centroid in the snapshot's ZIP table. */
  | { kind: 'unknown_zip' }
  /** The snapshot has no ZIP table (built before radius search). */
  | { kind: 'unavailable' };

/** A page with each row's unrounded distance in miles from the circle's centre (nearest first). */
export interface NearPage<R> {
  total: number;
  rows: R;
  miles: Float64Array;
}

/** An identity radius query: a taxonomy (code or classification) or a name prefix, within a circle. */
export interface IdentityNearQuery {
  taxonomy: string | null;
  name: string | null;
  entityType: EntityType | null;
  circle: NearCircle;
  limit: number;
  offset: number;
}

/** A page of the identity layer, ordered by NPI. */
export interface IdentityListQuery {
  /** A 10-character NUCC code or a classification name (any case). */
  taxonomy: string;
  state: string | null;
  city: string | null;
  limit: number;
  offset: number;
}

/**
 * An identity search that is not a taxonomy list (lambdas/query/identity-search.ts): a roster of NPIs, or a name
 * prefix or postal code within `state`; the other fields narrow it.
 */
export interface IdentitySearchQuery {
  /** Distinct 10-digit NPIs, or null. */
  npis: string[] | null;
  /** Upper-case two-letter code; required unless `npis` is given. */
  state: string | null;
  /** A name prefix (at least 2 characters), or null. */
  name: string | null;
  /** 5 digits, or null. */
  postalCode: string | null;
  entityType: EntityType | null;
  /** A code or a classification name, or null. */
  taxonomy: string | null;
  city: string | null;
  limit: number;
  offset: number;
}

/** A page of the change feed (lambdas/query/changes.ts), in step order. */
export interface ChangesQuery {
  /** The changes of the steps whose `to_as_of` is after this time (ISO 8601, `YYYY-MM-DDTHH:MM:SSZ`). */
  after: string;
  /** Only these kinds, or null for every kind. */
  kinds: ChangeKind[] | null;
  /** Only changes of these NPIs (a roster), or null. */
  npis: string[] | null;
  /** Whether identity changes (keyed by NPI) are included. */
  identity: boolean;
  /** The verticals whose changes are included: null for every vertical, [] for none. */
  verticals: Vertical[] | null;
  limit: number;
  offset: number;
}

/** One change as the layer stores it: values are JSON text (null when none). */
export interface ChangeRow {
  kind: ChangeKind;
  npi: string | null;
  entity_id: string | null;
  vertical: string | null;
  field: string | null;
  old_value: string | null;
  new_value: string | null;
  from_snapshot: string;
  from_as_of: string;
  to_snapshot: string;
  to_as_of: string;
}

/** Rows of one page plus the size of the whole result. */
export interface Page<R> {
  total: number;
  rows: R[];
}

/** How a taxonomy parameter was understood. */
export type TaxonomyResolution =
  /** A code: rows holding exactly that code. `classificationKey` names the one partition to read. */
  | { kind: 'code'; code: string; classificationKey: string }
  /** A classification name: one row per NPI holding any code of it (`class_rep`). */
  | { kind: 'classification'; classification: string; classificationKey: string }
  /** Neither a known code, a code-shaped string, nor a known classification: an empty result. */
  | { kind: 'unknown' };

/** Read access to one pinned snapshot. */
export interface ProviderData {
  readonly snapshotId: string;
  /** The snapshot time (the manifest's `created_at`, which is also the coverage's `generated_at`): the data's as-of time. */
  readonly asOf: string;
  /** The LEIE files the snapshot was screened with (the manifest's `leie_files`; none for an older manifest). */
  readonly leieFiles: readonly LeieRelease[];
  listVertical(query: VerticalListQuery): Promise<Page<VerticalRow>>;
  /** One record by entity_id (preferred) or slug within the boundary, live verticals only. */
  findVertical(id: string, boundary: PublishBoundary): Promise<VerticalRow | null>;
  /** A page of identity rows, read from the index when the wire format asks for them. */
  listIdentity(query: IdentityListQuery): Promise<{ total: number; rows: IdentityRows }>;
  /** The circle of a `near`, against the snapshot's ZIP table. */
  resolveNear(near: NearInput): Promise<NearResolution>;
  /** A page of the vertical layer within a circle, nearest first (ties by entity_id). */
  listVerticalNear(query: VerticalListQuery, circle: NearCircle): Promise<NearPage<VerticalRow[]>>;
  /**
   * A page of identity rows within a circle, nearest first (ties by NPI); null when the snapshot's identity indexes
   * have no radius lists (built before radius search).
   */
  listIdentityNear(query: IdentityNearQuery): Promise<NearPage<IdentityRows> | null>;
  /** A page of a roster, name or postal-code search (one row per NPI). */
  searchIdentity(query: IdentitySearchQuery): Promise<{ total: number; rows: IdentityRows }>;
  resolveTaxonomy(taxonomy: string): TaxonomyResolution;
  /**
   * The wire record (status and complete JSON, data-contracts/npi-record.ts) of each valid 10-digit NPI, in the
   * order given, or null when the snapshot has none (never issued, rejected).
   */
  findNpis(npis: readonly string[]): Promise<(NpiRecordBytes | null)[]>;
  /** The change feed's kept span (the manifest's `changes`, or none for an older snapshot). */
  changesSpan(): ChangesSpan;
  /** A page of the kept changes. */
  listChanges(query: ChangesQuery): Promise<Page<ChangeRow>>;
  /** Whether the snapshot has the static object (a snapshot built before the coverage page has no page). */
  hasStatic(name: StaticName): boolean;
  /** The bytes of one of the snapshot's static objects. */
  readStatic(name: StaticName): Promise<Buffer>;
}

export const STATIC_NAMES = ['coverage', 'coveragePage', 'sampleJson', 'sampleCsv'] as const;
export type StaticName = (typeof STATIC_NAMES)[number];

/** Pins one snapshot for the duration of `work`. */
export interface SnapshotSource {
  withSnapshot<T>(work: (data: ProviderData) => Promise<T>): Promise<T>;
}
