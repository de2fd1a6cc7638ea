/**
 * The keys table (DynamoDB): create, find, revoke, rotate and list keys. Keys are named by the plaintext key (hashed
 * before any I/O) or, for operators, by their key id (`key_…`, see `toKeyId`); items are mapped to
 * {@link ApiKeyRecord}s in key-items.ts.
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
import type { Plan, Vertical } from '../../data-contracts/constants';
import { KEYS_TABLE } from '../../data-contracts/tables';
import type { KeyLookup } from '../core/ports';
import {
  type ApiKeyRecord,
  type CreateKeyInput,
  generateApiKey,
  hashKey,
  type IssuedKey,
  isKeyId,
  isWellFormedKey,
  KeyStoreError,
  parseKeyScope,
  toKeyId,
  toKeyPrefix,
} from './api-key';
import { parseKeyItem, toKeyItem } from './key-items';

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
   * Revokes a key, named by the plaintext key or its key id. Revoking a key that is already revoked or rotated
   * changes nothing and returns its record. Throws {@link KeyStoreError} `key_not_found` for an unknown key.
   */
  async revoke(keyRef: string): Promise<ApiKeyRecord> {
    const keyHash = await this.resolveHash(keyRef);
    try {
      return await this.retire(keyHash, 'revoked');
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      const existing = await this.getByHash(keyHash);
      if (!existing) throw notFound();
      return existing;
    }
  }

  /**
   * Replaces an active key (named by the plaintext key or its key id) with a new one of the same plan and vertical.
   * The old key becomes `rotated` with `replaced_by` = the new key's hash. Throws {@link KeyStoreError}
   * `key_not_found` or `key_not_active`.
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
      await this.retire(oldHash, 'rotated', issued.record.keyHash);
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

  /**
   * Moves an active key to `status` (a rotated one with `replaced_by`) in one conditional write and returns the new
   * record; `ConditionalCheckFailedException` when the key is gone or no longer active.
   */
  private async retire(keyHash: string, status: 'revoked' | 'rotated', replacedBy?: string): Promise<ApiKeyRecord> {
    const replaced = replacedBy ?? null;
    const out = await this.client.send(
      new UpdateItemCommand({
        TableName: this.tableName,
        Key: { [A.keyHash]: { S: keyHash } },
        UpdateExpression: `SET #status = :status, #updated = :now${replaced === null ? '' : ', #replaced = :replaced'}`,
        ConditionExpression: 'attribute_exists(#hash) AND #status = :active',
        ExpressionAttributeNames: {
          '#status': A.status,
          '#updated': A.updatedAt,
          '#hash': A.keyHash,
          ...(replaced === null ? {} : { '#replaced': A.replacedBy }),
        },
        ExpressionAttributeValues: {
          ':status': { S: status },
          ':active': { S: 'active' },
          ':now': { S: this.now().toISOString() },
          ...(replaced === null ? {} : { ':replaced': { S: replaced } }),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return parseKeyItem(out.Attributes ?? {});
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
