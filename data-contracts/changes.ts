/**
 * The change feed's data contract: what a snapshot's `changes` layer holds, how the ETL computes and
 * keeps it, and how `GET /api/v1/changes` reads it. Both sides build on this file only.
 *
 * ## Objects of a snapshot
 * ```
 * snapshots/<id>/changes/basis.parquet                 kind `changes_basis`: one row per NPI the snapshot knows
 * snapshots/<id>/changes/month=<YYYY-MM>/data.parquet  kind `changes` (`month` names the month): the changes kept
 * ```
 * - The **basis** is what the next build compares against: one row per NPI of the snapshot's NPPES input (active and
 *   deactivated), with the fields whose changes are reported ({@link CHANGES_BASIS_TABLE}). The vertical layer is
 *   compared through the previous snapshot's tracked vertical partitions, which it already has.
 * - The **changes** partitions hold every change of every step kept ({@link ChangesSpan}), partitioned by the month of
 *   the step's `to_as_of` (UTC), rows sorted by `npi, entity_id, kind, field` so that a roster's NPIs prune row
 *   groups. A build copies the previous snapshot's kept changes, drops the steps older than
 *   {@link CHANGES_RETENTION_MONTHS} months before its own as-of time, and adds its own step. Every month of a kept
 *   step has its partition, empty when the month's steps have no change. The `month=` path segment looks like a hive
 *   partition: DuckDB then adds a `month` column unless read with `hive_partitioning = false`.
 *
 * ## A step
 * One build = one step from the snapshot it replaces (the current one when it starts) to itself. The step's as-of
 * times are the two snapshots' `created_at` (the as-of time every response cites). A first build (no current
 * snapshot, or one without a basis) starts the chain: no step, `oldest_snapshot` is itself. A build that reuses the
 * current snapshot's identity layers (the feed Lambda) carries the basis over: its identity changes are none, its OIG
 * and vertical changes are computed as usual (the carried basis takes its OIG columns from the LEIE list the build
 * screens with, while the identity partitions and NPI lookups it copies keep theirs until the next full build).
 *
 * ## What is a change ({@link CHANGE_KINDS})
 * Identity (by `npi`; `entity_id` null). An NPI the new basis lacks (its row rejected this time, say) has no change:
 * nothing is known about it. A new exclusion date or type of an NPI matched in both snapshots is not a change.
 * - `oig_excluded`: the NPI is newly matched in the LEIE (also an NPI new to the basis that is matched). old null;
 *   new {@link OigChangeValue}.
 * - `oig_removed`: the NPI is no longer matched (reinstated, or removed from the list: NEVER a clearance, see the
 *   OIG rule: the LEIE carries an NPI for about 10.5% of its records). old {@link OigChangeValue}; new
 *   {@link OigRemovedValue}: `{"reason":"reinstated","date":"YYYY-MM-DD"}` when a supplement of the build reinstated
 *   the NPI's exclusion (basis `oig_reinstated`), else `{"reason":"not_listed"}`.
 * - `oig_candidate_added` / `oig_candidate_removed`: an OIG possible match (the wire `OigCandidate`) the NPI gained or
 *   lost; new (added) or old (removed) is the candidate, the other null; `field` null. A candidate is known by its
 *   LEIE row's key (`leie_key`, kept in the basis, never on the wire), so a change of strength or evidence alone is
 *   not a change. A previous basis without the `oig_candidates` column (written before candidates) gives no
 *   candidate change that step: every candidate would otherwise show as new.
 * - `npi_deactivated`: active before, deactivated now. old null; new `{"deactivation_date": "YYYY-MM-DD"}`.
 * - `npi_reactivated`: deactivated before, active now. old `{"deactivation_date": ...}`; new null.
 * - `npi_enumerated`: an NPI the previous basis did not have. old null; new `{"name", "primary_taxonomy", "state"}`.
 * - `name_changed` / `primary_taxonomy_changed` / `state_changed` (both snapshots active): old and new are JSON
 *   strings (or null). `field` is `name`, `primary_taxonomy` or `state`.
 * Vertical (by `entity_id`, with `vertical`, and `npi` when the record has one); only records `verified` in the new
 * snapshot, or verified in the old one for `verified_removed`: `internal_only` records never appear.
 * - `verified_added`: entered the verified set (new, or promoted from internal_only). old null; new
 *   `{"name", "state"}`.
 * - `verified_removed`: left the verified set (gone, or demoted). old `{"name", "state"}`; new null.
 * - `signal_changed`: a paid field of a record verified in both snapshots changed. `field` is `certification`,
 *   `license`, `fda` (old/new: the status string) or `price` (old/new: {@link PriceChangeValue}). Paid values: a
 *   free key sees the change with a LockedField in place of `old` and `new`.
 *
 * Values in Parquet are JSON text (`old_value`, `new_value`; SQL NULL when null).
 */
