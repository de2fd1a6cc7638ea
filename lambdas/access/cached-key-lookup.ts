/**
 * The key lookup the API uses per request: an in-process TTL cache in front of the keys table, which rides out an
 * outage of the table (stale-if-error).
 */

import { InFlight } from '../../platform/in-flight';
import type { Logger } from '../../platform/logger';
import { silentLogger } from '../../platform/logger';
import { setNewest } from '../../platform/lru';
import { ApiError } from '../core/api-error';
import type { KeyLookup, KeyRecord } from '../core/ports';
import { type ApiKeyRecord, hashKey, isWellFormedKey } from './api-key';

/** The metric name that a log-based metric filter matches on `keys_table_unavailable` lines (infra/monitoring). */
export const KEYS_UNAVAILABLE_METRIC = 'KeysTableUnavailable' as const;

/** Options of {@link CachedKeyLookup}. */
export interface CachedKeyLookupOptions {
  /** How long an answer (hit or miss) is reused. Default 5 s: revocations take effect within this time. */
  ttlSeconds?: number;
  /**
   * How long after its last successful read a key record keeps answering while the table cannot be read
   * (stale-if-error). Default 300 s (5 minutes), at most {@link MAX_STALE_IF_ERROR_SECONDS}; 0 turns it off. It is
   * also the worst case of a revocation during a keys-table incident: a key revoked just after its last read keeps
   * working in this process until the window ends.
   */
  staleIfErrorSeconds?: number;
  /**
   * While the table fails: how long a stale answer is reused before the table is asked again, and the
   * `Retry-After` of the 503 a key never seen gets. Default 1 s.
   */
  retryAfterSeconds?: number;
  /** A table read slower than this counts as a failure. Default 1,000 ms. */
  timeoutMs?: number;
  /** Most keys that exist (records of any status) kept; the least recently read is dropped first. Default 10,000. */
  maxEntries?: number;
  /**
   * Most well-formed keys the table does not know kept, apart from the records: no number of unknown keys can push a
   * real key out (and with it its stale-if-error cover). Default 10,000. Malformed keys are never stored: they are
   * refused without a read.
   */
  maxMisses?: number;
  /** Clock in epoch milliseconds; tests inject one. Default `Date.now`. */
  nowMs?: () => number;
  /** Where table failures are logged (the `KeysTableUnavailable` metric). Default: nowhere. */
  logger?: Logger;
}

interface CacheEntry<R> {
  record: R | null;
  /** Until when the answer is reused without asking the table. */
  expiresAtMs: number;
  /** When the table last gave this answer. */
  readAtMs: number;
}

/** The 503 of a key the process has no answer for while the keys table cannot be read. */
export function keysUnavailableError(retryAfterSeconds: number): ApiError {
  return new ApiError('service_unavailable', 'API keys cannot be checked at the moment. Please retry shortly.', {
    hint: `Retry after ${retryAfterSeconds} s; the failure was logged.`,
    retryAfterSeconds,
  });
}

/** The longest stale-if-error window a lookup accepts (5 minutes): the documented worst case of a revocation. */
export const MAX_STALE_IF_ERROR_SECONDS = 300;

/**
 * A {@link KeyLookup} with an in-process TTL cache in front of another lookup (the `KeyStore`). Misses are
 * cached too, in a bounded store of their own, so a flood of unknown keys costs one read per key per TTL and never
 * evicts a real key; a malformed key (not `pf_` and 43 base64url characters) is refused without a read and without
 * an entry. Entries are addressed by the key's hash, so no plaintext key stays in memory. Concurrent lookups of
 * the same key share one read.
 *
 * When the table fails (an error, or no answer within `timeoutMs`), a key whose record was read in the last
 * `staleIfErrorSeconds` keeps its last answer (an active key keeps working, a revoked one stays refused), and
 * the table is asked again after `retryAfterSeconds`; a key with no such record (never seen, or last seen
 * missing) gets 503 `service_unavailable` with `Retry-After`. Each failed read is logged as a warn line
 * `keys_table_unavailable` with `metric: 'KeysTableUnavailable'`. As soon as the table answers, its answer wins:
 * a revocation is seen within the TTL.
 *
 * @example
 * const keys = new CachedKeyLookup(new KeyStore({ client, tableName }), { ttlSeconds: 5, logger });
 */
