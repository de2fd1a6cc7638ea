import { ApiError } from '../../../../lambdas/core/api-error';
import { authenticate, authoriseVertical, pickKey } from '../../../../lambdas/core/authenticate';
import type { KeyRecord } from '../../../../lambdas/core/ports';

const record = (over: Partial<KeyRecord> = {}): KeyRecord => ({
  keyHash: 'h',
  plan: 'developer',
  vertical: null,
  status: 'active',
  ...over,
});

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (err) {
    return err instanceof ApiError ? err.code : 'other';
  }
  return undefined;
}

describe('key precedence', () => {
  it('takes Bearer over x-api-key over key=', () => {
    expect(pickKey({ authorization: 'Bearer a', apiKeyHeader: 'b', keyParam: 'c' })).toBe('a');
    expect(pickKey({ authorization: null, apiKeyHeader: 'b', keyParam: 'c' })).toBe('b');
    expect(pickKey({ keyParam: 'c' })).toBe('c');
  });

  it('accepts the Bearer scheme in any case and ignores other schemes', () => {
    expect(pickKey({ authorization: 'bearer a' })).toBe('a');
    expect(pickKey({ authorization: 'Basic Zm9vOmJhcg==', apiKeyHeader: 'b' })).toBe('b');
  });

  it('finds no key in empty values', () => {
    expect(pickKey({ authorization: 'Bearer ', apiKeyHeader: ' ', keyParam: '' })).toBeNull();
  });
});

describe('authenticate', () => {
  const keys = (r: KeyRecord | null) => ({ findByKey: async () => r });

  it('answers key_required without a key', async () => {
    expect(await codeOf(authenticate({}, { keys: keys(record()) }))).toBe('key_required');
  });

  it('answers invalid_key for unknown, revoked and rotated keys', async () => {
    expect(await codeOf(authenticate({ keyParam: 'k' }, { keys: keys(null) }))).toBe('invalid_key');
    for (const status of ['revoked', 'rotated'] as const) {
      expect(await codeOf(authenticate({ keyParam: 'k' }, { keys: keys(record({ status })) }))).toBe('invalid_key');
    }
  });

  it('gives the tier of the plan', async () => {
    expect(await authenticate({ keyParam: 'k' }, { keys: keys(record({ plan: 'free' })) })).toMatchObject({
      tier: 'free',
    });
    expect(await authenticate({ keyParam: 'k' }, { keys: keys(record({ plan: 'enterprise' })) })).toMatchObject({
      tier: 'paid',
    });
  });
});

describe('vertical authorisation', () => {
  it('refuses a builder key outside its vertical with 403, the plan and an upgrade text', () => {
    const builder = { keyHash: 'h', plan: 'builder' as const, tier: 'paid' as const, vertical: 'glp1' as const };
    expect(() => authoriseVertical(builder, 'glp1')).not.toThrow();
    try {
      authoriseVertical(builder, 'dental');
      throw new Error('expected a refusal');
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      const e = err as ApiError;
      expect(e.status).toBe(403);
      expect(e.toBody()).toMatchObject({
        code: 'vertical_not_permitted',
        plan: 'builder',
        upgrade: expect.any(String),
      });
    }
  });

  it('lets every other plan query any vertical', () => {
    expect(() =>
      authoriseVertical({ keyHash: 'h', plan: 'developer', tier: 'paid', vertical: null }, 'dental'),
    ).not.toThrow();
  });
});
