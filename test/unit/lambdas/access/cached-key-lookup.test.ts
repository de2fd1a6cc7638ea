import { type ApiKeyRecord, generateApiKey, hashKey, toKeyPrefix } from '../../../../lambdas/access/api-key';
import { CachedKeyLookup, KEYS_UNAVAILABLE_METRIC } from '../../../../lambdas/access/cached-key-lookup';
import type { KeyLookup } from '../../../../lambdas/core/ports';
import { createJsonLogger } from '../../../../platform/logger';

/** An in-memory lookup that counts its reads; `records` may change between calls, like the table. */
function fakeSource() {
  const records = new Map<string, ApiKeyRecord>();
  const source = {
    reads: 0,
    records,
    async findByKey(rawKey: string) {
      source.reads += 1;
      return records.get(rawKey) ?? null;
    },
  } satisfies KeyLookup & { reads: number; records: Map<string, ApiKeyRecord> };
  return source;
}

function recordFor(key: string, status: ApiKeyRecord['status'] = 'active'): ApiKeyRecord {
  return {
    keyHash: hashKey(key),
    keyPrefix: toKeyPrefix(key),
    plan: 'free',
    vertical: null,
    status,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  };
}

describe('CachedKeyLookup', () => {
  let clock: number;
  const nowMs = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('answers from the cache within the TTL and reads again once it has passed', async () => {
    const source = fakeSource();
    const key = generateApiKey();
    source.records.set(key, recordFor(key));
    const cache = new CachedKeyLookup(source, { ttlSeconds: 5, nowMs });

    expect((await cache.findByKey(key))?.status).toBe('active');
    // Revoked in the table; the cache still holds the active record for up to 5 s.
    source.records.set(key, recordFor(key, 'revoked'));
    clock += 4_999;
    expect((await cache.findByKey(key))?.status).toBe('active');
    expect(source.reads).toBe(1);

    clock += 1;
    expect((await cache.findByKey(key))?.status).toBe('revoked');
    expect(source.reads).toBe(2);
  });

  it('caches misses too, so repeated unknown keys cost one read per TTL', async () => {
    const source = fakeSource();
    const cache = new CachedKeyLookup(source, { ttlSeconds: 5, nowMs });
    const unknown = generateApiKey();
    for (let i = 0; i < 10; i += 1) expect(await cache.findByKey(unknown)).toBeNull();
    expect(source.reads).toBe(1);
    // A key created after the miss is found once the miss expires.
    source.records.set(unknown, recordFor(unknown));
    clock += 5_000;
    expect((await cache.findByKey(unknown))?.status).toBe('active');
  });

  it('uses the configured TTL', async () => {
    const source = fakeSource();
    const cache = new CachedKeyLookup(source, { ttlSeconds: 1, nowMs });
    const key = generateApiKey();
    await cache.findByKey(key);
    clock += 999;
    await cache.findByKey(key);
    expect(source.reads).toBe(1);
    clock += 1;
    await cache.findByKey(key);
    expect(source.reads).toBe(2);
  });

  it('keeps at most maxEntries records, dropping the least recently read first', async () => {
    const source = fakeSource();
    const cache = new CachedKeyLookup(source, { ttlSeconds: 60, maxEntries: 3, nowMs });
    const keys = Array.from({ length: 4 }, () => generateApiKey());
    for (const key of keys) source.records.set(key, recordFor(key));
    for (const key of keys) await cache.findByKey(key);
    expect(cache.size).toBe(3);
    expect(source.reads).toBe(4);
    // keys[0] was dropped (read again); keys[3] is still cached.
    await cache.findByKey(keys[3] as string);
    expect(source.reads).toBe(4);
    await cache.findByKey(keys[0] as string);
    expect(source.reads).toBe(5);
  });

  it('keeps misses apart and bounded: a flood of unknown keys never evicts a real one', async () => {
    const source = fakeSource();
    const cache = new CachedKeyLookup(source, { ttlSeconds: 60, maxEntries: 3, maxMisses: 100, nowMs });
    const real = generateApiKey();
    source.records.set(real, recordFor(real));
    await cache.findByKey(real);
    for (let i = 0; i < 10_001; i += 1) expect(await cache.findByKey(generateApiKey())).toBeNull();
    expect(cache.size).toBe(1);
    expect(cache.missCount).toBe(100);
    const reads = source.reads;
    expect((await cache.findByKey(real))?.status).toBe('active');
    expect(source.reads).toBe(reads);
  });

  it('refuses a malformed key without a read and without an entry', async () => {
    const source = fakeSource();
    const cache = new CachedKeyLookup(source, { nowMs });
    for (const junk of ['x', 'pf_short', `pf_${'a'.repeat(44)}`, `${generateApiKey()} `, 'Bearer pf_x'.repeat(100)]) {
      expect(await cache.findByKey(junk)).toBeNull();
    }
    expect(source.reads).toBe(0);
    expect(cache.size + cache.missCount).toBe(0);
  });

  it('accepts a stale-if-error window of at most 5 minutes', () => {
    const source = fakeSource();
    expect(() => new CachedKeyLookup(source, { staleIfErrorSeconds: 301 })).toThrow(RangeError);
    expect(() => new CachedKeyLookup(source, { staleIfErrorSeconds: 300 })).not.toThrow();
  });

  it('shares one read between concurrent lookups of the same key', async () => {
    const source = fakeSource();
    const cache = new CachedKeyLookup(source, { nowMs });
    const key = generateApiKey();
    source.records.set(key, recordFor(key));
    const results = await Promise.all(Array.from({ length: 20 }, () => cache.findByKey(key)));
    expect(results.every((r) => r?.keyHash === hashKey(key))).toBe(true);
    expect(source.reads).toBe(1);
  });

  it("does not cache a failed read: a key never seen gets 503 service_unavailable, then the table's answer", async () => {
    let fail = true;
    let reads = 0;
    const cache = new CachedKeyLookup(
      {
        async findByKey() {
          reads += 1;
          if (fail) throw new Error('table unavailable');
          return null;
        },
      },
      { nowMs },
    );
    const key = generateApiKey();
    await expect(cache.findByKey(key)).rejects.toMatchObject({
      code: 'service_unavailable',
      status: 503,
      details: { retryAfterSeconds: 1 },
    });
    fail = false;
    await expect(cache.findByKey(key)).resolves.toBeNull();
    expect(reads).toBe(2);
  });

  describe('while the table fails (stale-if-error)', () => {
    /** A source that fails while `down` is set; `reads` counts every attempt. */
    function flakySource() {
      const inner = fakeSource();
      const source = {
        down: false,
        reads: 0,
        records: inner.records,
        async findByKey(rawKey: string) {
          source.reads += 1;
          if (source.down) throw Object.assign(new Error('connect ECONNREFUSED'), { name: 'NetworkingError' });
          return inner.findByKey(rawKey);
        },
      };
      return source;
    }

    it('keeps a key seen valid authenticating up to the stale bound (5 minutes), then refuses it with 503', async () => {
      const source = flakySource();
      const lines: string[] = [];
      const logger = createJsonLogger({ write: (l) => lines.push(l) });
      const cache = new CachedKeyLookup(source, { ttlSeconds: 5, nowMs, logger });
      const key = generateApiKey();
      source.records.set(key, recordFor(key));
      await cache.findByKey(key);
      source.down = true;
      for (const step of [6_000, 60_000, 200_000, 34_000]) {
        clock += step;
        expect((await cache.findByKey(key))?.status).toBe('active');
      }
      // Just over 300 s after the last good read: no longer vouched for (the worst case of a revocation).
      clock += 1_001;
      await expect(cache.findByKey(key)).rejects.toMatchObject({ code: 'service_unavailable' });
      const logged = lines.map((l) => JSON.parse(l));
      expect(logged.filter((l) => l.message === 'keys_table_unavailable' && l.served === 'stale')).toHaveLength(4);
      expect(logged.at(-1)).toMatchObject({
        level: 'warn',
        metric: KEYS_UNAVAILABLE_METRIC,
        served: 'refused',
        errorName: 'NetworkingError',
      });
      expect(lines.join('\n')).not.toContain(key);
    });

    it('asks the table again after Retry-After seconds, not on every request', async () => {
      const source = flakySource();
      const cache = new CachedKeyLookup(source, { ttlSeconds: 5, retryAfterSeconds: 2, nowMs });
      const key = generateApiKey();
      source.records.set(key, recordFor(key));
      await cache.findByKey(key);
      source.down = true;
      clock += 5_000;
      await cache.findByKey(key);
      expect(source.reads).toBe(2);
      clock += 1_999;
      for (let i = 0; i < 5; i += 1) await cache.findByKey(key);
      expect(source.reads).toBe(2);
      clock += 1;
      await cache.findByKey(key);
      expect(source.reads).toBe(3);
    });

    it('sees a revocation within the TTL once the table answers again', async () => {
      const source = flakySource();
      const cache = new CachedKeyLookup(source, { ttlSeconds: 5, nowMs });
      const key = generateApiKey();
      source.records.set(key, recordFor(key));
      await cache.findByKey(key);
      source.down = true;
      clock += 60_000;
      expect((await cache.findByKey(key))?.status).toBe('active');
      source.records.set(key, recordFor(key, 'revoked'));
      source.down = false;
      clock += 1_000;
      expect((await cache.findByKey(key))?.status).toBe('revoked');
    });

    it('keeps a revoked key refused and a missing key unanswered (503, not 401) during the outage', async () => {
      const source = flakySource();
      const cache = new CachedKeyLookup(source, { ttlSeconds: 5, nowMs });
      const revoked = generateApiKey();
      const missing = generateApiKey();
      source.records.set(revoked, recordFor(revoked, 'revoked'));
      await cache.findByKey(revoked);
      await cache.findByKey(missing);
      source.down = true;
      clock += 6_000;
      expect((await cache.findByKey(revoked))?.status).toBe('revoked');
      await expect(cache.findByKey(missing)).rejects.toMatchObject({ code: 'service_unavailable' });
    });

    it('counts a read slower than the timeout as a failure', async () => {
      const cache = new CachedKeyLookup({ findByKey: () => new Promise(() => undefined) }, { timeoutMs: 20, nowMs });
      await expect(cache.findByKey(generateApiKey())).rejects.toMatchObject({ code: 'service_unavailable' });
    });
  });

  it('forgets a key at once on invalidate', async () => {
    const source = fakeSource();
    const cache = new CachedKeyLookup(source, { nowMs });
    const key = generateApiKey();
    await cache.findByKey(key);
    cache.invalidate(key);
    await cache.findByKey(key);
    expect(source.reads).toBe(2);
  });
});
