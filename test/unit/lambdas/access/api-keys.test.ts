import { createHash } from 'node:crypto';
import { VERTICALS } from '../../../../data-contracts/constants';
import {
  type ApiKeyRecord,
  CachedKeyLookup,
  generateApiKey,
  hashKey,
  isWellFormedKey,
  KEY_PREFIX_LENGTH,
  type KeyLookup,
  KeyStoreError,
  parseKeyScope,
  toKeyPrefix,
} from '../../../../lambdas/access/api-keys';

describe('generateApiKey', () => {
  it('is pf_ followed by the base64url of 32 random bytes', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^pf_[A-Za-z0-9_-]{43}$/);
    const random = Buffer.from(key.slice(3), 'base64url');
    expect(random).toHaveLength(32);
    // Round trip: nothing is lost or padded in the encoding.
    expect(random.toString('base64url')).toBe(key.slice(3));
    expect(isWellFormedKey(key)).toBe(true);
  });

  it('never repeats and spreads its bits evenly over 2,000 keys', () => {
    const keys = Array.from({ length: 2000 }, () => generateApiKey());
    expect(new Set(keys).size).toBe(keys.length);
    // Every byte position of a CSPRNG is uniform: each bit is set about half of the time. With 2,000 keys a bit
    // set fewer than 850 or more than 1,150 times (7 standard deviations) means the source is not random.
    const ones = new Array<number>(256).fill(0);
    for (const key of keys) {
      const bytes = Buffer.from(key.slice(3), 'base64url');
      for (let bit = 0; bit < 256; bit += 1) {
        if (((bytes[bit >> 3] ?? 0) >> (bit & 7)) & 1) ones[bit] = (ones[bit] ?? 0) + 1;
      }
    }
    expect(Math.min(...ones)).toBeGreaterThan(850);
    expect(Math.max(...ones)).toBeLessThan(1150);
  });
});

describe('hashKey', () => {
  it('is the SHA-256 hex digest of the key', () => {
    const key = 'pf_abc';
    expect(hashKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey('pf_abd')).not.toBe(hashKey(key));
  });
});

describe('isWellFormedKey and toKeyPrefix', () => {
  it.each(['', 'pf_', 'pf_short', `sk_${'a'.repeat(43)}`, `pf_${'a'.repeat(42)}!`, `pf_${'a'.repeat(44)}`])(
    'rejects %j',
    (value) => expect(isWellFormedKey(value)).toBe(false),
  );

  it('keeps the first 10 characters for display', () => {
    const key = generateApiKey();
    expect(toKeyPrefix(key)).toBe(key.slice(0, 10));
    expect(KEY_PREFIX_LENGTH).toBe(10);
  });
});

describe('parseKeyScope', () => {
  it.each(VERTICALS)('binds a builder key to %s', (vertical) => {
    expect(parseKeyScope('builder', vertical)).toEqual({ plan: 'builder', vertical });
  });

  it('requires a vertical for a builder key', () => {
    expect(() => parseKeyScope('builder', undefined)).toThrow(
      expect.objectContaining({ code: 'vertical_required', message: expect.stringMatching(/bound to one vertical/) }),
    );
  });

  it('refuses an unknown vertical and an unknown plan', () => {
    expect(() => parseKeyScope('builder', 'dentistry')).toThrow(expect.objectContaining({ code: 'invalid_vertical' }));
    expect(() => parseKeyScope('gold', undefined)).toThrow(expect.objectContaining({ code: 'invalid_plan' }));
  });

  it.each(['free', 'developer', 'enterprise'] as const)('refuses a vertical on a %s key and accepts none', (plan) => {
    expect(() => parseKeyScope(plan, 'glp1')).toThrow(KeyStoreError);
    expect(() => parseKeyScope(plan, 'glp1')).toThrow(expect.objectContaining({ code: 'vertical_not_allowed' }));
    expect(parseKeyScope(plan, undefined)).toEqual({ plan, vertical: null });
  });
});

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