/** Months of changes a snapshot keeps (a customer who checks monthly never falls off the end). */
export const CHANGES_RETENTION_MONTHS = 13 as const;

/** The identity kinds (keyed by NPI) and the vertical kinds (keyed by entity_id). */
export const IDENTITY_CHANGE_KINDS = [
  'oig_excluded',
  'oig_removed',
  'oig_candidate_added',
  'oig_candidate_removed',
  'npi_deactivated',
  'npi_reactivated',
  'npi_enumerated',
  'name_changed',
  'primary_taxonomy_changed',
  'state_changed',
] as const;
export const VERTICAL_CHANGE_KINDS = ['verified_added', 'verified_removed', 'signal_changed'] as const;
/** Every kind: the identity kinds, then the vertical kinds. */
export const CHANGE_KINDS = [...IDENTITY_CHANGE_KINDS, ...VERTICAL_CHANGE_KINDS] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The `field` of a `*_changed` row. */
export const CHANGE_FIELDS = ['name', 'primary_taxonomy', 'state', 'certification', 'license', 'fda', 'price'] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number];
/** What a change entry says changed, in the order of its members (the API's JSON and CSV). */
export const CHANGE_WHAT_MEMBERS = ['kind', 'npi', 'entity_id', 'vertical', 'field', 'old', 'new'] as const;
/** The step of the chain a change entry was published in, after {@link CHANGE_WHAT_MEMBERS}. */
export const CHANGE_STEP_MEMBERS = ['from_snapshot', 'from_as_of', 'to_snapshot', 'to_as_of'] as const;

/** Fields whose values are paid (locked for a free key). */
export const PAID_CHANGE_FIELDS = [
  'certification',
  'license',
  'fda',
  'price',
] as const satisfies readonly ChangeField[];

export interface OigChangeValue {
  type: string | null;
  date: string | null;
}
/** The `new` of an `oig_removed` change: why the NPI is no longer matched. */
export type OigRemovedValue = { reason: 'reinstated'; date: string } | { reason: 'not_listed' };
export interface PriceChangeValue {
  range: string | null;
  monthly_min: number | null;
  monthly_max: number | null;
}

/** `changes/basis.parquet`: one row per NPI of the snapshot. */
export const CHANGES_BASIS_TABLE = {
  npi: 'VARCHAR',
  /** `active` or `deactivated`. */
  status: 'VARCHAR',
  deactivation_date: 'VARCHAR',
  /** The display name, as the identity layer builds it (null when deactivated). */
  name: 'VARCHAR',
  /** The primary taxonomy code (the primary slot, else the first non-empty one; null when deactivated). */
  primary_taxonomy: 'VARCHAR',
  /** The practice location's state (null when deactivated). */
  state: 'VARCHAR',
  oig_excluded: 'BOOLEAN',
  oig_type: 'VARCHAR',
  oig_date: 'VARCHAR',
  /**
   * The NPI's OIG possible matches: a JSON array of `{"key": leie_key, "candidate": OigCandidate}` in wire order,
   * NULL when none. Absent from a basis written before candidates (the diff then reports no candidate change).
   */
  oig_candidates: 'VARCHAR',
  /** `YYYY-MM-DD`: a supplement of the build reinstated the NPI's exclusion (the reason of `oig_removed`). */
  oig_reinstated: 'VARCHAR',
} as const;

/** `changes/month=<YYYY-MM>/data.parquet`. */
export const CHANGES_TABLE = {
  kind: 'VARCHAR',
  npi: 'VARCHAR',
  entity_id: 'VARCHAR',
  vertical: 'VARCHAR',
  field: 'VARCHAR',
  old_value: 'VARCHAR',
  new_value: 'VARCHAR',
  from_snapshot: 'VARCHAR',
  to_snapshot: 'VARCHAR',
  from_as_of: 'VARCHAR',
  to_as_of: 'VARCHAR',
} as const;
export type ChangesColumn = keyof typeof CHANGES_TABLE;

/** One step of the chain kept by a snapshot. */
export interface ChangesStep {
  from_snapshot: string;
  from_as_of: string;
  to_snapshot: string;
  to_as_of: string;
  /** Change rows of the step. */
  changes: number;
}

/**
 * The manifest's `changes` section: the steps kept, oldest first, forming a chain that ends at the snapshot itself
 * (`steps[i].to_snapshot === steps[i + 1].from_snapshot`). `oldest_snapshot` / `oldest_as_of` are the earliest
 * `since` the snapshot can answer: `steps[0].from_*`, or the snapshot itself when there is no step.
 */
export interface ChangesSpan {
  retention_months: typeof CHANGES_RETENTION_MONTHS;
  oldest_snapshot: string;
  oldest_as_of: string;
  steps: ChangesStep[];
}

/** The month partition of an as-of time (UTC). @example changesMonthOf('2026-11-25T10:00:00Z') === '2026-11' */
export function changesMonthOf(asOf: string): string {
  return asOf.slice(0, 7);
}
