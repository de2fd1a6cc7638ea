/**
 * Least-recently-used bounds over a plain `Map`, which keeps insertion order: the young end is the last inserted. The
 * one helper of the process's small bounded caches (key lookups, exhausted keys, vertical filter matches).
 */

/** Stores `value` under `key` at the young end of `map`, then drops the oldest entries beyond `max`. */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}

/** The value of `key`, moved to the young end of `map` (a hit is recently used), or undefined. */
export function touch<K, V>(map: Map<K, V>, key: K): V | undefined {
  const value = map.get(key);
  if (value === undefined) return undefined;
  map.delete(key);
  map.set(key, value);
  return value;
}
