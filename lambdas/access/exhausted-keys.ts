/**
 * The keys this process has seen use up their month: a {@link Meter} in front of another (the DynamoDB meter) that
 * answers a key it knows to be exhausted without a round trip, until the month's reset, so that an exhausted key
 * hammering the API costs neither a query (lambdas/core refuses it before any work: `knownExhausted`) nor a
 * DynamoDB write (which would otherwise throttle its one counter item past ~1,000 writes/s, and then be served
 * uncounted, since metering fails open).
 *
 * What is remembered is the month, the quota and the count seen. A key whose plan changes (a new quota) is asked
 * again at once; a refund made by this process forgets the key. Calls given back, or a counter corrected by an
 * operator, on another instance are seen here only at the month's reset or when this instance is recycled: the
 * refusal errs towards refusing a key that was refused already.
 */
import { PLAN_RULES, type Plan } from '../../data-contracts/constants';
import { setNewest } from '../../platform/lru';
import type { ExceededResult, Meter, MeterResult } from '../core/ports';
import { monthKey, secondsUntilReset } from './quota';

/** Options of {@link RememberingMeter}. */
export interface RememberingMeterOptions {
  /** Most keys remembered; the oldest is forgotten first (it then costs one more write). Default 10,000. */
  maxKeys?: number;
}

interface Exhausted {
  month: string;
  quota: number;
  used: number;
}

/**
 * @example
 * const meter = new RememberingMeter(new DynamoMeter({ client, tableName }));
 * meter.knownExhausted(keyHash, 'free', new Date()); // null until a charge has seen the month used up
 */
export class RememberingMeter implements Meter {
  private readonly exhausted = new Map<string, Exhausted>();
  private readonly maxKeys: number;

  constructor(
    private readonly inner: Meter,
    options: RememberingMeterOptions = {},
  ) {
    this.maxKeys = Math.max(1, options.maxKeys ?? 10_000);
  }

  /** Keys remembered as exhausted (for tests and metrics). */
  get size(): number {
    return this.exhausted.size;
  }

  knownExhausted(keyHash: string, plan: Plan, now: Date): ExceededResult | null {
    const entry = this.exhausted.get(keyHash);
    if (entry === undefined) return null;
    const quota = PLAN_RULES[plan].monthlyQuota;
    if (quota === null || entry.quota !== quota || entry.month !== monthKey(now)) {
      // A new month, or a new plan: the counter decides again.
      this.exhausted.delete(keyHash);
      return null;
    }
    return { outcome: 'exceeded', used: entry.used, quota, resetSeconds: secondsUntilReset(now) };
  }

  async consume(keyHash: string, plan: Plan, now: Date, count = 1): Promise<MeterResult> {
    const known = this.knownExhausted(keyHash, plan, now);
    if (known) return known;
    const result = await this.inner.consume(keyHash, plan, now, count);
    // Used up: refused outright, or this call took the last one (the next is refused without asking). A batch refused
    // for asking more than is left is not remembered: a smaller call may still pass.
    if ((result.outcome === 'exceeded' || result.outcome === 'counted') && result.used >= result.quota) {
      setNewest(
        this.exhausted,
        keyHash,
        { month: monthKey(now), quota: result.quota, used: result.used },
        this.maxKeys,
      );
    }
    return result;
  }

  async refund(keyHash: string, plan: Plan, chargedAt: Date, count: number): Promise<void> {
    this.exhausted.delete(keyHash);
    await this.inner.refund?.(keyHash, plan, chargedAt, count);
  }
}
