/**
 * The embedded local DynamoDB of `npm start` and `npm run keys`: an in-process dynalite persisted under
 * `<dir>/dynamo` (LevelDB), listening on a loopback port.
 *
 * LevelDB allows one process per folder. The long-running process (the local API server) calls
 * `startLocalDynamo` and publishes its endpoint in `<dir>/dynamo-endpoint.json`; short-lived tools (the keys
 * CLI) call `connectLocalDynamo`, which goes through that endpoint while the server runs and opens the folder
 * itself otherwise.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { createDynamoClient, ensureTables } from '../../lambdas/access/dynamo';

/** Table names of the local default. */
export const LOCAL_KEYS_TABLE = 'pf-keys' as const;
export const LOCAL_USAGE_TABLE = 'pf-usage' as const;

/** The file through which a running local server shares its DynamoDB endpoint. */
export const ENDPOINT_FILE = 'dynamo-endpoint.json' as const;
/** The LevelDB folder under the local root. */
export const DYNAMO_FOLDER = 'dynamo' as const;
/** Names the process that holds the LevelDB folder (`{ pid }`). */
export const LOCK_FILE = 'dynamo.lock' as const;

/** A local DynamoDB to talk to. */
export interface LocalDynamo {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  keysTable: typeof LOCAL_KEYS_TABLE;
  usageTable: typeof LOCAL_USAGE_TABLE;
  /** True when this is another process's server (reached through its endpoint file). */
  shared: boolean;
  /** Closes what this call opened (nothing for a shared server). Idempotent. */
  stop(): Promise<void>;
}

/** Options of {@link startLocalDynamo}. */
export interface StartLocalDynamoOptions {
  /** The local root (`PF_LOCAL_DIR`, default `.local`). */
  dir: string;
  /** Write `<dir>/dynamo-endpoint.json` so other processes can use this server. Default true. */
  publishEndpoint?: boolean;
}

/**
 * Starts dynalite on 127.0.0.1, port 0, over `<dir>/dynamo`, creates the local tables if missing and publishes
 * the endpoint. Fails with a clear message when another process holds the folder.
 *
 * @example
 * const dynamo = await startLocalDynamo({ dir: '.local' });
 * // ... serve; on shutdown:
 * await dynamo.stop();
 */
export async function startLocalDynamo(options: StartLocalDynamoOptions): Promise<LocalDynamo> {
  const dbPath = path.join(options.dir, DYNAMO_FOLDER);
  await mkdir(dbPath, { recursive: true });
  const releaseLock = await acquireFolderLock(path.join(options.dir, LOCK_FILE), dbPath);
  let server: Server;
  try {
    server = dynalite({ path: dbPath, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await releaseLock();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const closeServer = once(async () => {
    try {
      await closeDynalite(server);
    } finally {
      await releaseLock();
    }
  });

  // A failed LevelDB open (the folder is locked by another process) only shows on the first request; dynalite
  // answers it with a 500 that the SDK would retry, hence one attempt.
  const client = createDynamoClient({ endpoint, maxAttempts: 1 });
  try {
    await ensureTables(client, { keysTable: LOCAL_KEYS_TABLE, usageTable: LOCAL_USAGE_TABLE });
  } catch (err) {
    await closeServer();
    const cause = describeError(err);
    throw new Error(
      `cannot open the local DynamoDB at ${dbPath} (${cause}). Another process may hold it; stop it or use its endpoint.`,
    );
  } finally {
    client.destroy();
  }

  const endpointFile = path.join(options.dir, ENDPOINT_FILE);
  const published = options.publishEndpoint ?? true;
  if (published) await writeEndpointFile(endpointFile, { endpoint, pid: process.pid });

  return {
    endpoint,
    keysTable: LOCAL_KEYS_TABLE,
    usageTable: LOCAL_USAGE_TABLE,
    shared: false,
    stop: once(async () => {
      // Remove the file only if it is still ours: a newer server may have replaced it.
      if (published && (await readEndpointFile(endpointFile))?.endpoint === endpoint) {
        await rm(endpointFile, { force: true });
      }
      await closeServer();
    }),
  };
}

/** Options of {@link connectLocalDynamo}. */
export interface ConnectLocalDynamoOptions {
  dir: string;
  /** How long a published endpoint may take to answer ListTables before it is treated as stale. Default 1 s. */
  probeTimeoutMs?: number;
}

/**
 * Reaches the local DynamoDB: the running local server's, when its endpoint file exists and the endpoint
 * answers; otherwise an in-process one over the same folder (not published, closed by `stop()`).
 */
export async function connectLocalDynamo(options: ConnectLocalDynamoOptions): Promise<LocalDynamo> {
  const published = await readEndpointFile(path.join(options.dir, ENDPOINT_FILE));
  if (published && (await answersListTables(published.endpoint, options.probeTimeoutMs ?? 1000))) {
    return {
      endpoint: published.endpoint,
      keysTable: LOCAL_KEYS_TABLE,
      usageTable: LOCAL_USAGE_TABLE,
      shared: true,
      stop: async () => {},
    };
  }
  // A stale file (the server crashed) is left alone: the next server start overwrites it.
  return startLocalDynamo({ dir: options.dir, publishEndpoint: false });
}

interface EndpointFile {
  endpoint: string;
  pid: number;
}

async function readEndpointFile(file: string): Promise<EndpointFile | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'endpoint' in parsed &&
      typeof parsed.endpoint === 'string' &&
      /^http:\/\/127\.0\.0\.1:\d+$/.test(parsed.endpoint)
    ) {
      return { endpoint: parsed.endpoint, pid: 'pid' in parsed && typeof parsed.pid === 'number' ? parsed.pid : 0 };
    }
  } catch {
    // A half-written or foreign file is the same as none.
  }
  return null;
}

