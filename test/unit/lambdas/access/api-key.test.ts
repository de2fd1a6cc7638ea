import { createHash } from 'node:crypto';
import { VERTICALS } from '../../../../data-contracts/constants';
import {
  generateApiKey,
  hashKey,
  isKeyId,
  isWellFormedKey,
  KEY_PREFIX_LENGTH,
  KeyStoreError,
  parseKeyScope,
  toKeyId,
  toKeyPrefix,
} from '../../../../lambdas/access/api-key';

describe('toKeyId', () => {
  it('is key_ and the first 16 hex digits of the hash: stable, and never a part of the key', () => {
    const key = generateApiKey();
    const id = toKeyId(hashKey(key));
    expect(id).toBe(`key_${hashKey(key).slice(0, 16)}`);
    expect(toKeyId(hashKey(key))).toBe(id);
    expect(isKeyId(id)).toBe(true);
    expect(isWellFormedKey(id)).toBe(false);
  });

  it.each(['key_0123456789ABCDEF', 'key_0123', 'pf_0123456789abcdef', `key_${'a'.repeat(17)}`])(
    'refuses %j as a key id',
    (value) => {
      expect(isKeyId(value)).toBe(false);
    },
  );
});

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
