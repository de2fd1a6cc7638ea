import { ApiError } from '../../../../lambdas/core/api-error';
import { chargeCall } from '../../../../lambdas/core/charge-call';
import type { MeterResult, Principal } from '../../../../lambdas/core/ports';

const principal = (plan: Principal['plan']): Principal => ({
  keyHash: 'h',
  plan,
  tier: plan === 'free' ? 'free' : 'paid',
  vertical: plan === 'builder' ? 'glp1' : null,
});
const deps = (result: MeterResult) => ({ meter: { consume: async () => result }, clock: () => new Date() });

describe('charging a call', () => {
  it('reports usage and rate-limit state for builder and developer', async () => {
    const charge = await chargeCall(
      principal('developer'),
      deps({ outcome: 'counted', used: 7, quota: 25000, resetSeconds: 9 }),
    );
    expect(charge).toEqual({ usage: { used: 7, quota: 25000 }, rateLimit: { used: 7, quota: 25000, resetSeconds: 9 } });
  });

  it('counts a free call without reporting usage', async () => {
    expect(
      await chargeCall(principal('free'), deps({ outcome: 'counted', used: 7, quota: 500, resetSeconds: 9 })),
    ).toEqual({});
  });

  it('serves without rate-limit state when metering is unavailable or the plan unmetered', async () => {
    expect(await chargeCall(principal('builder'), deps({ outcome: 'unavailable' }))).toEqual({});
    expect(await chargeCall(principal('enterprise'), deps({ outcome: 'unmetered' }))).toEqual({});
  });

  it('returns 429 quota_exceeded with usage and rate-limit state on any plan, including free', async () => {
    for (const plan of ['free', 'builder'] as const) {
      const err = await chargeCall(
        principal(plan),
        deps({ outcome: 'exceeded', used: 500, quota: 500, resetSeconds: 60 }),
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      const e = err as ApiError;
      expect(e.status).toBe(429);
      expect(e.toBody()).toMatchObject({ code: 'quota_exceeded', plan, usage: { used: 500, quota: 500 } });
      expect(e.details.rateLimit).toEqual({ used: 500, quota: 500, resetSeconds: 60 });
    }
  });
});
