/**
 * Metering of one call. The order of a keyed call's checks is: key (401), quota (429, when this process already
 * knows the key's month is used up: {@link refuseIfExhausted}), parameters (400), authorisation (403), data (404,
 * 400 for an offset past the end), then the charge (429 when the quota is used up). Only calls that serve data are
 * counted (the documented choice), so a call's charge is made after its query, except where its cost is known
 * before the query and large (an NPI roster or batch: {@link chargeUpFront}), which is charged before the query and
 * given back if the query fails. `exceeded` becomes 429 `quota_exceeded`; `unavailable` serves the call without
 * rate-limit state (fail open: metering.ts).
 */
import { PLAN_RULES, type Plan, PRICING_URL } from '../../data-contracts/constants';
import type { Usage } from '../../data-contracts/types';
import { ApiError } from './api-error';
import type { CoreDeps, ExceededResult, MeterResult, Principal, RateLimitState } from './ports';

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

/** The 429 `quota_exceeded` of a refusal (with `usage` and the rate-limit state, whatever the plan). */
function quotaExceeded(principal: Principal, result: ExceededResult, count: number): ApiError {
  const upgrade = UPGRADE[principal.plan];
  const message =
    count === 1
      ? 'The monthly call quota of this key is used up.'
      : `This call counts ${count} calls, more than the month's quota has left.`;
  return new ApiError('quota_exceeded', message, {
    hint: 'The quota resets at 00:00 UTC on the 1st; see the Retry-After header.',
    plan: principal.plan,
    usage: { used: result.used, quota: result.quota },
    ...(upgrade ? { upgrade } : {}),
    rateLimit: { quota: result.quota, used: result.used, resetSeconds: result.resetSeconds },
  });
}

/**
 * Refuses (429 `quota_exceeded`) a call of a key this process has already seen use up its month, before the call's
 * parameters are read or any data is touched; a key it knows nothing about goes on (its charge decides).
 */
export function refuseIfExhausted(principal: Principal, deps: Pick<CoreDeps, 'meter' | 'clock'>): void {
  const known = deps.meter.knownExhausted?.(principal.keyHash, principal.plan, deps.clock());
  if (known) throw quotaExceeded(principal, known, 1);
}

/** One charge: what the 200 reports, and whether calls were counted (what a refund would give back). */
async function meter(
  principal: Principal,
  deps: Pick<CoreDeps, 'meter'>,
  count: number,
  now: Date,
): Promise<{ charge: Charge; counted: boolean }> {
  const result: MeterResult =
    count === 1
      ? await deps.meter.consume(principal.keyHash, principal.plan, now)
      : await deps.meter.consume(principal.keyHash, principal.plan, now, count);
  switch (result.outcome) {
    case 'unmetered':
    case 'unavailable':
      return { charge: {}, counted: false };
    case 'exceeded':
      throw quotaExceeded(principal, result, count);
    case 'counted':
      // Free calls are counted and enforced, but only the metered plans report usage on success (PLAN_RULES).
      if (!PLAN_RULES[principal.plan].reportsUsage) return { charge: {}, counted: true };
      return {
        charge: {
          usage: { used: result.used, quota: result.quota },
          rateLimit: { quota: result.quota, used: result.used, resetSeconds: result.resetSeconds },
        },
        counted: true,
      };
  }
}

/**
 * Counts one call of `principal` (or `count`, all or none), after its work. Throws 429 `quota_exceeded` when the
 * month's quota is used up, or has fewer than `count` left.
 */
export async function chargeCall(
  principal: Principal,
  deps: Pick<CoreDeps, 'meter' | 'clock'>,
  count = 1,
): Promise<Charge> {
  return (await meter(principal, deps, count, deps.clock())).charge;
}

/**
 * Charges `count` calls BEFORE `work` runs (429 without any work when fewer are left), then runs it. If `work`
 * throws (an offset past the end, bytes that fail their check, an unexpected error), the calls are given back to the
 * counter of the month they were charged in (errors are not counted) and the error goes on. A refund that cannot be
 * made (the counter unreachable) is logged by the meter, and those calls stay counted.
 * @example const { charge, value } = await chargeUpFront(principal, deps, npis.length, () => data.findNpis(npis));
 */
export async function chargeUpFront<T>(
  principal: Principal,
  deps: Pick<CoreDeps, 'meter' | 'clock'>,
  count: number,
  work: () => Promise<T>,
): Promise<{ charge: Charge; value: T }> {
  const chargedAt = deps.clock();
  const { charge, counted } = await meter(principal, deps, count, chargedAt);
  try {
    return { charge, value: await work() };
  } catch (err) {
    if (counted) await deps.meter.refund?.(principal.keyHash, principal.plan, chargedAt, count);
    throw err;
  }
}
