/**
 * The key lookup the API uses per request: an in-process TTL cache in front of the keys table.
 */
import { InFlight } from '../../platform/in-flight';
import type { KeyLookup, KeyRecord } from '../core/ports';
import { type ApiKeyRecord, hashKey } from './api-key';

/** Options of {@link CachedKeyLookup}. */
export interface CachedKeyLookupOptions {
  /** How long an answer (hit or miss) is reused. Default 5 s: revocations take effect within this time. */
  ttlSeconds?: number;
  /** Most entries kept; the oldest is dropped first. Default 10,000. */
  maxEntries?: number;
  /** Clock in epoch milliseconds; tests inject one. Default `Date.now`. */
  nowMs?: () => number;
}

interface CacheEntry<R> {
  record: R | null;
  expiresAtMs: number;
}

/**
 * A {@link KeyLookup} with an in-process TTL cache in front of another lookup (the `KeyStore`). Misses are
 * cached too, so a flood of bad keys costs one read per key per TTL. Entries are addressed by the key's hash,
 * so no plaintext key stays in memory. Concurrent lookups of the same key share one read. Errors are not cached.
 *
 * @example
 * const keys = new CachedKeyLookup(new KeyStore({ client, tableName }), { ttlSeconds: 5 });
 */
export class CachedKeyLookup<R extends KeyRecord = ApiKeyRecord> implements KeyLookup<R> {
  private readonly entries = new Map<string, CacheEntry<R>>();
  private readonly reads = new InFlight<string, R | null>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly nowMs: () => number;

  constructor(
    private readonly source: KeyLookup<R>,
    options: CachedKeyLookupOptions = {},
  ) {
    this.ttlMs = Math.max(0, (options.ttlSeconds ?? 5) * 1000);
    this.maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.nowMs = options.nowMs ?? Date.now;
  }

  /** Number of cached answers (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  async findByKey(rawKey: string): Promise<R | null> {
    const id = hashKey(rawKey);
    const cached = this.entries.get(id);
    if (cached && cached.expiresAtMs > this.nowMs()) return cached.record;
    if (cached) this.entries.delete(id);

    return this.reads.run(id, async () => {
      const record = await this.source.findByKey(rawKey);
      this.remember(id, record);
      return record;
    });
  }

  /** Forgets one key at once (after a revoke in the same process). */
  invalidate(rawKey: string): void {
    this.entries.delete(hashKey(rawKey));
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
  }

  private remember(id: string, record: R | null): void {
    if (this.ttlMs === 0) return;
    // Map keeps insertion order: deleting first moves a refreshed key to the young end.
    this.entries.delete(id);
    this.entries.set(id, { record, expiresAtMs: this.nowMs() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}
