/**
 * Reads a key's usage counters (the items that ./metering.ts writes) for operators: this month's calls and the
 * time of the last metered call. Not on the request path.
 */
import { type AttributeValue, type DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { USAGE_TABLE } from '../../data-contracts/tables';
import { monthKey } from './quota';

const U = USAGE_TABLE.attributes;

/** A key's usage as the usage table knows it. */
export interface KeyUsage {
  /** The UTC month counted, `YYYY-MM`. */
  month: string;
  /** Metered calls in `month` (0 when the key made none). */
  used: number;
  /**
   * ISO 8601 time of the latest metered call among the months still kept (counters expire after their month),
   * or null: no call yet, an unmetered (enterprise) key, or counters written before the time was recorded.
   */
  lastUsedAt: string | null;
}

/**
 * Reads the usage of the key with hash `keyHash` in the month of `now`.
 *
 * @example
 * const usage = await readKeyUsage({ client, tableName: 'pf-usage' }, record.keyHash, new Date());
 * // { month: '2026-11', used: 42, lastUsedAt: '2026-11-25T16:01:02.003Z' }
 */
export async function readKeyUsage(
  table: { client: DynamoDBClient; tableName: string },
  keyHash: string,
  now: Date,
): Promise<KeyUsage> {
  const month = monthKey(now);
  let used = 0;
  let lastUsedAt: string | null = null;
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: '#hash = :hash',
        ExpressionAttributeNames: { '#hash': U.keyHash },
        ExpressionAttributeValues: { ':hash': { S: keyHash } },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      if (item[U.month]?.S === month) used = Number(item[U.used]?.N ?? 0) || 0;
      const last = item[U.lastUsedAt]?.S;
      if (last && (lastUsedAt === null || last > lastUsedAt)) lastUsedAt = last;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { month, used, lastUsedAt };
}