async function writeEndpointFile(file: string, content: EndpointFile): Promise<void> {
  // Write beside and rename, so a reader never sees half a file.
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(content)}\n`);
  await rename(temp, file);
}

async function answersListTables(endpoint: string, timeoutMs: number): Promise<boolean> {
  const client = createDynamoClient({ endpoint, maxAttempts: 1 });
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(timeoutMs) });
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/**
 * Takes `<dir>/dynamo.lock` for this process. LevelDB's own LOCK is not enough: it is not enforced between
 * processes on every file system, and when it does refuse, dynalite throws the error outside any callback,
 * which would crash the process on its first request. A lock left by a process that no longer runs is taken
 * over.
 */
async function acquireFolderLock(lockFile: string, dbPath: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await writeFile(lockFile, `${JSON.stringify({ pid: process.pid })}\n`, { flag: 'wx' });
      return once(() => rm(lockFile, { force: true }));
    } catch (err) {
      if (!isNodeError(err, 'EEXIST')) throw err;
    }
    const holder = await readLockHolder(lockFile);
    if (holder !== null && isProcessAlive(holder)) {
      throw new Error(
        `the local DynamoDB at ${dbPath} is in use by process ${holder}` +
          (holder === process.pid ? ' (this process)' : '') +
          `; stop it, or remove ${lockFile} if no such process runs`,
      );
    }
    await rm(lockFile, { force: true });
  }
  throw new Error(`cannot take the lock ${lockFile}: another process is starting the local DynamoDB`);
}

async function readLockHolder(lockFile: string): Promise<number | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(lockFile, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && 'pid' in parsed && Number.isInteger(parsed.pid)) {
      return parsed.pid as number;
    }
  } catch {
    // Unreadable or half-written: treated as stale.
  }
  return null;
}

function isProcessAlive(pid: number): boolean {
  try {
    // Signal 0 checks existence without sending anything.
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return isNodeError(err, 'EPERM');
  }
}

// Duck-typed: Node's own errors may come from another realm (jest's sandbox), where `instanceof Error` fails.
function isNodeError(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === code;
}

function describeError(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'message' in err) {
    return 'name' in err ? `${String(err.name)}: ${String(err.message)}` : String(err.message);
  }
  return String(err);
}

function closeDynalite(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // dynalite's close waits for open sockets; SDK keep-alive sockets would hold it for their idle timeout.
    server.close((err) => (err ? reject(err) : resolve()));
    server.closeAllConnections();
  });
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= fn();
    return done;
  };
}
