/**
 * API keys: generation, hashing, the keys table (`KeyStore`) and the cached lookup the API uses per request.
 *
 * A key is `pf_` + base64url(32 random bytes). Only its SHA-256 hex digest is stored (as the table's partition
 * key), with a 10-character display prefix. The plaintext key is returned once, by `create` and `rotate`, and
 * never stored or logged.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  type AttributeValue,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  ScanCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import {
  KEY_STATUSES,
  type KeyStatus,
  PLAN_RULES,
  PLANS,
  type Plan,
  VERTICALS,
  type Vertical,
} from '../../data-contracts/constants';
import { API_KEY_PREFIX, KEYS_TABLE } from '../../data-contracts/tables';

/** Random bytes behind every key: 256 bits of entropy. */
export const KEY_RANDOM_BYTES = 32;
/** Characters of the key kept for display (`pf_` plus 7 random characters): enough to tell keys apart. */
export const KEY_PREFIX_LENGTH = 10;

// base64url of 32 bytes is 43 characters without padding.
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);
const A = KEYS_TABLE.attributes;

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

/** The lookup the API core depends on. {@link KeyStore} and {@link CachedKeyLookup} implement it. */
export interface KeyLookup {
  /** The record of `rawKey` whatever its status, or null when no such key exists. */
  findByKey(rawKey: string): Promise<ApiKeyRecord | null>;
}

/** What {@link KeyStore.create} and {@link KeyStore.rotate} return: the plaintext key, shown once. */
export interface IssuedKey {
  key: string;
  record: ApiKeyRecord;
}

/** Input of {@link KeyStore.create}. */
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
  return createHash('sha256').update(rawKey, 'utf8').digest('hex');
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

/** Dependencies of {@link KeyStore}. */
export interface KeyStoreOptions {
  client: DynamoDBClient;
  tableName: string;
  /** Clock for timestamps. Default `() => new Date()`. */
  now?: () => Date;
  /** Key generator; tests may pin it. Default {@link generateApiKey}. */
  generateKey?: () => string;
}

/**
 * The keys table. Every method takes the plaintext key and hashes it before any I/O.
 *
 * @example
 * const store = new KeyStore({ client, tableName: 'pf-keys' });
 * const { key } = await store.create({ plan: 'builder', vertical: 'glp1' });
 * const record = await store.findByKey(key); // record.status === 'active'
 */
export class KeyStore implements KeyLookup {
  private readonly client: DynamoDBClient;
  private readonly tableName: string;
  private readonly now: () => Date;
  private readonly generateKey: () => string;

  constructor(options: KeyStoreOptions) {
    this.client = options.client;
    this.tableName = options.tableName;
    this.now = options.now ?? (() => new Date());
    this.generateKey = options.generateKey ?? generateApiKey;
  }

  /**
   * Issues a new active key. Throws {@link KeyStoreError} when the plan/vertical pairing is invalid.
   * The returned `key` is the only copy of the plaintext: show it once, then drop it.
   */
  async create(input: CreateKeyInput): Promise<IssuedKey> {
    const scope = parseKeyScope(input.plan, input.vertical);
    return this.insert(scope.plan, scope.vertical, input.label);
  }

  /** The record of `rawKey` whatever its status, or null. Strongly consistent, so a revocation is seen at once. */
  async findByKey(rawKey: string): Promise<ApiKeyRecord | null> {
    // Skip the round trip for strings that cannot be one of our keys (typos, other services' tokens).
    if (!isWellFormedKey(rawKey)) return null;
    return this.getByHash(hashKey(rawKey));
  }

