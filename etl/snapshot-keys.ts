/**
 * Keys the ETL adds to the snapshot layout of data-contracts/layout.ts: the screening lists a build used, so that a
 * later build that reuses this snapshot (the feed Lambda) screens new vertical records against the same lists.
 *
 * ```
 * snapshots/<id>/screens/oig-leie.parquet     npi, oig_type, oig_date, oig_checked_at (latest exclusion per NPI)
 * snapshots/<id>/screens/fda-letters.parquet  normalised, company, letter_date, issuing_office, url
 * ```
 * They are listed in the manifest with kind `static` (the contract has no `screens` kind yet).
 */
import { snapshotPrefix } from '../data-contracts/layout';

export const SCREEN_NAMES = ['oig-leie', 'fda-letters'] as const;
export type ScreenName = (typeof SCREEN_NAMES)[number];

export function screenKey(snapshotId: string, name: ScreenName): string {
  return `${snapshotPrefix(snapshotId)}screens/${name}.parquet`;
}
