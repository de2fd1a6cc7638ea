import fc from 'fast-check';
import { errorResponse, NO_STORE, rateLimitHeaders } from '../../../../lambdas/http/responses';

describe('rateLimitHeaders', () => {
  it('gives limit, remaining, used (including this call) and seconds to reset as strings', () => {
    expect(rateLimitHeaders({ quota: 5000, used: 12, resetSeconds: 60 })).toEqual({
      'X-RateLimit-Limit': '5000',
      'X-RateLimit-Remaining': '4988',
      'X-RateLimit-Used': '12',
      'X-RateLimit-Reset': '60',
      'RateLimit-Policy': '"monthly";q=5000',
      RateLimit: '"monthly";r=4988;t=60',
    });
  });

  it('reports 0 remaining on the last allowed call and never a negative remainder', () => {
    expect(rateLimitHeaders({ quota: 500, used: 500, resetSeconds: 1 })['X-RateLimit-Remaining']).toBe('0');
    expect(rateLimitHeaders({ quota: 10, used: 12, resetSeconds: 5 })).toEqual({
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Used': '12',
      'X-RateLimit-Reset': '5',
      'RateLimit-Policy': '"monthly";q=10',
      RateLimit: '"monthly";r=0;t=5',
    });
  });

  it('has remaining = max(0, quota - used) for every counter state', () => {
    fc.assert(
      fc.property(fc.nat(100_000), fc.nat(200_000), fc.integer({ min: 1, max: 31 * 86_400 }), (quota, used, reset) => {
        const headers = rateLimitHeaders({ quota, used, resetSeconds: reset });
        expect(Number(headers['X-RateLimit-Remaining'])).toBe(Math.max(0, quota - used));
        expect(Number(headers['X-RateLimit-Reset'])).toBe(reset);
      }),
    );
  });
});

describe('errorResponse', () => {
  const body = { error: 'Monthly quota reached.', code: 'quota_exceeded' } as const;

  it('gives a 429 the rate-limit headers and a Retry-After equal to X-RateLimit-Reset', async () => {
    const res = errorResponse(429, body, { quota: 500, used: 500, resetSeconds: 3600 });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3600');
    expect(res.headers.get('x-ratelimit-reset')).toBe('3600');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(res.headers.get('cache-control')).toBe(NO_STORE);
    expect(await res.json()).toEqual(body);
  });

  it('sends no rate-limit header without a counter state', () => {
    const unauthorized = { error: 'An API key is required.', code: 'key_required' } as const;
    const res = errorResponse(401, unauthorized);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(JSON.stringify(unauthorized))));
  });
});
