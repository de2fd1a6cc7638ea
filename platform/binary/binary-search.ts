/**
 * The one binary search of the binary formats: over positions `[from, to)` of a sorted run (a section's fixed-width
 * entries, a string table's values, a run of fences), told by a callback where each probed position lies. Positions
 * are whatever the caller counts in (entries, 1-based ids); the callback reads the probed entry itself.
 *
 * Both loops are small on purpose: the engine inlines them into their caller, and the callback (an arrow function
 * written at the call site) into the loop, so a search costs what the hand-written loop cost, with no call through a
 * shared site and no allocation per probe.
 *
 * @example
 * // The entry of `npi` in a directory of `count` fixed-width entries, or -1:
 * findSorted(0, count, (i) => source.compareAt(at + i * ENTRY_BYTES, 10, needle));
 * // The first fence not before `key` (the start of a range of equal keys):
 * lowerBound(0, fences, (f) => compareFence(f, key) < 0);
 */

/**
 * The position in `[from, to)` of the entry sought, or -1 when no entry is it. `order(i)` says where entry `i` lies
 * against the one sought: negative, before it; 0, it is the one; positive, after it. The entries are sorted and
 * distinct (the first equal entry probed is the answer).
 */
export function findSorted(from: number, to: number, order: (i: number) => number): number {
  let lo = from;
  let hi = to - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const o = order(mid);
    if (o === 0) return mid;
    if (o < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The first position in `[from, to)` for which `before` is false, `to` when it is true everywhere: `before` is true,
 * then false, over the range (the start of a range of equal entries with `before(i) = entry i < key`, its end with
 * `entry i <= key`).
 */
export function lowerBound(from: number, to: number, before: (i: number) => boolean): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
