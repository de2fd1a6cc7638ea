import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoClient } from '../../../../lambdas/access/dynamo';
import { KeyStore } from '../../../../lambdas/access/key-store';
import {
  connectLocalDynamo,
  ENDPOINT_FILE,
  LOCAL_KEYS_TABLE,
  LOCAL_USAGE_TABLE,
  LOCK_FILE,
  startLocalDynamo,
} from '../../../../tools/local/dynamo-local';

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe('the embedded local DynamoDB', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pf-local-dynamo-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('starts on a loopback port with both tables and publishes its endpoint; stop removes the file', async () => {
    const local = await startLocalDynamo({ dir });
    try {
      expect(local.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const published = JSON.parse(await readFile(path.join(dir, ENDPOINT_FILE), 'utf8'));
      expect(published).toEqual({ endpoint: local.endpoint, pid: process.pid });
      const client = createDynamoClient({ endpoint: local.endpoint });
      const { TableNames } = await client.send(new ListTablesCommand({}));
      client.destroy();
      expect(TableNames).toEqual([LOCAL_KEYS_TABLE, LOCAL_USAGE_TABLE]);
    } finally {
      await local.stop();
    }
    expect(await exists(path.join(dir, ENDPOINT_FILE))).toBe(false);
    expect(await exists(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('keeps keys across a restart (persisted under <dir>/dynamo)', async () => {
    const first = await startLocalDynamo({ dir });
    const client = createDynamoClient({ endpoint: first.endpoint });
    const { key } = await new KeyStore({ client, tableName: LOCAL_KEYS_TABLE }).create({ plan: 'free' });
    client.destroy();
    await first.stop();

    const second = await startLocalDynamo({ dir });
    const again = createDynamoClient({ endpoint: second.endpoint });
    try {
      expect(await new KeyStore({ client: again, tableName: LOCAL_KEYS_TABLE }).findByKey(key)).toMatchObject({
        plan: 'free',
        status: 'active',
      });
    } finally {
      again.destroy();
      await second.stop();
    }
    expect(await exists(path.join(dir, 'dynamo'))).toBe(true);
  });

  it('refuses a second open of a folder that is in use, with a message naming the holder', async () => {
    const local = await startLocalDynamo({ dir });
    try {
      await expect(startLocalDynamo({ dir })).rejects.toThrow(/in use by process \d+/);
    } finally {
      await local.stop();
    }
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    // 2^22 + 1: one above the largest PID Linux can hand out, so no such process runs.
    await writeFile(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 4_194_305 }));
    const local = await startLocalDynamo({ dir });
    await local.stop();
    expect(await exists(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('connects through the published endpoint of a running server, and stop() leaves that server alone', async () => {
    const server = await startLocalDynamo({ dir });
    try {
      const connection = await connectLocalDynamo({ dir });
      expect(connection).toMatchObject({ endpoint: server.endpoint, shared: true });
      await connection.stop();
      const client = createDynamoClient({ endpoint: server.endpoint });
      await expect(client.send(new ListTablesCommand({}))).resolves.toBeDefined();
      client.destroy();
    } finally {
      await server.stop();
    }
  });

  it('opens the folder itself when the endpoint file is stale, without publishing its own endpoint', async () => {
    const stale = { endpoint: 'http://127.0.0.1:9', pid: 4_194_305 };
    await writeFile(path.join(dir, ENDPOINT_FILE), JSON.stringify(stale));
    const connection = await connectLocalDynamo({ dir, probeTimeoutMs: 500 });
    try {
      expect(connection.shared).toBe(false);
      expect(connection.endpoint).not.toBe(stale.endpoint);
      expect(JSON.parse(await readFile(path.join(dir, ENDPOINT_FILE), 'utf8'))).toEqual(stale);
    } finally {
      await connection.stop();
    }
    expect(await exists(path.join(dir, LOCK_FILE))).toBe(false);
  });
});
