import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { type DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { generateApiKey, hashKey } from '../../../../lambdas/access/api-key';
import { createDynamoClient, ensureTables } from '../../../../lambdas/access/dynamo';
import { DynamoMeter, type MeteringFailure, type MeterResult } from '../../../../lambdas/access/metering';
import { monthKey, secondsUntilReset } from '../../../../lambdas/access/quota';
import { readKeyUsage } from '../../../../lambdas/access/usage-reader';
import { createJsonLogger } from '../../../../platform/logger';
import { type DynaliteHandle, startDynalite } from '../../../helpers/dynalite';

const tables = { keysTable: 'meter-keys', usageTable: 'meter-usage' };
const NOW = new Date('2026-11-21T05:38:00Z');

/** Sets a key's counter for `now`'s month directly in the table (test set-up, not a mock). */
async function seedUsage(client: DynamoDBClient, keyHash: string, used: number, now = NOW): Promise<void> {
  await client.send(
    new PutItemCommand({
      TableName: tables.usageTable,
      Item: { key_hash: { S: keyHash }, month: { S: monthKey(now) }, used: { N: String(used) } },
    }),
  );
}

const newKeyHash = () => hashKey(generateApiKey());

/** A TCP server that accepts connections and never answers: a DynamoDB that hangs. */
async function startBlackHole() {
  const sockets: Socket[] = [];
  let onFirstClose: () => void = () => {};
  const firstSocketClosed = new Promise<void>((resolve) => {
    onFirstClose = resolve;
  });
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    // Read (and drop) the request, or the socket would stay paused and never notice the client going away.
    socket.resume();
    socket.on('close', onFirstClose);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    firstSocketClosed,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('DynamoMeter over dynalite', () => {
  let dynalite: DynaliteHandle;
  let client: DynamoDBClient;
  let meter: DynamoMeter;

  beforeAll(async () => {
    dynalite = await startDynalite();
    client = createDynamoClient({ endpoint: dynalite.endpoint });
    await ensureTables(client, tables);
    // A generous timeout: these tests are about counting, not speed, on a loaded CI machine.
    meter = new DynamoMeter({ client, tableName: tables.usageTable, timeoutMs: 5_000 });
  });
  afterAll(async () => {
    client.destroy();
    await dynalite.stop();
  });

  it('counts a free key exactly 1..500 and answers exceeded on call 501 without counting it', async () => {
    const keyHash = newKeyHash();
    const resetSeconds = secondsUntilReset(NOW);
    for (let call = 1; call <= 500; call += 1) {
      const result = await meter.consume(keyHash, 'free', NOW);
      expect(result).toEqual({ outcome: 'counted', used: call, quota: 500, resetSeconds });
    }
    expect(await meter.consume(keyHash, 'free', NOW)).toEqual({
      outcome: 'exceeded',
      used: 500,
      quota: 500,
      resetSeconds,
    });
    expect(await meter.consume(keyHash, 'free', NOW)).toMatchObject({ outcome: 'exceeded', used: 500 });
  });

  it('counts builder and developer keys against 5,000 and 25,000', async () => {
    expect(await meter.consume(newKeyHash(), 'builder', NOW)).toMatchObject({
      outcome: 'counted',
      used: 1,
      quota: 5_000,
    });
    const developer = newKeyHash();
    await seedUsage(client, developer, 24_999);
    expect(await meter.consume(developer, 'developer', NOW)).toMatchObject({ outcome: 'counted', used: 25_000 });
    expect(await meter.consume(developer, 'developer', NOW)).toMatchObject({ outcome: 'exceeded', quota: 25_000 });
  });

  it('lets exactly 20 of 50 parallel calls through on a key with 20 calls left', async () => {
    const keyHash = newKeyHash();
    await seedUsage(client, keyHash, 480);
    const results = await Promise.all(Array.from({ length: 50 }, () => meter.consume(keyHash, 'free', NOW)));
    const counted = results.filter((r): r is Extract<MeterResult, { outcome: 'counted' }> => r.outcome === 'counted');
    expect(counted).toHaveLength(20);
    expect(results.filter((r) => r.outcome === 'exceeded')).toHaveLength(30);
    // Every counted call saw its own distinct count: 481..500, no lost or double update.
    expect(counted.map((r) => r.used).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => 481 + i));
  });

  it('counts a batch of n calls in one update, or refuses it whole when fewer than n are left', async () => {
    const keyHash = newKeyHash();
    await seedUsage(client, keyHash, 400);
    expect(await meter.consume(keyHash, 'free', NOW, 100)).toMatchObject({ outcome: 'counted', used: 500 });
    const other = newKeyHash();
    await seedUsage(client, other, 450);
    // 50 left: a batch of 51 is refused and nothing is counted (the next batch of 50 still fits). DynamoDB returns
    // the old counter with the refusal; dynalite does not, so `used` is not checked here.
    expect(await meter.consume(other, 'free', NOW, 51)).toMatchObject({ outcome: 'exceeded', quota: 500 });
    expect(await meter.consume(other, 'free', NOW, 50)).toMatchObject({ outcome: 'counted', used: 500 });
    // More than a whole month's quota on a fresh counter: refused, not granted by attribute_not_exists.
    expect(await meter.consume(newKeyHash(), 'free', NOW, 501)).toMatchObject({ outcome: 'exceeded' });
  });

  it('never over-grants batches near the quota under 50 parallel calls', async () => {
    const keyHash = newKeyHash();
    await seedUsage(client, keyHash, 300);
    // 200 left, 50 parallel batches of 7: exactly 28 fit (196 calls), the other 22 are refused whole.
    const results = await Promise.all(Array.from({ length: 50 }, () => meter.consume(keyHash, 'free', NOW, 7)));
    const counted = results.filter((r): r is Extract<MeterResult, { outcome: 'counted' }> => r.outcome === 'counted');
    expect(counted).toHaveLength(28);
    expect(results.filter((r) => r.outcome === 'exceeded')).toHaveLength(22);
    expect(counted.map((r) => r.used).sort((a, b) => a - b)).toEqual(Array.from({ length: 28 }, (_, i) => 307 + 7 * i));
    const item = await client.send(
      new GetItemCommand({ TableName: tables.usageTable, Key: { key_hash: { S: keyHash }, month: { S: '2026-11' } } }),
    );
    expect(item.Item?.used?.N).toBe('496');
  });

  it('starts a new counter in a new UTC month', async () => {
    const keyHash = newKeyHash();
    const lastSecond = new Date('2026-11-30T23:59:59Z');
    await seedUsage(client, keyHash, 500, lastSecond);
    expect(await meter.consume(keyHash, 'free', lastSecond)).toMatchObject({ outcome: 'exceeded', resetSeconds: 1 });
    expect(await meter.consume(keyHash, 'free', new Date('2026-12-01T00:00:00Z'))).toMatchObject({
      outcome: 'counted',
      used: 1,
      resetSeconds: 31 * 86_400,
    });
  });

  it('writes the TTL attribute expires_at on the counter', async () => {
    const keyHash = newKeyHash();
    await meter.consume(keyHash, 'free', NOW);
    const item = await client.send(
      new GetItemCommand({ TableName: tables.usageTable, Key: { key_hash: { S: keyHash }, month: { S: '2026-11' } } }),
    );
    expect(item.Item?.used?.N).toBe('1');
    expect(Number(item.Item?.expires_at?.N)).toBe(Date.UTC(2026, 11, 1) / 1000 + 35 * 86_400);
  });

  it("records the last metered call on the counter; readKeyUsage reports it with this month's count", async () => {
    const keyHash = newKeyHash();
    const usageTable = { client, tableName: tables.usageTable };
    expect(await readKeyUsage(usageTable, keyHash, NOW)).toEqual({ month: '2026-11', used: 0, lastUsedAt: null });

    await meter.consume(keyHash, 'free', new Date('2026-10-30T10:00:00Z'));
    await meter.consume(keyHash, 'free', NOW);
    await meter.consume(keyHash, 'free', new Date('2026-11-21T06:00:00Z'), 3);
    expect(await readKeyUsage(usageTable, keyHash, NOW)).toEqual({
      month: '2026-11',
      used: 4,
      lastUsedAt: '2026-11-21T06:00:00.000Z',
    });
    // October's counter is still kept: its count, and a last use from it when November has none.
    expect(await readKeyUsage(usageTable, keyHash, new Date('2026-10-31T00:00:00Z'))).toMatchObject({ used: 1 });
  });

  it('leaves enterprise keys unmetered without any DynamoDB call', async () => {
    const send = jest.spyOn(client, 'send');
    try {
      expect(await meter.consume(newKeyHash(), 'enterprise', NOW)).toEqual({ outcome: 'unmetered' });
      expect(send).not.toHaveBeenCalled();
    } finally {
      send.mockRestore();
    }
  });
  it('gives back a charge to the month it was made in, never below zero', async () => {
    const keyHash = newKeyHash();
    expect(await meter.consume(keyHash, 'developer', NOW, 100)).toMatchObject({ outcome: 'counted', used: 100 });
    // Given back to the counter of the month the charge was made in.
    await meter.refund(keyHash, 'developer', NOW, 100);
    const usage = { client, tableName: tables.usageTable };
    expect(await readKeyUsage(usage, keyHash, NOW)).toMatchObject({ used: 0 });
    // A refund larger than the counter (not a charge of this month) changes nothing.
    expect(await meter.consume(keyHash, 'developer', NOW, 3)).toMatchObject({ used: 3 });
    await meter.refund(keyHash, 'developer', NOW, 4);
    expect(await readKeyUsage(usage, keyHash, NOW)).toMatchObject({ used: 3 });
    expect(meter.failures).toBe(1);
    // An exhausted key given back its last batch can spend it again.
    await seedUsage(client, keyHash, 25_000);
    expect(await meter.consume(keyHash, 'developer', NOW, 10)).toMatchObject({ outcome: 'exceeded' });
    await seedUsage(client, keyHash, 24_990);
    expect(await meter.consume(keyHash, 'developer', NOW, 10)).toMatchObject({ outcome: 'counted', used: 25_000 });
    await meter.refund(keyHash, 'developer', NOW, 10);
    expect(await meter.consume(keyHash, 'developer', NOW, 10)).toMatchObject({ outcome: 'counted', used: 25_000 });
  });
});

describe('DynamoMeter failing open', () => {
  function capture() {
    const lines: string[] = [];
    const logger = createJsonLogger({ write: (line) => lines.push(line) });
    const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    return { lines, logger, parsed };
  }

  it('is unavailable within the timeout when DynamoDB accepts the connection but never answers', async () => {
    const blackHole = await startBlackHole();
    const client = createDynamoClient({ endpoint: blackHole.endpoint });
    const log = capture();
    const failures: MeteringFailure[] = [];
    const meter = new DynamoMeter({
      client,
      tableName: tables.usageTable,
      timeoutMs: 250,
      logger: log.logger,
      onFailure: (f) => failures.push(f),
    });
    const keyHash = newKeyHash();
    try {
      const started = performance.now();
      const result = await meter.consume(keyHash, 'builder', NOW);
      const elapsed = performance.now() - started;

      expect(result).toEqual({ outcome: 'unavailable' });
      expect(elapsed).toBeGreaterThanOrEqual(240);
      // Without the timeout the SDK would wait forever; the margin absorbs a busy CI event loop.
      expect(elapsed).toBeLessThan(1_000);
      expect(meter.failures).toBe(1);
      expect(failures).toEqual([{ reason: 'timeout', errorName: 'TimeoutError' }]);
      expect(log.parsed()).toEqual([
        expect.objectContaining({
          level: 'warn',
          message: 'metering_unavailable',
          metric: 'MeteringFailure',
          reason: 'timeout',
          error: 'TimeoutError',
        }),
      ]);
      expect(log.lines.join('\n')).not.toContain(keyHash);
      // The request was aborted, not left hanging on the socket.
      await blackHole.firstSocketClosed;
    } finally {
      client.destroy();
      await blackHole.close();
    }
  });

  it('is unavailable, and says so in a warn line without the key, once the DynamoDB server is stopped', async () => {
    const dynalite = await startDynalite();
    const client = createDynamoClient({ endpoint: dynalite.endpoint });
    await ensureTables(client, tables);
    const log = capture();
    const meter = new DynamoMeter({ client, tableName: tables.usageTable, timeoutMs: 250, logger: log.logger });
    const key = generateApiKey();
    const keyHash = hashKey(key);
    try {
      expect(await meter.consume(keyHash, 'free', NOW)).toMatchObject({ outcome: 'counted', used: 1 });
      client.destroy(); // drop the keep-alive socket, so the stopped server can close
      await dynalite.stop();

      const started = performance.now();
      expect(await meter.consume(keyHash, 'free', NOW)).toEqual({ outcome: 'unavailable' });
      expect(performance.now() - started).toBeLessThan(1_000);
      const [line, ...rest] = log.parsed();
      expect(rest).toEqual([]);
      expect(line).toMatchObject({ level: 'warn', message: 'metering_unavailable', metric: 'MeteringFailure' });
      expect(typeof line?.error).toBe('string');
      const text = log.lines.join('\n');
      expect(text).not.toContain(keyHash);
      expect(text).not.toContain(key);
    } finally {
      client.destroy();
    }
  });

  it('logs a refund it cannot make, with the metric, and never throws: the calls stay counted', async () => {
    const blackHole = await startBlackHole();
    const client = createDynamoClient({ endpoint: blackHole.endpoint });
    const log = capture();
    const meter = new DynamoMeter({ client, tableName: tables.usageTable, timeoutMs: 250, logger: log.logger });
    const keyHash = newKeyHash();
    try {
      await expect(meter.refund(keyHash, 'free', NOW, 100)).resolves.toBeUndefined();
      expect(meter.failures).toBe(1);
      expect(log.parsed()).toEqual([
        expect.objectContaining({
          level: 'warn',
          message: 'metering_refund_failed',
          metric: 'MeteringFailure',
          reason: 'timeout',
          count: 100,
        }),
      ]);
      expect(log.lines.join('\n')).not.toContain(keyHash);
    } finally {
      client.destroy();
      await blackHole.close();
    }
  });

  it('is unavailable on an error other than the quota condition (a missing table), never exceeded', async () => {
    const dynalite = await startDynalite();
    const client = createDynamoClient({ endpoint: dynalite.endpoint });
    const log = capture();
    const meter = new DynamoMeter({ client, tableName: 'no-such-table', timeoutMs: 2_000, logger: log.logger });
    try {
      expect(await meter.consume(newKeyHash(), 'free', NOW)).toEqual({ outcome: 'unavailable' });
      expect(log.parsed()[0]).toMatchObject({ reason: 'error', error: 'ResourceNotFoundException' });
    } finally {
      client.destroy();
      await dynalite.stop();
    }
  });
});
