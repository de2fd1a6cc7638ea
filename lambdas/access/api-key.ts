/**
 * API keys as values: generation, hashing, shape checks, the plan/vertical scope of a key, and the record the keys
 * table stores. Pure functions; the table itself is `key-store.ts`, the per-request cache `cached-key-lookup.ts`.
 *
 * A key is `pf_` + base64url(32 random bytes). Only its SHA-256 hex digest is stored (as the table's partition
 * key), with a 10-character display prefix. The plaintext key is returned once, by `create` and `rotate`, and
 * never stored or logged.
 *
 * A key's id (`key_` + the first 16 hex digits of its hash) names it to operators: it is derived from the stored
 * hash, so every record has one (records written before ids existed too) and it never reveals the key.
 */
import { hash, randomBytes } from 'node:crypto';
import { type KeyStatus, PLAN_RULES, PLANS, type Plan, VERTICALS, type Vertical } from '../../data-contracts/constants';
import { API_KEY_PREFIX } from '../../data-contracts/tables';

/** Random bytes behind every key: 256 bits of entropy. */
export const KEY_RANDOM_BYTES = 32;
/** Characters of the key kept for display (`pf_` plus 7 random characters): enough to tell keys apart. */
export const KEY_PREFIX_LENGTH = 10;

// base64url of 32 bytes is 43 characters without padding.
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);

/** An API key as stored, without the key itself. What the API core sees. */
export interface ApiKeyRecord {
  /** SHA-256 hex digest of the key: the table's partition key and the usage counter's key. */
  keyHash: string;
  /** The first 10 characters of the key, for display. */
  keyPrefix: string;
  plan: Plan;
  /** The bound vertical of a builder key; null for every other plan. */
  vertical: Vertical | null;
  /** Only `active` keys may call the API; `revoked` and `rotated` keys are `invalid_key`. */
  status: KeyStatus;
  /** ISO 8601 date-time. */
  createdAt: string;
  /** ISO 8601 date-time of the last status change. */
  updatedAt: string;
  /** For a `rotated` key: the hash of the key that replaced it. */
  replacedBy?: string;
  /** A free-text note for operators (who the key is for). */
  label?: string;
}

/** What `KeyStore.create` and `KeyStore.rotate` return: the plaintext key, shown once. */
export interface IssuedKey {
  key: string;
  record: ApiKeyRecord;
}

/** Input of `KeyStore.create`. */
export interface CreateKeyInput {
  plan: Plan;
  /** Required for builder keys (the one vertical it may query); refused for other plans. */
  vertical?: Vertical | null;
  label?: string;
}

/** Stable reasons a key operation is refused; callers (the keys CLI) show the message as is. */
export const KEY_ERROR_CODES = [
  'invalid_plan',
  'invalid_vertical',
  'vertical_required',
  'vertical_not_allowed',
  'key_not_found',
  'key_not_active',
  'key_ambiguous',
] as const;
export type KeyErrorCode = (typeof KEY_ERROR_CODES)[number];

/** A refused key operation. The message never contains a key. */
export class KeyStoreError extends Error {
  override readonly name = 'KeyStoreError';
  constructor(
    readonly code: KeyErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Generates a new plaintext API key: `pf_` + base64url of 32 random bytes from the OS CSPRNG. */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(KEY_RANDOM_BYTES).toString('base64url')}`;
}

/** SHA-256 hex digest of a key: how a key is addressed in storage, logs (truncated) and metering. */
export function hashKey(rawKey: string): string {
  return hash('sha256', rawKey, 'hex');
}

/** Marks a key id: `key_` + 16 lowercase hex digits. */
export const KEY_ID_PREFIX = 'key_';
/** Hex digits of the hash in a key id: 64 bits, so two keys of one table will not share an id. */
export const KEY_ID_HASH_DIGITS = 16;

const KEY_ID_PATTERN = new RegExp(`^${KEY_ID_PREFIX}[0-9a-f]{${KEY_ID_HASH_DIGITS}}$`);

/**
 * The stable id of a key, from its hash: what operators use to show, revoke and rotate it. Not a secret; its
 * first 8 hex digits are the `key_hash_prefix` of log lines.
 *
 * @example
 * toKeyId(hashKey('pf_…')) // 'key_3f1c9a0b7d2e4f65'
 */
export function toKeyId(keyHash: string): string {
  return `${KEY_ID_PREFIX}${keyHash.slice(0, KEY_ID_HASH_DIGITS)}`;
}

/** True when `value` has the shape of a key id (see {@link toKeyId}). */
export function isKeyId(value: string): boolean {
  return KEY_ID_PATTERN.test(value);
}

/** True when `value` has the shape of a key this service issues. Cheap; says nothing about its status. */
export function isWellFormedKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/** The display prefix of a key (first 10 characters). */
export function toKeyPrefix(rawKey: string): string {
  return rawKey.slice(0, KEY_PREFIX_LENGTH);
}

/** True when `value` is one of the contract's plans. */
export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}

/** True when `value` is one of the contract's verticals. */
export function isVertical(value: unknown): value is Vertical {
  return typeof value === 'string' && (VERTICALS as readonly string[]).includes(value);
}

/** A plan with its bound vertical, checked. */
export interface KeyScope {
  plan: Plan;
  vertical: Vertical | null;
}

/**
 * Checks a plan/vertical pairing from untrusted input (CLI flags, an admin request): a builder key is bound to
 * exactly one vertical, other plans to none. Throws {@link KeyStoreError} with a message fit for a user.
 *
 * @example
 * parseKeyScope('builder', 'glp1') // { plan: 'builder', vertical: 'glp1' }
 * parseKeyScope('free', 'glp1')    // throws vertical_not_allowed
 */
export function parseKeyScope(plan: unknown, vertical: unknown): KeyScope {
  if (!isPlan(plan)) {
    throw new KeyStoreError(
      'invalid_plan',
      `unknown plan ${JSON.stringify(plan)}: expected one of ${PLANS.join(', ')}`,
    );
  }
  const hasVertical = vertical !== undefined && vertical !== null && vertical !== '';
  if (PLAN_RULES[plan].verticalBound) {
    if (!hasVertical) {
      throw new KeyStoreError(
        'vertical_required',
        `a ${plan} key is bound to one vertical: give one of ${VERTICALS.join(', ')}`,
      );
    }
    if (!isVertical(vertical)) {
      throw new KeyStoreError(
        'invalid_vertical',
        `unknown vertical ${JSON.stringify(vertical)}: expected one of ${VERTICALS.join(', ')}`,
      );
    }
    return { plan, vertical };
  }
  if (hasVertical) {
    throw new KeyStoreError('vertical_not_allowed', `a ${plan} key is not bound to a vertical: leave the vertical out`);
  }
  return { plan, vertical: null };
}
