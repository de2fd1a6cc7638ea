/**
 * The DynamoDB of bench:abuse: dynalite in the bench's own process (tools/local/dynamo-local.ts, as `npm start` runs
 * it), which the server under test reaches as a deployment's tables (`PF_KEYS_TABLE`, `PF_USAGE_TABLE`,
 * `PF_DYNAMODB_ENDPOINT`). The server's process then holds the API alone, as a Lambda does with DynamoDB elsewhere:
 * its CPU time is the API's, not dynalite's.
 *
 * Keys are issued through the real key store; usage counters are written and read with the real SDK client, in the
 * item layout of data-contracts/tables.ts.
 */
import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { Plan } from '../../../data-contracts/constants';
import { ENV } from '../../../data-contracts/env';
import { USAGE_TABLE } from '../../../data-contracts/tables';
import { createDynamoClient } from '../../../lambdas/access/dynamo';
import { KeyStore } from '../../../lambdas/access/key-store';
import { monthKey, usageExpiry } from '../../../lambdas/access/quota';
import { startLocalDynamo } from '../../local/dynamo-local';

const U = USAGE_TABLE.attributes;

/** A key issued for the bench: the plaintext to send, the hash its counter is addressed by. */
export interface BenchKey {
  key: string;
  keyHash: string;
  plan: Plan;
}

/** The bench's tables and what it does with them. */
export interface AbuseTables {
  /** The variables that point a server at these tables. */
  serverEnv: Record<string, string>;
  issueKey(plan: Plan, label: string): Promise<BenchKey>;
  /** Sets the key's counter of the current UTC month to `used` (0: a fresh key; the quota: an exhausted one). */
  setUsed(key: BenchKey, used: number): Promise<void>;
  /** The key's counter of the current UTC month (0 when it has none). */
  readUsed(key: BenchKey): Promise<number>;
  close(): Promise<void>;
}

/** Starts dynalite over `<dir>/dynamo` on a loopback port, with the keys and usage tables. */
export async function openAbuseTables(dir: string): Promise<AbuseTables> {
  const dynamo = await startLocalDynamo({ dir, publishEndpoint: false });
  const client = createDynamoClient({ endpoint: dynamo.endpoint });
  const store = new KeyStore({ client, tableName: dynamo.keysTable });
  const itemKey = (key: BenchKey, now: Date) => ({ [U.keyHash]: { S: key.keyHash }, [U.month]: { S: monthKey(now) } });
  return {
    serverEnv: {
      [ENV.keysTable]: dynamo.keysTable,
      [ENV.usageTable]: dynamo.usageTable,
      [ENV.dynamoEndpoint]: dynamo.endpoint,
    },
    async issueKey(plan, label) {
      const issued = await store.create({ plan, label });
      return { key: issued.key, keyHash: issued.record.keyHash, plan };
    },
    async setUsed(key, used) {
      const now = new Date();
      await client.send(
        new PutItemCommand({
          TableName: dynamo.usageTable,
          Item: {
            ...itemKey(key, now),
            [U.used]: { N: String(used) },
            [U.expiresAt]: { N: String(usageExpiry(now)) },
            [U.lastUsedAt]: { S: now.toISOString() },
          },
        }),
      );
    },
    async readUsed(key) {
      const out = await client.send(
        new GetItemCommand({ TableName: dynamo.usageTable, Key: itemKey(key, new Date()), ConsistentRead: true }),
      );
      const used = out.Item?.[U.used]?.N;
      return used === undefined ? 0 : Number(used);
    },
    async close() {
      client.destroy();
      await dynamo.stop();
    },
  };
}
