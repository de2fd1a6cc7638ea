import { type ApiKeyRecord, generateApiKey, hashKey, toKeyPrefix } from '../../../../lambdas/access/api-key';
import { CachedKeyLookup } from '../../../../lambdas/access/cached-key-lookup';
import type { KeyLookup } from '../../../../lambdas/core/ports';

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

  it('keeps at most maxEntries answers, dropping the oldest first', async () => {
    const source = fakeSource();
    const cache = new CachedKeyLookup(source, { ttlSeconds: 60, maxEntries: 3, nowMs });
    const keys = Array.from({ length: 4 }, () => generateApiKey());
    for (const key of keys) await cache.findByKey(key);
    expect(cache.size).toBe(3);
    expect(source.reads).toBe(4);
    // keys[0] was dropped (read again); keys[3] is still cached.
    await cache.findByKey(keys[3] as string);
    expect(source.reads).toBe(4);
    await cache.findByKey(keys[0] as string);
    expect(source.reads).toBe(5);
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

  it('does not cache a failed read', async () => {
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
    await expect(cache.findByKey(key)).rejects.toThrow('table unavailable');
    fail = false;
    await expect(cache.findByKey(key)).resolves.toBeNull();
    expect(reads).toBe(2);
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
