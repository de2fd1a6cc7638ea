/**
 * Metering of one call, after it has been validated, authorised and answered, just before the 200 is sent:
 * only calls that serve data are counted (the documented choice). `exceeded` becomes 429 `quota_exceeded`;
 * `unavailable` serves the call without rate-limit state (fail open, spec §8.4).
 */
import { PLAN_RULES, type Plan, PRICING_URL } from '../../data-contracts/constants';
import type { Usage } from '../../data-contracts/types';
import { ApiError } from './api-error';
import type { CoreDeps, Principal, RateLimitState } from './ports';

/** What a 200 carries about the quota: both present on builder/developer, both absent otherwise. */
export interface Charge {
  usage?: Usage;
  rateLimit?: RateLimitState;
}

const UPGRADE: Partial<Record<Plan, string>> = {
  free: `The Builder plan has 5,000 calls a month: ${PRICING_URL}`,
  builder: `The Developer plan has 25,000 calls a month: ${PRICING_URL}`,
  developer: `The Enterprise plan is unmetered: ${PRICING_URL}`,
};

/**
 * Counts one call of `principal` (or `count`, a batch, all or none). Throws 429 `quota_exceeded` (with `usage`
 * and the rate-limit state, whatever the plan) when the month's quota is used up, or has fewer than `count` left.
 */
export async function chargeCall(
  principal: Principal,
  deps: Pick<CoreDeps, 'meter' | 'clock'>,
  count = 1,
): Promise<Charge> {
  const result =
    count === 1
      ? await deps.meter.consume(principal.keyHash, principal.plan, deps.clock())
      : await deps.meter.consume(principal.keyHash, principal.plan, deps.clock(), count);
  switch (result.outcome) {
    case 'unmetered':
    case 'unavailable':
      return {};
    case 'exceeded': {
      const upgrade = UPGRADE[principal.plan];
      const message =
        count === 1
          ? 'The monthly call quota of this key is used up.'
          : `This batch counts ${count} calls, more than the month's quota has left.`;
      throw new ApiError('quota_exceeded', message, {
        hint: 'The quota resets at 00:00 UTC on the 1st; see the Retry-After header.',
        plan: principal.plan,
        usage: { used: result.used, quota: result.quota },
        ...(upgrade ? { upgrade } : {}),
        rateLimit: { quota: result.quota, used: result.used, resetSeconds: result.resetSeconds },
      });
    }
    case 'counted':
      // Free calls are counted and enforced, but only the metered plans report usage on success (spec §2.7).
      if (!PLAN_RULES[principal.plan].reportsUsage) return {};
      return {
        usage: { used: result.used, quota: result.quota },
        rateLimit: { quota: result.quota, used: result.used, resetSeconds: result.resetSeconds },
      };
  }
}
