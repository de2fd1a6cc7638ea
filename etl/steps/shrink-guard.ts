/**
 * The shrink guard, before anything of the new snapshot is uploaded: each layer count of the new snapshot is
 * compared with the current snapshot's manifest; a drop of more than the allowed share refuses to publish (the
 * pointer stays where it is) unless the operator allows it for this run. A layer that the current manifest does not
 * count (a manifest written before the count existed) is not compared, nor is anything when the current snapshot
 * cannot be read at all (an older layout, which a build replaces).
 */
import type { SnapshotCounts } from '../../data-contracts/layout';
import type { ObjectStore } from '../../platform/object-store';
import { readCurrentSnapshot } from '../../platform/snapshot-protocol';

/** The default largest drop of a layer count that publishes without `--allow-shrink` (10%). */
export const DEFAULT_MAX_SHRINK_SHARE = 0.1;

/** The layers the guard compares, with the words of its messages. */
export const GUARDED_LAYERS = {
  identity: 'identity NPIs',
  tracked: 'tracked records',
  verified: 'verified records',
  leie: 'LEIE NPIs',
  fda_letters: 'FDA letters',
} as const satisfies Partial<Record<keyof SnapshotCounts, string>>;
export type GuardedLayer = keyof typeof GUARDED_LAYERS;

/** One layer's comparison; `current` null when the current snapshot does not count it (or there is none). */
export interface LayerComparison {
  layer: GuardedLayer;
  current: number | null;
  next: number;
  /** (next - current) / current; null without a comparison, or when current is 0. */
  change: number | null;
  /** True when the drop is past the allowed share. */
  shrinks: boolean;
}

export interface ShrinkCheck {
  /** The snapshot compared against, or null when the store has none (or none this code can read). */
  current_snapshot: string | null;
  /** Why the current snapshot could not be read (an older layout, a damaged manifest): nothing was compared. */
  unreadable_current?: string;
  max_share: number;
  allowed: boolean;
  layers: LayerComparison[];
}

/**
 * The guard's refusal: a layer of the new snapshot is smaller than the current snapshot's by more than the allowed
 * share. Nothing of the new snapshot was uploaded; the pointer is unchanged.
 */
export class ShrinkRefused extends Error {
  override readonly name = 'ShrinkRefused';

  constructor(
    message: string,
    readonly check: ShrinkCheck,
  ) {
    super(message);
  }
}

/**
 * Compares the new counts with the current manifest's.
 * @example compareCounts({ identity: 0, ... }, { identity: 917, ... }, 0.1)[0] // { layer: 'identity', current: 917, next: 0, change: -1, shrinks: true }
 */
export function compareCounts(
  next: SnapshotCounts,
  current: SnapshotCounts | null,
  maxShare: number,
): LayerComparison[] {
  return (Object.keys(GUARDED_LAYERS) as GuardedLayer[]).flatMap((layer) => {
    const n = next[layer];
    if (n === undefined) return [];
    const c = current?.[layer];
    const had = typeof c === 'number' ? c : null;
    const change = had === null || had === 0 ? null : (n - had) / had;
    return [{ layer, current: had, next: n, change, shrinks: change !== null && -change > maxShare }];
  });
}

/**
 * Reads the current snapshot's counts and compares; throws `ShrinkRefused` naming each shrinking layer and both
 * counts unless `allow` is set. Returns the comparison for the summary either way.
 */
export async function guardShrink(
  store: ObjectStore,
  next: SnapshotCounts,
  opts: { maxShare: number; allow: boolean },
): Promise<ShrinkCheck> {
  let current: Awaited<ReturnType<typeof readCurrentSnapshot>> = null;
  let unreadable: string | null = null;
  try {
    current = await readCurrentSnapshot(store);
  } catch (err) {
    // A current snapshot this code cannot read (an older layout) is being replaced: there are no counts to keep.
    unreadable = err instanceof Error ? err.message : String(err);
  }
  const layers = compareCounts(next, current?.manifest.counts ?? null, opts.maxShare);
  const check: ShrinkCheck = {
    current_snapshot: current?.pointer.snapshot_id ?? null,
    ...(unreadable === null ? {} : { unreadable_current: unreadable }),
    max_share: opts.maxShare,
    allowed: opts.allow,
    layers,
  };
  const shrinking = layers.filter((l) => l.shrinks);
  if (shrinking.length > 0 && !opts.allow) {
    const what = shrinking
      .map((l) => `${GUARDED_LAYERS[l.layer]} would drop from ${l.current} to ${l.next} (${formatChange(l.change)})`)
      .join('; ');
    throw new ShrinkRefused(
      `refusing to publish: ${what}, more than the ${formatShare(opts.maxShare)} allowed against snapshot ` +
        `${check.current_snapshot}; the pointer is unchanged (pass --allow-shrink to publish anyway)`,
      check,
    );
  }
  return check;
}

/** A change as a signed percentage: `-12.5%`, `+3%`. */
export function formatChange(change: number | null): string {
  if (change === null) return 'n/a';
  const pct = Math.round(change * 1000) / 10;
  return `${pct > 0 ? '+' : ''}${pct}%`;
}

function formatShare(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}
