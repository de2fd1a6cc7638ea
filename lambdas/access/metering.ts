/**
 * Monthly call metering: one DynamoDB counter per key per UTC month, incremented atomically with a condition
 * on the plan's quota, so parallel calls can never overshoot it.
 *
 * Metering fails open (a counter outage must not take the API down): when DynamoDB errors or does not answer within the timeout, the call is
 * `unavailable` and the API serves the request without rate-limit headers. Each such failure is logged as a
 * warn line `metering_unavailable` with `metric: 'MeteringFailure'` (a CloudWatch metric filter counts them)
 * and reported to the optional `onFailure` hook.
 */
import { ConditionalCheckFailedException, type DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { PLAN_RULES, type Plan } from '../../data-contracts/constants';
import { USAGE_TABLE } from '../../data-contracts/tables';
import { type Logger, silentLogger } from '../../platform/logger';
import type { Meter, MeterResult } from '../core/ports';
import { monthKey, secondsUntilReset, usageExpiry } from './quota';

// The port this module implements is the core's: one definition of the outcomes (lambdas/core/ports.ts).
export type { Meter, MeterResult } from '../core/ports';

/** Why metering failed open. */
export interface MeteringFailure {
  reason: 'timeout' | 'error';
  /** The error's name (`ProvisionedThroughputExceededException`, `TimeoutError`, …). */
  errorName: string;
}

/** The metric name that a log-based metric filter matches on `metering_unavailable` lines. */
export const METERING_FAILURE_METRIC = 'MeteringFailure' as const;

/** Dependencies of {@link DynamoMeter}. */
export interface DynamoMeterOptions {
  client: DynamoDBClient;
  tableName: string;
  /** How long a call may wait for DynamoDB before it is served unmetered. Default 250 ms. */
  timeoutMs?: number;
  logger?: Logger;
  /** Called once per fail-open call, after the warn line (for in-process metrics and tests). */
  onFailure?: (failure: MeteringFailure) => void;
}

const U = USAGE_TABLE.attributes;

/**
 * The DynamoDB meter. One conditional `UpdateItem` per metered call (or batch of `n` calls):
 * `ADD used :n SET expires_at = :exp, last_used_at = :now` if `attribute_not_exists(used) OR used <= :quota - n` (the bound is
 * computed here: a condition cannot add), so `n` calls are granted all together or not at all, never past the quota.
 *
 * @example
 * const meter = new DynamoMeter({ client, tableName: 'pf-usage', logger });
 * const result = await meter.consume(record.keyHash, record.plan, new Date());
 * if (result.outcome === 'exceeded') { ... 429 ... }
 */
export class DynamoMeter implements Meter {
  private readonly client: DynamoDBClient;
  private readonly tableName: string;
  private readonly timeoutMs: number;
  private readonly logger: Logger;
  private readonly onFailure: ((failure: MeteringFailure) => void) | undefined;
  private failureCount = 0;

  constructor(options: DynamoMeterOptions) {
    this.client = options.client;
    this.tableName = options.tableName;
    this.timeoutMs = options.timeoutMs ?? 250;
    this.logger = options.logger ?? silentLogger;
    this.onFailure = options.onFailure;
  }

  /** Fail-open calls since this meter was made. */
  get failures(): number {
    return this.failureCount;
  }

  async consume(keyHash: string, plan: Plan, now: Date, count = 1): Promise<MeterResult> {
    const quota = PLAN_RULES[plan].monthlyQuota;
    if (quota === null) return { outcome: 'unmetered' };
    const resetSeconds = secondsUntilReset(now);
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`count must be a positive integer: ${count}`);
    // More than a whole month's quota: refused without a round trip (a new counter would otherwise accept it).
    if (count > quota) return { outcome: 'exceeded', used: quota, quota, resetSeconds };

    try {
      const out = await this.update(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { [U.keyHash]: { S: keyHash }, [U.month]: { S: monthKey(now) } },
          // last_used_at rides on the same write, so "last used" costs no extra request.
          UpdateExpression: 'ADD #used :n SET #expires = :exp, #last = :now',
          ConditionExpression: 'attribute_not_exists(#used) OR #used <= :bound',
          ExpressionAttributeNames: { '#used': U.used, '#expires': U.expiresAt, '#last': U.lastUsedAt },
          ExpressionAttributeValues: {
            ':n': { N: String(count) },
            ':now': { S: now.toISOString() },
            ':bound': { N: String(quota - count) },
            ':exp': { N: String(usageExpiry(now)) },
          },
          ReturnValues: 'UPDATED_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      const used = Number(out.Attributes?.[U.used]?.N);
      if (!Number.isFinite(used)) return this.failOpen(keyHash, 'error', 'MalformedResponse');
      return { outcome: 'counted', used, quota, resetSeconds };
    } catch (err) {
      // The condition failing is the quota being used up, not an error: translated here, where it is known.
      if (err instanceof ConditionalCheckFailedException) {
        // A refused batch may leave calls unused: report the counter as it is when the store returns it.
        const old = Number(err.Item?.[U.used]?.N);
        const used = Number.isFinite(old) ? Math.min(old, quota) : quota;
        return { outcome: 'exceeded', used, quota, resetSeconds };
      }
      const reason = err instanceof MeterTimeout ? 'timeout' : 'error';
      return this.failOpen(keyHash, reason, nameOf(err));
    }
  }

  /**
   * Gives back `count` calls counted at `chargedAt` (a charge made before a call's work, whose work then failed):
   * `ADD used -n` on the counter of `chargedAt`'s month, if it holds at least `n` (so a counter is never made
   * negative). Never throws: a refund that fails or times out is logged as `metering_refund_failed` with the
   * `MeteringFailure` metric, and the calls stay counted.
   */
  async refund(keyHash: string, plan: Plan, chargedAt: Date, count: number): Promise<void> {
    if (PLAN_RULES[plan].monthlyQuota === null || !Number.isInteger(count) || count < 1) return;
    try {
      await this.update(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { [U.keyHash]: { S: keyHash }, [U.month]: { S: monthKey(chargedAt) } },
          UpdateExpression: 'ADD #used :minus',
          ConditionExpression: '#used >= :n',
          ExpressionAttributeNames: { '#used': U.used },
          ExpressionAttributeValues: { ':minus': { N: String(-count) }, ':n': { N: String(count) } },
        }),
      );
    } catch (err) {
      this.failureCount += 1;
      this.logger.warn('metering_refund_failed', {
        metric: METERING_FAILURE_METRIC,
        reason: err instanceof MeterTimeout ? 'timeout' : 'error',
        error: nameOf(err),
        count,
        key_hash_prefix: keyHash.slice(0, 8),
      });
    }
  }

  /**
   * Sends one update within the timeout. The abort stops the HTTP request; the race also bounds time spent in the
   * SDK's retry back-off, which the abort signal does not interrupt. Throws {@link MeterTimeout} when it is over.
   */
  private async update(command: UpdateItemCommand) {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new MeterTimeout(this.timeoutMs));
      }, this.timeoutMs);
    });
    try {
      return await Promise.race([this.client.send(command, { abortSignal: controller.signal }), deadline]);
    } catch (err) {
      // An abort surfaces from the SDK as its own error: report it as the timeout it is.
      throw controller.signal.aborted ? new MeterTimeout(this.timeoutMs) : err;
    } finally {
      clearTimeout(timer);
    }
  }

  private failOpen(keyHash: string, reason: MeteringFailure['reason'], errorName: string): MeterResult {
    this.failureCount += 1;
    this.logger.warn('metering_unavailable', {
      metric: METERING_FAILURE_METRIC,
      reason,
      error: errorName,
      timeout_ms: this.timeoutMs,
      // Enough to correlate with the keys table by an operator; the full hash is a usage-table key.
      key_hash_prefix: keyHash.slice(0, 8),
    });
    this.onFailure?.({ reason, errorName });
    return { outcome: 'unavailable' };
  }
}

/** The name of a thrown value. Duck-typed: Node's own errors may come from another realm than ours. */
function nameOf(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'name' in err && typeof err.name === 'string') return err.name;
  return typeof err;
}

/** A metering write that did not answer within the timeout. */
class MeterTimeout extends Error {
  override readonly name = 'TimeoutError';
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}
