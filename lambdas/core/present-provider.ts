/**
 * A vertical row as the caller's tier sees it, memoised per row: the rows of a snapshot are frozen objects that
 * live as long as the snapshot, so each (row, tier, publish_tier) view is built once and then shared by every
 * response (a 1,000-row page then costs no mapping at all). The views are frozen: nothing may mutate them.
 */
import type { Tier } from '../../data-contracts/constants';
import { providerFromRow, type VerticalRow } from '../../data-contracts/rows';
import type { Provider } from '../../data-contracts/types';
import { maskProvider } from '../masking/tier-masking';

type Variant = `${Tier}:${boolean}`;
const views = new WeakMap<VerticalRow, Map<Variant, Provider>>();

/** The masked Provider of `row` for `tier`, with `publish_tier` only when asked. */
export function presentProvider(row: VerticalRow, tier: Tier, withPublishTier: boolean): Provider {
  const variant: Variant = `${tier}:${withPublishTier}`;
  let byVariant = views.get(row);
  const known = byVariant?.get(variant);
  if (known) return known;
  const view = Object.freeze(maskProvider(providerFromRow(row, { withPublishTier }), tier));
  // Rows that are not frozen (built per call, e.g. in tests) are not remembered: they might change.
  if (Object.isFrozen(row)) {
    if (byVariant === undefined) {
      byVariant = new Map();
      views.set(row, byVariant);
    }
    byVariant.set(variant, view);
  }
  return view;
}