  /**
   * Revokes a key. Revoking a key that is already revoked or rotated changes nothing and returns its record.
   * Throws {@link KeyStoreError} `key_not_found` for an unknown key.
   */
  async revoke(rawKey: string): Promise<ApiKeyRecord> {
    const keyHash = this.hashKnownShape(rawKey);
    try {
      const out = await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { [A.keyHash]: { S: keyHash } },
          UpdateExpression: 'SET #status = :revoked, #updated = :now',
          ConditionExpression: 'attribute_exists(#hash) AND #status = :active',
          ExpressionAttributeNames: { '#status': A.status, '#updated': A.updatedAt, '#hash': A.keyHash },
          ExpressionAttributeValues: {
            ':revoked': { S: 'revoked' },
            ':active': { S: 'active' },
            ':now': { S: this.now().toISOString() },
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return parseKeyItem(out.Attributes ?? {});
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      const existing = await this.getByHash(keyHash);
      if (!existing) throw notFound();
      return existing;
    }
  }

  /**
   * Replaces an active key with a new one of the same plan and vertical. The old key becomes `rotated` with
   * `replaced_by` = the new key's hash. Throws {@link KeyStoreError} `key_not_found` or `key_not_active`.
   */
  async rotate(rawKey: string): Promise<IssuedKey> {
    const oldHash = this.hashKnownShape(rawKey);
    const old = await this.getByHash(oldHash);
    if (!old) throw notFound();
    if (old.status !== 'active') throw notActive(old);

    // The new key is written first: a crash between the two writes leaves the old key working (and an unseen
    // new one), never a caller with no working key. dynalite has no TransactWriteItems, so no transaction.
    const issued = await this.insert(old.plan, old.vertical, old.label);
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { [A.keyHash]: { S: oldHash } },
          UpdateExpression: 'SET #status = :rotated, #replaced = :newHash, #updated = :now',
          ConditionExpression: '#status = :active',
          ExpressionAttributeNames: { '#status': A.status, '#replaced': A.replacedBy, '#updated': A.updatedAt },
          ExpressionAttributeValues: {
            ':rotated': { S: 'rotated' },
            ':active': { S: 'active' },
            ':newHash': { S: issued.record.keyHash },
            ':now': { S: this.now().toISOString() },
          },
        }),
      );
    } catch (err) {
      // Lost a race with another revoke/rotate of the same key (or the write failed): withdraw the key we just
      // issued. If that fails too, the orphan is an active key nobody has seen; report the original error.
      await this.client
        .send(new DeleteItemCommand({ TableName: this.tableName, Key: { [A.keyHash]: { S: issued.record.keyHash } } }))
        .catch(() => undefined);
      if (err instanceof ConditionalCheckFailedException) {
        const current = await this.getByHash(oldHash);
        throw current ? notActive(current) : notFound();
      }
      throw err;
    }
    return issued;
  }

  /** Every key record (any status), oldest first. Records never hold the key itself. */
  async list(): Promise<ApiKeyRecord[]> {
    const records: ApiKeyRecord[] = [];
    let startKey: Record<string, AttributeValue> | undefined;
    do {
      const page = await this.client.send(
        new ScanCommand({ TableName: this.tableName, ConsistentRead: true, ExclusiveStartKey: startKey }),
      );
      for (const item of page.Items ?? []) records.push(parseKeyItem(item));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.keyPrefix.localeCompare(b.keyPrefix));
  }

  private hashKnownShape(rawKey: string): string {
    if (!isWellFormedKey(rawKey)) throw notFound();
    return hashKey(rawKey);
  }

  private async getByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const out = await this.client.send(
      new GetItemCommand({ TableName: this.tableName, Key: { [A.keyHash]: { S: keyHash } }, ConsistentRead: true }),
    );
    return out.Item ? parseKeyItem(out.Item) : null;
  }

  private async insert(plan: Plan, vertical: Vertical | null, label: string | undefined): Promise<IssuedKey> {
    const key = this.generateKey();
    const at = this.now().toISOString();
    const record: ApiKeyRecord = {
      keyHash: hashKey(key),
      keyPrefix: toKeyPrefix(key),
      plan,
      vertical,
      status: 'active',
      createdAt: at,
      updatedAt: at,
      ...(label ? { label } : {}),
    };
    await this.client.send(
      new PutItemCommand({
        TableName: this.tableName,
        Item: toKeyItem(record),
        // A 256-bit collision will not happen; the condition makes sure a bug could never overwrite a key.
        ConditionExpression: 'attribute_not_exists(#hash)',
        ExpressionAttributeNames: { '#hash': A.keyHash },
      }),
    );
    return { key, record };
  }
}

function notFound(): KeyStoreError {
  return new KeyStoreError('key_not_found', 'no such key');
}

function notActive(record: ApiKeyRecord): KeyStoreError {
  return new KeyStoreError('key_not_active', `key ${record.keyPrefix}… is ${record.status}, not active`);
}