export class CachedKeyLookup<R extends KeyRecord = ApiKeyRecord> implements KeyLookup<R> {
  /** Keys that exist, any status. */
  private readonly entries = new Map<string, CacheEntry<R>>();
  /** Well-formed keys the table does not know. */
  private readonly misses = new Map<string, CacheEntry<R>>();
  private readonly reads = new InFlight<string, R | null>();
  private readonly ttlMs: number;
  private readonly staleMs: number;
  private readonly retryAfterSeconds: number;
  private readonly timeoutMs: number;
  private readonly maxEntries: number;
  private readonly maxMisses: number;
  private readonly nowMs: () => number;
  private readonly logger: Logger;

  constructor(
    private readonly source: KeyLookup<R>,
    options: CachedKeyLookupOptions = {},
  ) {
    this.ttlMs = Math.max(0, (options.ttlSeconds ?? 5) * 1000);
    const staleSeconds = options.staleIfErrorSeconds ?? MAX_STALE_IF_ERROR_SECONDS;
    if (!(staleSeconds >= 0 && staleSeconds <= MAX_STALE_IF_ERROR_SECONDS)) {
      throw new RangeError(`staleIfErrorSeconds must be 0 to ${MAX_STALE_IF_ERROR_SECONDS}, got ${staleSeconds}`);
    }
    this.staleMs = staleSeconds * 1000;
    this.retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds ?? 1));
    this.timeoutMs = Math.max(1, options.timeoutMs ?? 1000);
    this.maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.maxMisses = Math.max(1, options.maxMisses ?? 10_000);
    this.nowMs = options.nowMs ?? Date.now;
    this.logger = options.logger ?? silentLogger;
  }

  /** Number of cached records of keys that exist (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  /** Number of cached misses (well-formed keys the table does not know). */
  get missCount(): number {
    return this.misses.size;
  }

  async findByKey(rawKey: string): Promise<R | null> {
    if (!isWellFormedKey(rawKey)) return null;
    const id = hashKey(rawKey);
    const cached = this.entries.get(id) ?? this.misses.get(id);
    if (cached && cached.expiresAtMs > this.nowMs()) return cached.record;
    // An expired entry stays until the read settles: it is the stale answer if the table fails.

    return this.reads.run(id, async () => {
      let record: R | null;
      try {
        record = await this.readSource(rawKey);
      } catch (err) {
        return this.answerWithoutTable(id, err);
      }
      this.remember(id, record);
      return record;
    });
  }

  /** Forgets one key at once (after a revoke in the same process). */
  invalidate(rawKey: string): void {
    const id = hashKey(rawKey);
    this.entries.delete(id);
    this.misses.delete(id);
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
    this.misses.clear();
  }

  private async readSource(rawKey: string): Promise<R | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new KeysTableTimeout(this.timeoutMs)), this.timeoutMs);
    });
    try {
      return await Promise.race([this.source.findByKey(rawKey), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The stale answer of a key while the table fails, or 503 when there is none within the bound. */
  private answerWithoutTable(id: string, err: unknown): R | null {
    const now = this.nowMs();
    // A miss never answers stale: only a record does (an active key keeps working, a revoked one stays refused).
    this.misses.delete(id);
    const entry = this.entries.get(id);
    const stale = entry !== undefined && now - entry.readAtMs <= this.staleMs;
    this.logger.warn('keys_table_unavailable', {
      metric: KEYS_UNAVAILABLE_METRIC,
      served: stale ? 'stale' : 'refused',
      errorName: err instanceof Error ? err.name : typeof err,
      ...(entry ? { staleForMs: now - entry.readAtMs } : {}),
      error: err instanceof Error ? err : String(err),
    });
    if (!stale || entry === undefined) {
      if (entry !== undefined && now - entry.readAtMs > this.staleMs) this.entries.delete(id);
      throw keysUnavailableError(this.retryAfterSeconds);
    }
    entry.expiresAtMs = now + Math.min(Math.max(this.ttlMs, 1), this.retryAfterSeconds * 1000);
    return entry.record;
  }

  private remember(id: string, record: R | null): void {
    if (this.ttlMs === 0 && this.staleMs === 0) return;
    const now = this.nowMs();
    const entry = { record, expiresAtMs: now + this.ttlMs, readAtMs: now };
    if (record === null) {
      // A key that no longer exists leaves the records; a miss is only worth its TTL.
      this.entries.delete(id);
      if (this.ttlMs > 0) setNewest(this.misses, id, entry, this.maxMisses);
    } else {
      this.misses.delete(id);
      setNewest(this.entries, id, entry, this.maxEntries);
    }
  }
}

/** A keys-table read that did not answer in time. */
class KeysTableTimeout extends Error {
  override readonly name = 'KeysTableTimeout';
  constructor(ms: number) {
    super(`the keys table did not answer within ${ms} ms`);
  }
}
