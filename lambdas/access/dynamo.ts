/**
 * The DynamoDB client and the two access tables (keys, usage), as `data-contracts/tables.ts` lays them out.
 *
 * Deployed tables are created by `infra/`; `ensureTables` exists for the embedded local default (dynalite) and
 * for tests, and is safe to call on every start.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { KEYS_TABLE, USAGE_TABLE } from '../../data-contracts/tables';

/** Options of {@link createDynamoClient}. */
export interface DynamoClientOptions {
  /** AWS region. Default `us-east-1` (only matters for real DynamoDB; dynalite ignores it). */
  region?: string;
  /** A custom endpoint (dynalite locally and in tests). Switches to static dummy credentials. */
  endpoint?: string;
  /** SDK attempts per call, including the first. Default: the SDK's (3). */
  maxAttempts?: number;
}

/**
 * Creates the DynamoDB client. Create one per process (at module scope in `handlers/`) and share it.
 *
 * @example
 * const client = createDynamoClient({ endpoint: 'http://127.0.0.1:4567' });
 */
export function createDynamoClient(options: DynamoClientOptions = {}): DynamoDBClient {
  return new DynamoDBClient({
    region: options.region ?? 'us-east-1',
    ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
    ...(options.endpoint
      ? {
          endpoint: options.endpoint,
          // dynalite accepts any signature; static credentials keep the SDK from searching the machine for a
          // profile (slow, and it would sign local calls with a real identity).
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });
}

/** The names of the two access tables. */
export interface AccessTableNames {
  keysTable: string;
  usageTable: string;
}

/** Options of {@link ensureTables}. */
export interface EnsureTablesOptions {
  /** How long to wait for a new table to become ACTIVE. Default 60 s. */
  maxWaitMs?: number;
  /** Delay between DescribeTable polls while a table is being created. Default 100 ms. */
  pollMs?: number;
}

/**
 * Creates the keys and usage tables when they do not exist yet (on-demand billing), waits until both are
 * ACTIVE, and enables TTL on the usage table's `expires_at` where the server supports it.
 * Idempotent, and safe when two processes race to create the same table.
 */
export async function ensureTables(
  client: DynamoDBClient,
  tables: AccessTableNames,
  options: EnsureTablesOptions = {},
): Promise<void> {
  const wait = { maxWaitMs: options.maxWaitMs ?? 60_000, pollMs: options.pollMs ?? 100 };
  await ensureTable(client, tables.keysTable, wait, () =>
    client.send(
      new CreateTableCommand({
        TableName: tables.keysTable,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: KEYS_TABLE.partitionKey, AttributeType: 'S' }],
        KeySchema: [{ AttributeName: KEYS_TABLE.partitionKey, KeyType: 'HASH' }],
      }),
    ),
  );
  await ensureTable(client, tables.usageTable, wait, () =>
    client.send(
      new CreateTableCommand({
        TableName: tables.usageTable,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: USAGE_TABLE.partitionKey, AttributeType: 'S' },
          { AttributeName: USAGE_TABLE.sortKey, AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: USAGE_TABLE.partitionKey, KeyType: 'HASH' },
          { AttributeName: USAGE_TABLE.sortKey, KeyType: 'RANGE' },
        ],
      }),
    ),
  );
  await enableUsageTtl(client, tables.usageTable);
}

async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  wait: { maxWaitMs: number; pollMs: number },
  create: () => Promise<unknown>,
): Promise<void> {
  if ((await describeTableStatus(client, tableName)) === null) {
    try {
      await create();
    } catch (err) {
      // Another process created it between our DescribeTable and CreateTable: that is the outcome we wanted.
      if (!(err instanceof ResourceInUseException)) throw err;
    }
  }
  const deadline = Date.now() + wait.maxWaitMs;
  for (;;) {
    const status = await describeTableStatus(client, tableName);
    if (status === 'ACTIVE') return;
    if (Date.now() >= deadline) throw new Error(`table ${tableName} is not ACTIVE after ${wait.maxWaitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, wait.pollMs));
  }
}

async function describeTableStatus(client: DynamoDBClient, tableName: string): Promise<string | null> {
  try {
    const out = await client.send(new DescribeTableCommand({ TableName: tableName }));
    return out.Table?.TableStatus ?? 'UNKNOWN';
  } catch (err) {
    if (err instanceof ResourceNotFoundException) return null;
    throw err;
  }
}

/**
 * Usage counters carry `expires_at` so DynamoDB deletes them after their month. dynalite (4.x) implements
 * DescribeTimeToLive but not UpdateTimeToLive; locally the counters simply stay, which is harmless.
 */
async function enableUsageTtl(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    const current = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    const status = current.TimeToLiveDescription?.TimeToLiveStatus;
    if (status === 'ENABLED' || status === 'ENABLING') return;
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: USAGE_TABLE.ttlAttribute, Enabled: true },
      }),
    );
  } catch (err) {
    if (isUnsupportedOperation(err)) return;
    throw err;
  }
}

function isUnsupportedOperation(err: unknown): boolean {
  // Duck-typed: errors may come from another realm (jest's sandbox), where `instanceof Error` is false.
  const name = typeof err === 'object' && err !== null && 'name' in err ? err.name : '';
  return name === 'UnknownOperationException' || name === 'UnrecognizedClientException';
}
