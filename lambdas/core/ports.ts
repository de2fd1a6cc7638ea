/**
 * What the use cases depend on, as small structural interfaces, so `core` imports no AWS SDK and no DuckDB:
 * `lambdas/access` (KeyStore, CachedKeyLookup, DynamoMeter) and `lambdas/query` implement them.
 */
import type { KeyStatus, Plan, Tier, Vertical } from '../../data-contracts/constants';
import type { ReceiptPublicKey } from '../../data-contracts/types';
import type { Logger } from '../../platform/logger';
import type { SnapshotSource } from '../query/types';
import type { ProviderViews } from './present-provider';

/** The part of a stored key record the core needs. `ApiKeyRecord` of `lambdas/access` satisfies it. */
export interface KeyRecord {
  keyHash: string;
  plan: Plan;
  vertical: Vertical | null;
  status: KeyStatus;
}

/**
 * Finds a key's record by its plaintext (the implementation hashes it): the record whatever its status, or null
 * when no such key exists. `R` is the record the implementation returns (`ApiKeyRecord` for `lambdas/access`).
 */
export interface KeyLookup<R extends KeyRecord = KeyRecord> {
  findByKey(rawKey: string): Promise<R | null>;
}

/** Outcome of metering one call (implemented by `DynamoMeter` in lambdas/access). */
export type MeterResult =
  /** The plan has no quota (enterprise): nothing was counted. */
  | { outcome: 'unmetered' }
  /** The call was counted; `used` includes it. */
  | { outcome: 'counted'; used: number; quota: number; resetSeconds: number }
  /** The quota was already used up; the call was not counted and must get 429 `quota_exceeded`. */
  | { outcome: 'exceeded'; used: number; quota: number; resetSeconds: number }
  /** The counter could not be reached in time: serve the call without rate-limit headers. */
  | { outcome: 'unavailable' };

/** A refusal for a used-up quota. */
export type ExceededResult = Extract<MeterResult, { outcome: 'exceeded' }>;

/**
 * Counts `count` calls (default 1) against the key's UTC-month quota, all or none: `exceeded` when fewer than
 * `count` calls are left. Fails open by answering `unavailable`.
 */
export interface Meter {
  consume(keyHash: string, plan: Plan, now: Date, count?: number): Promise<MeterResult>;
  /**
   * Gives back `count` calls counted at `chargedAt` (a charge made before the work, whose call then failed), to the
   * counter of `chargedAt`'s month. Never throws: a refund that cannot be made is logged and the calls stay counted.
   */
  refund?(keyHash: string, plan: Plan, chargedAt: Date, count: number): Promise<void>;
  /**
   * The refusal this process already knows for the key in `now`'s month (it saw the quota used up), answered
   * without a round trip; null when it knows none.
   */
  knownExhausted?(keyHash: string, plan: Plan, now: Date): ExceededResult | null;
}

/** The clock of the use cases. */
export type Clock = () => Date;

/** The receipts' signing key (lambdas/signing/ed25519-key.ts). */
export interface ReceiptKey {
  /** The first 16 hex digits of the SHA-256 of the raw public key (`signature.key_id` of a receipt). */
  readonly keyId: string;
  /** The public key, as `GET /receipts/public-key` serves it. */
  readonly publicKey: ReceiptPublicKey;
  /** The Ed25519 signature of `message`, base64. */
  sign(message: Uint8Array): string;
}

/**
 * The receipts' key, loaded on its first use (the deployment's is read from Secrets Manager once per instance):
 * rejects when it cannot be loaded (the call is then answered 500, and nothing is charged).
 */
export interface ReceiptKeys {
  current(): Promise<ReceiptKey>;
}

/** Every dependency of the use cases, built once per process. */
export interface CoreDeps {
  snapshots: SnapshotSource;
  keys: KeyLookup;
  meter: Meter;
  clock: Clock;
  logger: Logger;
  /** The memoised provider views: the runtime's, so tests and measuring tools hold their own. */
  views: ProviderViews;
  /** The key that signs receipts. */
  receipts: ReceiptKeys;
}

/** An authenticated caller. */
export interface Principal {
  keyHash: string;
  plan: Plan;
  tier: Tier;
  /** The bound vertical of a builder key. */
  vertical: Vertical | null;
}

/** The quota counter after a metered call, behind the `X-RateLimit-*` headers. */
export interface RateLimitState {
  quota: number;
  used: number;
  resetSeconds: number;
}