/** Maps a record to its DynamoDB item, attribute by attribute. */
function toKeyItem(record: ApiKeyRecord): Record<string, AttributeValue> {
  const item: Record<string, AttributeValue> = {
    [A.keyHash]: { S: record.keyHash },
    [A.keyPrefix]: { S: record.keyPrefix },
    [A.plan]: { S: record.plan },
    [A.status]: { S: record.status },
    [A.createdAt]: { S: record.createdAt },
    [A.updatedAt]: { S: record.updatedAt },
  };
  if (record.vertical) item[A.vertical] = { S: record.vertical };
  if (record.replacedBy) item[A.replacedBy] = { S: record.replacedBy };
  if (record.label) item[A.label] = { S: record.label };
  return item;
}

/**
 * Maps a DynamoDB item to a record. An item with an unknown plan or status is a data error, not an invalid key:
 * it throws, so the API answers 500 and logs it rather than silently refusing a paying customer.
 */
function parseKeyItem(item: Record<string, AttributeValue>): ApiKeyRecord {
  const keyHash = item[A.keyHash]?.S;
  const plan = item[A.plan]?.S;
  const status = item[A.status]?.S;
  const vertical = item[A.vertical]?.S ?? null;
  if (!keyHash || !isPlan(plan) || !isKeyStatus(status) || (vertical !== null && !isVertical(vertical))) {
    throw new Error(`malformed key record ${keyHash ? `${keyHash.slice(0, 12)}…` : '(no hash)'}`);
  }
  const record: ApiKeyRecord = {
    keyHash,
    keyPrefix: item[A.keyPrefix]?.S ?? '',
    plan,
    vertical,
    status,
    createdAt: item[A.createdAt]?.S ?? '',
    updatedAt: item[A.updatedAt]?.S ?? item[A.createdAt]?.S ?? '',
  };
  const replacedBy = item[A.replacedBy]?.S;
  const label = item[A.label]?.S;
  if (replacedBy) record.replacedBy = replacedBy;
  if (label) record.label = label;
  return record;
}

function isKeyStatus(value: unknown): value is KeyStatus {
  return typeof value === 'string' && (KEY_STATUSES as readonly string[]).includes(value);
}

/** Options of {@link CachedKeyLookup}. */
export interface CachedKeyLookupOptions {
  /** How long an answer (hit or miss) is reused. Default 5 s: revocations take effect within this time. */
  ttlSeconds?: number;
  /** Most entries kept; the oldest is dropped first. Default 10,000. */
  maxEntries?: number;
  /** Clock in epoch milliseconds; tests inject one. Default `Date.now`. */
  nowMs?: () => number;
}

interface CacheEntry {
  record: ApiKeyRecord | null;
  expiresAtMs: number;
}

/**
 * A {@link KeyLookup} with an in-process TTL cache in front of another lookup (the {@link KeyStore}). Misses are
 * cached too, so a flood of bad keys costs one read per key per TTL. Entries are addressed by the key's hash,
 * so no plaintext key stays in memory. Concurrent lookups of the same key share one read. Errors are not cached.
 *
 * @example
 * const keys = new CachedKeyLookup(new KeyStore({ client, tableName }), { ttlSeconds: 5 });
 */
export class CachedKeyLookup implements KeyLookup {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<ApiKeyRecord | null>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly nowMs: () => number;

  constructor(
    private readonly source: KeyLookup,
    options: CachedKeyLookupOptions = {},
  ) {
    this.ttlMs = Math.max(0, (options.ttlSeconds ?? 5) * 1000);
    this.maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.nowMs = options.nowMs ?? Date.now;
  }

  /** Number of cached answers (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  async findByKey(rawKey: string): Promise<ApiKeyRecord | null> {
    const id = hashKey(rawKey);
    const cached = this.entries.get(id);
    if (cached && cached.expiresAtMs > this.nowMs()) return cached.record;
    if (cached) this.entries.delete(id);

    const pending = this.inFlight.get(id);
    if (pending) return pending;
    const lookup = this.source
      .findByKey(rawKey)
      .then((record) => {
        this.remember(id, record);
        return record;
      })
      .finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, lookup);
    return lookup;
  }

  /** Forgets one key at once (after a revoke in the same process). */
  invalidate(rawKey: string): void {
    this.entries.delete(hashKey(rawKey));
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
  }

  private remember(id: string, record: ApiKeyRecord | null): void {
    if (this.ttlMs === 0) return;
    // Map keeps insertion order: deleting first moves a refreshed key to the young end.
    this.entries.delete(id);
    this.entries.set(id, { record, expiresAtMs: this.nowMs() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}
