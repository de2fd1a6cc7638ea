/**
 * The AWS services of the stack, on loopback: S3 (s3rver, behind a shaper giving every request a first-byte delay
 * and each connection 85 MB/s), DynamoDB (dynalite with the template's tables, behind a shaper adding a delay per
 * call), and the API keys, made with the keys CLI as an operator makes them.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import { ENV } from '../../../data-contracts/env';
import { type ShapedPort, Shaper } from '../network/shaper';
import type { TableSpec } from './synth';

const run = promisify(execFile);

/** AWS's per-connection S3 throughput guideline (85-90 MB/s). */
export const S3_BYTES_PER_SECOND = 85 * 1024 * 1024;
export const REHEARSAL_REGION = 'us-east-1';

export interface ServicesOptions {
  /** s3rver's folder (kept between runs, so a published snapshot is reused). */
  s3Dir: string;
  bucket: string;
  s3LatencyMs: number;
  dynamoDelayMs: number;
  tables: TableSpec[];
}

export interface Services {
  bucket: string;
  /** s3rver itself, unshaped (publishing, the CDN origin's own fetches are shaped apart). */
  s3Endpoint: string;
  s3: Shaper;
  dynamo: Shaper;
  /** One shaped DynamoDB port shared by every instance. */
  dynamoPort: ShapedPort;
  /** Table names by logical id (dynalite's tables are named by their logical ids). */
  tableNames: Record<string, string>;
  close(): Promise<void>;
}

export async function startServices(options: ServicesOptions): Promise<Services> {
  await mkdir(options.s3Dir, { recursive: true });
  const s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: options.s3Dir,
    configureBuckets: [{ name: options.bucket, configs: [] }],
  });
  const { port: s3Port } = (await s3rver.run()) as AddressInfo;
  const s3Endpoint = `http://127.0.0.1:${s3Port}`;
  const s3 = new Shaper(s3Endpoint, { latencyMs: options.s3LatencyMs, bytesPerSecond: S3_BYTES_PER_SECOND });

  const dyn = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => dyn.listen(0, '127.0.0.1', resolve));
  const dynamoEndpoint = `http://127.0.0.1:${(dyn.address() as AddressInfo).port}`;
  const dynamo = new Shaper(dynamoEndpoint, {
    latencyMs: options.dynamoDelayMs,
    bytesPerSecond: Number.POSITIVE_INFINITY,
  });
  const dynamoPort = await dynamo.open();

  const client = new DynamoDBClient({
    region: REHEARSAL_REGION,
    endpoint: dynamoEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const tableNames: Record<string, string> = {};
  try {
    for (const table of options.tables) {
      await client.send(
        new CreateTableCommand({
          TableName: table.logicalId,
          KeySchema: table.keySchema,
          AttributeDefinitions: table.attributeDefinitions,
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
      tableNames[table.logicalId] = table.logicalId;
    }
  } finally {
    client.destroy();
  }
  return {
    bucket: options.bucket,
    s3Endpoint,
    s3,
    dynamo,
    dynamoPort,
    tableNames,
    async close() {
      await dynamoPort.close();
      dyn.closeAllConnections();
      await new Promise<void>((resolve) => dyn.close(() => resolve()));
      await s3rver.close();
    },
  };
}

/**
 * Creates one key of `plan` with the keys CLI (`tools/keys/keys-cli.ts create --plan P --json`) against the
 * rehearsal's keys table, as an operator does against a deployment's, and returns the plaintext key.
 */
export async function createKeyWithCli(
  repoRoot: string,
  tables: { keysTable: string; usageTable: string; endpoint: string },
  plan: string,
  vertical?: string,
): Promise<string> {
  const args = [
    path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
    path.join(repoRoot, 'tools', 'keys', 'keys-cli.ts'),
    'create',
    '--plan',
    plan,
    ...(vertical ? ['--vertical', vertical] : []),
    '--label',
    'rehearsal',
    '--json',
  ];
  const { stdout } = await run(process.execPath, args, {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? repoRoot,
      [ENV.keysTable]: tables.keysTable,
      [ENV.usageTable]: tables.usageTable,
      [ENV.dynamoEndpoint]: tables.endpoint,
      [ENV.awsRegion]: REHEARSAL_REGION,
    },
  });
  const issued = JSON.parse(stdout) as { key?: unknown };
  if (typeof issued.key !== 'string') throw new Error(`the keys CLI printed no key: ${stdout.slice(0, 200)}`);
  return issued.key;
}
