/**
 * A vertical row as the caller's tier sees it, memoised per row: the rows of a snapshot are frozen objects that
 * live as long as the snapshot, so each (row, tier, publish_tier) view is built once and then shared by every
 * response (a 1,000-row page then costs no mapping at all). The views are frozen: nothing may mutate them.
 */
import { TIERS, type Tier } from '../../data-contracts/constants';
import { providerFromRow, type VerticalRow } from '../../data-contracts/rows';
import type { Provider } from '../../data-contracts/types';
import { maskProvider } from '../masking/tier-masking';

// One memo per (tier, publish_tier) variant, chosen before the row lookup: a 1,000-row page then costs 1,000
// WeakMap reads and nothing else (a per-row variant key string and a second map cost twice as much).
const views = Object.fromEntries(TIERS.map((t) => [t, [new WeakMap(), new WeakMap()]])) as Record<
  Tier,
  [WeakMap<VerticalRow, Provider>, WeakMap<VerticalRow, Provider>]
>;

/** The masked Provider of `row` for `tier`, with `publish_tier` only when asked. */
export function presentProvider(row: VerticalRow, tier: Tier, withPublishTier: boolean): Provider {
  const memo = views[tier][withPublishTier ? 1 : 0];
  const known = memo.get(row);
  if (known) return known;
  const view = Object.freeze(maskProvider(providerFromRow(row, { withPublishTier }), tier));
  // Rows that are not frozen (built per call, e.g. in tests) are not remembered: they might change.
  if (Object.isFrozen(row)) memo.set(row, view);
  return view;
}
