/**
 * The keys table (DynamoDB): create, find, revoke, rotate and list keys. Keys are named by the plaintext key (hashed
 * before any I/O) or, for operators, by their key id (`key_…`, see `toKeyId`); items are mapped to
 * {@link ApiKeyRecord}s attribute by attribute here.
 */
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
import { KEY_STATUSES, type KeyStatus, type Plan, type Vertical } from '../../data-contracts/constants';
import { KEYS_TABLE } from '../../data-contracts/tables';
import type { KeyLookup } from '../core/ports';
import {
  type ApiKeyRecord,
  type CreateKeyInput,
  generateApiKey,
  hashKey,
  type IssuedKey,
  isKeyId,
  isPlan,
  isVertical,
  isWellFormedKey,
  KeyStoreError,
  parseKeyScope,
  toKeyId,
  toKeyPrefix,
} from './api-key';

/** What {@link KeyStore.rotate} returns: the new key (shown once) and the record of the key it replaced. */
export interface RotatedKey extends IssuedKey {
  replaced: ApiKeyRecord;
}

const A = KEYS_TABLE.attributes;

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
 * The keys table. `revoke`, `rotate` and `find` take a key reference: the plaintext key (hashed before any I/O)
 * or its key id.
 *
 * @example
 * const store = new KeyStore({ client, tableName: 'pf-keys' });
 * const { key } = await store.create({ plan: 'builder', vertical: 'glp1' });
 * const record = await store.findByKey(key); // record.status === 'active'
 */
export class KeyStore implements KeyLookup<ApiKeyRecord> {
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
   * The record of a key id (`key_…`), whatever its status, or null. The table is addressed by hash, so this scans
   * it with a filter on the hash's leading digits: fine for an operator's command, not for the request path.
   * Throws {@link KeyStoreError} `key_ambiguous` if two keys share the id (64 bits: not expected to happen).
   */
  async findById(keyId: string): Promise<ApiKeyRecord | null> {
    if (!isKeyId(keyId)) return null;
    const hashPrefix = keyId.slice(toKeyId('').length);
    const found: ApiKeyRecord[] = [];
    let startKey: Record<string, AttributeValue> | undefined;
    do {
      const page = await this.client.send(
        new ScanCommand({
          TableName: this.tableName,
          ConsistentRead: true,
          FilterExpression: 'begins_with(#hash, :prefix)',
          ExpressionAttributeNames: { '#hash': A.keyHash },
          ExpressionAttributeValues: { ':prefix': { S: hashPrefix } },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) found.push(parseKeyItem(item));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    if (found.length > 1) throw new KeyStoreError('key_ambiguous', `${found.length} keys share the id ${keyId}`);
    return found[0] ?? null;
  }

  /** The record named by a plaintext key or a key id, whatever its status, or null. */
  async find(keyRef: string): Promise<ApiKeyRecord | null> {
    return isKeyId(keyRef) ? this.findById(keyRef) : this.findByKey(keyRef);
  }

  /**
   * Revokes a key, named by the plaintext key or its key id. Revoking a key that is already revoked or rotated changes nothing and returns its record.
   * Throws {@link KeyStoreError} `key_not_found` for an unknown key.
   */
  async revoke(keyRef: string): Promise<ApiKeyRecord> {
    const keyHash = await this.resolveHash(keyRef);
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
   * Replaces an active key (named by the plaintext key or its key id) with a new one of the same plan and vertical. The old key becomes `rotated` with
   * `replaced_by` = the new key's hash. Throws {@link KeyStoreError} `key_not_found` or `key_not_active`.
   */
  async rotate(keyRef: string): Promise<RotatedKey> {
    const oldHash = await this.resolveHash(keyRef);
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
    return { ...issued, replaced: old };
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

  /** The hash of the key a reference names. Throws {@link KeyStoreError} `key_not_found` for a malformed or unknown id. */
  private async resolveHash(keyRef: string): Promise<string> {
    if (isWellFormedKey(keyRef)) return hashKey(keyRef);
    if (isKeyId(keyRef)) {
      const record = await this.findById(keyRef);
      if (record) return record.keyHash;
    }
    throw notFound();
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
