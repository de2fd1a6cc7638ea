/**
 * A vertical row as the caller's tier sees it, memoised per row: the rows of a snapshot are frozen objects that
 * live as long as the snapshot, so each (row, tier, publish_tier) view is built once and then shared by every
 * response (a 1,000-row page then costs no mapping at all). The views are frozen: nothing may mutate them.
 */
import { TIERS, type Tier } from '../../data-contracts/constants';
import { providerFromRow, type VerticalRow } from '../../data-contracts/rows';
import type { Provider } from '../../data-contracts/types';
import { maskProvider } from '../masking/tier-masking';

type ViewMemos = Record<Tier, [WeakMap<VerticalRow, Provider>, WeakMap<VerticalRow, Provider>]>;

// One memo per (tier, publish_tier) variant, chosen before the row lookup: a 1,000-row page then costs 1,000
// WeakMap reads and nothing else (a per-row variant key string and a second map cost twice as much).
function emptyMemos(): ViewMemos {
  return Object.fromEntries(TIERS.map((t) => [t, [new WeakMap(), new WeakMap()]])) as ViewMemos;
}

/**
 * The memoised provider views of one process (built by the runtime, one per app): entries live as long as their
 * row, so a released snapshot takes its views with it.
 *
 * @example
 * const views = new ProviderViews();
 * const provider = views.present(row, 'free', false); // the same frozen object on every later call
 */
export class ProviderViews {
  private memos = emptyMemos();

  /** The masked Provider of `row` for `tier`, with `publish_tier` only when asked. */
  present(row: VerticalRow, tier: Tier, withPublishTier: boolean): Provider {
    const memo = this.memos[tier][withPublishTier ? 1 : 0];
    const known = memo.get(row);
    if (known) return known;
    const view = Object.freeze(maskProvider(providerFromRow(row, { withPublishTier }), tier));
    // Rows that are not frozen (built per call, e.g. in tests) are not remembered: they might change.
    if (Object.isFrozen(row)) memo.set(row, view);
    return view;
  }

  /** Forgets every view (tests and measurements of a cold process). */
  clear(): void {
    this.memos = emptyMemos();
  }
}
