import {
  DescribeTableCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { generateApiKey, hashKey, toKeyId } from '../../../../lambdas/access/api-key';
import { CachedKeyLookup } from '../../../../lambdas/access/cached-key-lookup';
import { createDynamoClient, ensureTables } from '../../../../lambdas/access/dynamo';
import { KeyStore } from '../../../../lambdas/access/key-store';
import { type DynaliteHandle, startDynalite } from '../../../helpers/dynalite';

const tables = { keysTable: 'test-keys', usageTable: 'test-usage' };

describe('KeyStore over dynalite', () => {
  let dynalite: DynaliteHandle;
  let client: DynamoDBClient;
  let store: KeyStore;

  beforeAll(async () => {
    dynalite = await startDynalite();
    client = createDynamoClient({ endpoint: dynalite.endpoint });
    await ensureTables(client, tables);
    store = new KeyStore({ client, tableName: tables.keysTable });
  });
  afterAll(async () => {
    client.destroy();
    await dynalite.stop();
  });

  it('creates both tables idempotently, the usage table with a month sort key', async () => {
    await ensureTables(client, tables);
    const usage = await client.send(new DescribeTableCommand({ TableName: tables.usageTable }));
    expect(usage.Table?.KeySchema).toEqual([
      { AttributeName: 'key_hash', KeyType: 'HASH' },
      { AttributeName: 'month', KeyType: 'RANGE' },
    ]);
    expect(usage.Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it('creates a key that is found by its plaintext, stored only as its SHA-256 hash', async () => {
    const { key, record } = await store.create({ plan: 'builder', vertical: 'glp1', label: 'acme' });
    expect(record).toMatchObject({
      keyHash: hashKey(key),
      keyPrefix: key.slice(0, 10),
      plan: 'builder',
      vertical: 'glp1',
      status: 'active',
      label: 'acme',
    });
    expect(await store.findByKey(key)).toEqual(record);

    const item = await client.send(
      new GetItemCommand({ TableName: tables.keysTable, Key: { key_hash: { S: hashKey(key) } } }),
    );
    expect(item.Item?.key_prefix?.S).toBe(key.slice(0, 10));
    // Nowhere in the table is the key itself.
    const all = await client.send(new ScanCommand({ TableName: tables.keysTable }));
    expect(JSON.stringify(all.Items)).not.toContain(key);
  });

  it('refuses a builder key without a vertical and a free key with one, writing nothing', async () => {
    const before = (await store.list()).length;
    await expect(store.create({ plan: 'builder' })).rejects.toMatchObject({ code: 'vertical_required' });
    await expect(store.create({ plan: 'free', vertical: 'glp1' })).rejects.toMatchObject({
      code: 'vertical_not_allowed',
    });
    expect(await store.list()).toHaveLength(before);
  });

  it('returns null for an unknown or malformed key', async () => {
    expect(await store.findByKey(generateApiKey())).toBeNull();
    expect(await store.findByKey('not-a-key')).toBeNull();
  });

  it('revokes a key: its record stays, with status revoked', async () => {
    const { key } = await store.create({ plan: 'free' });
    const revoked = await store.revoke(key);
    expect(revoked.status).toBe('revoked');
    expect((await store.findByKey(key))?.status).toBe('revoked');
    // Revoking again changes nothing.
    expect((await store.revoke(key)).status).toBe('revoked');
  });

  it('refuses to revoke an unknown key', async () => {
    await expect(store.revoke(generateApiKey())).rejects.toMatchObject({ code: 'key_not_found' });
    await expect(store.revoke('pf_typo')).rejects.toMatchObject({ code: 'key_not_found' });
  });

  it('rotates a key: the new one is active with the same plan and vertical, the old one rotated and linked', async () => {
    const old = await store.create({ plan: 'builder', vertical: 'medspa' });
    const fresh = await store.rotate(old.key);
    expect(fresh.key).not.toBe(old.key);
    expect(fresh.record).toMatchObject({ plan: 'builder', vertical: 'medspa', status: 'active' });
    expect(await store.findByKey(fresh.key)).toEqual(fresh.record);
    expect(await store.findByKey(old.key)).toMatchObject({ status: 'rotated', replacedBy: hashKey(fresh.key) });
  });

  it('refuses to rotate a revoked or already rotated key (no resurrection)', async () => {
    const revoked = await store.create({ plan: 'developer' });
    await store.revoke(revoked.key);
    await expect(store.rotate(revoked.key)).rejects.toMatchObject({ code: 'key_not_active' });

    const rotated = await store.create({ plan: 'developer' });
    await store.rotate(rotated.key);
    const before = (await store.list()).length;
    await expect(store.rotate(rotated.key)).rejects.toMatchObject({ code: 'key_not_active' });
    expect(await store.list()).toHaveLength(before);
  });

  it('lets exactly one of two concurrent rotations win, leaving no orphan active key', async () => {
    const old = await store.create({ plan: 'enterprise' });
    const before = await store.list();
    const results = await Promise.allSettled([store.rotate(old.key), store.rotate(old.key)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const after = await store.list();
    // One new key, not two.
    expect(after.length - before.length).toBe(1);
  });

  it('lists every key with prefix, plan, vertical, status and timestamps, never the key', async () => {
    const a = await store.create({ plan: 'free' });
    const b = await store.create({ plan: 'builder', vertical: 'dental' });
    await store.revoke(a.key);
    const records = await store.list();
    const listed = JSON.stringify(records);
    expect(listed).not.toContain(a.key);
    expect(listed).not.toContain(b.key);
    expect(records.find((r) => r.keyPrefix === a.key.slice(0, 10))).toMatchObject({ plan: 'free', status: 'revoked' });
    expect(records.find((r) => r.keyPrefix === b.key.slice(0, 10))).toMatchObject({
      plan: 'builder',
      vertical: 'dental',
      status: 'active',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });

  it('finds, revokes and rotates a key by its id, which is derived from the stored hash and never the key', async () => {
    const a = await store.create({ plan: 'developer', label: 'acme' });
    const id = toKeyId(a.record.keyHash);
    expect(id).toMatch(/^key_[0-9a-f]{16}$/);
    expect(a.key).not.toContain(id.slice(4));
    expect(await store.findById(id)).toEqual(a.record);
    expect(await store.find(id)).toEqual(a.record);
    expect(await store.find(a.key)).toEqual(a.record);

    const rotated = await store.rotate(id);
    expect(rotated.replaced).toEqual(a.record);
    expect(rotated.record).toMatchObject({ plan: 'developer', label: 'acme', status: 'active' });
    expect(await store.findById(id)).toMatchObject({ status: 'rotated', replacedBy: rotated.record.keyHash });

    const revoked = await store.revoke(toKeyId(rotated.record.keyHash));
    expect(revoked.status).toBe('revoked');
    expect((await store.findByKey(rotated.key))?.status).toBe('revoked');
  });

  it('gives an id to a record written before ids existed (no id attribute), and refuses unknown ids', async () => {
    const key = generateApiKey();
    await client.send(
      new PutItemCommand({
        TableName: tables.keysTable,
        Item: {
          key_hash: { S: hashKey(key) },
          key_prefix: { S: key.slice(0, 10) },
          plan: { S: 'free' },
          status: { S: 'active' },
          created_at: { S: '2026-01-02T03:04:05.000Z' },
        },
      }),
    );
    const id = toKeyId(hashKey(key));
    expect(await store.findById(id)).toMatchObject({ keyHash: hashKey(key), plan: 'free', status: 'active' });
    expect((await store.revoke(id)).status).toBe('revoked');

    expect(await store.findById('key_0123456789abcdef')).toBeNull();
    expect(await store.findById('key_short')).toBeNull();
    await expect(store.revoke('key_0123456789abcdef')).rejects.toMatchObject({ code: 'key_not_found' });
    await expect(store.rotate('key_0123456789abcdef')).rejects.toMatchObject({ code: 'key_not_found' });
  });

  it('a cached lookup sees a revocation only after its TTL has passed', async () => {
    let clock = 0;
    const cache = new CachedKeyLookup(store, { ttlSeconds: 5, nowMs: () => clock });
    const { key } = await store.create({ plan: 'developer' });
    expect((await cache.findByKey(key))?.status).toBe('active');

    await store.revoke(key);
    clock += 4_000;
    expect((await cache.findByKey(key))?.status).toBe('active');
    clock += 1_000;
    expect((await cache.findByKey(key))?.status).toBe('revoked');
  });

  it('a cached lookup sees a rotation after its TTL: the old key stops being active, the new one is found', async () => {
    let clock = 0;
    const cache = new CachedKeyLookup(store, { ttlSeconds: 5, nowMs: () => clock });
    const old = await store.create({ plan: 'free' });
    await cache.findByKey(old.key);
    const fresh = await store.rotate(old.key);
    clock += 5_000;
    expect((await cache.findByKey(old.key))?.status).toBe('rotated');
    expect((await cache.findByKey(fresh.key))?.status).toBe('active');
  });
});
