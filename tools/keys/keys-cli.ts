/**
 * The keys CLI (`npm run keys -- …`): create, list, show, revoke and rotate API keys.
 *
 *   create --plan <free|builder|developer|enterprise> [--vertical <v>] [--label <text>] [--json]
 *   list [--json]
 *   show <key-id> [--json]
 *   revoke <key-id> [--json]
 *   rotate <key-id> [--json]
 *   help [command], --version
 *
 * Keys are named by their key id (`key_…`, from `list`) or by the plaintext key.
 *
 * Against a deployment's table when `PF_KEYS_TABLE` is set (with `PF_USAGE_TABLE`, and `PF_DYNAMODB_ENDPOINT`
 * / `AWS_REGION` if set); otherwise against the local default under `PF_LOCAL_DIR` (default `<repo>/.local`),
 * through the running local server's endpoint when there is one. Exit codes: 0 done, 2 refused (bad usage,
 * unknown plan or key), 1 anything else. This file is an entry point: the only place that reads `process.env`.
 * The command line is parsed in ./keys-args.ts; keys are shown by ./keys-output.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type ApiKeyRecord, KeyStoreError, toKeyId } from '../../lambdas/access/api-key';
import { type AccessConfig, loadAccessConfig } from '../../lambdas/access/config';
import { createDynamoClient, ensureTables } from '../../lambdas/access/dynamo';
import { KeyStore } from '../../lambdas/access/key-store';
import { readKeyUsage } from '../../lambdas/access/usage-reader';
import { ConfigError } from '../../platform/config';
import { connectLocalDynamo } from '../local/dynamo-local';
import { COMMAND_HELP, type Command, HELP, parseCommand, UsageError } from './keys-args';
import {
  describeIssued,
  formatKey,
  formatTable,
  type KeyWithUsage,
  toIssuedJson,
  toRecordJson,
  toUsageJson,
} from './keys-output';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_REFUSED = 2;

/** An open connection to the keys table, and how to close it. */
interface KeysBackend {
  store: KeyStore;
  /** This month's usage and last use of a key, from the usage table. */
  usageOf(record: ApiKeyRecord): Promise<KeyWithUsage>;
  describe: string;
  close(): Promise<void>;
}

async function openBackend(config: AccessConfig): Promise<KeysBackend> {
  const tables = config.tables;
  if (tables.kind === 'deployed') {
    const client = createDynamoClient({ region: tables.region, endpoint: tables.endpoint });
    // Real tables are owned by infra; only a custom endpoint (a local or test server) gets them created.
    if (tables.endpoint) await ensureTables(client, tables).catch(closeAndRethrow(client));
    return {
      store: new KeyStore({ client, tableName: tables.keysTable }),
      usageOf: usageFrom(client, tables.usageTable),
      describe: `table ${tables.keysTable}`,
      close: async () => client.destroy(),
    };
  }
  const local = await connectLocalDynamo({ dir: tables.localDir });
  const client = createDynamoClient({ endpoint: local.endpoint });
  return {
    store: new KeyStore({ client, tableName: local.keysTable }),
    usageOf: usageFrom(client, local.usageTable),
    describe: `local ${local.keysTable} under ${tables.localDir}`,
    close: async () => {
      client.destroy();
      await local.stop();
    },
  };
}

function usageFrom(client: DynamoDBClient, tableName: string) {
  return async (record: ApiKeyRecord): Promise<KeyWithUsage> => ({
    record,
    usage: await readKeyUsage({ client, tableName }, record.keyHash, new Date()),
  });
}

function closeAndRethrow(client: DynamoDBClient) {
  return (err: unknown): never => {
    client.destroy();
    throw err;
  };
}

interface Output {
  out(text: string): void;
  err(text: string): void;
}

type StoreCommand = Exclude<Command, { name: 'help' } | { name: 'version' }>;

async function runCommand(command: StoreCommand, backend: KeysBackend, io: Output): Promise<void> {
  const { store } = backend;
  switch (command.name) {
    case 'create': {
      const issued = await store.create({ ...command.scope, label: command.label });
      io.out(command.json ? JSON.stringify(toIssuedJson(issued)) : describeIssued('Created', issued));
      return;
    }
    case 'rotate': {
      const issued = await store.rotate(command.key);
      const replaced = toKeyId(issued.replaced.keyHash);
      io.out(
        command.json
          ? JSON.stringify({ ...toIssuedJson(issued), replaces: replaced })
          : `${describeIssued('Rotated', issued)}\nThe old key ${replaced} (${issued.replaced.keyPrefix}…) no longer works (within 5 seconds on a running API).`,
      );
      return;
    }
    case 'revoke': {
      const record = await store.revoke(command.key);
      io.out(
        command.json
          ? JSON.stringify(toRecordJson(record))
          : record.status === 'revoked'
            ? `Revoked ${record.plan} key ${toKeyId(record.keyHash)} (${record.keyPrefix}…): refused within 5 seconds on a running API.`
            : `Key ${toKeyId(record.keyHash)} (${record.keyPrefix}…) was already ${record.status}; nothing changed.`,
      );
      return;
    }
    case 'list': {
      const records = await store.list();
      const keys = await Promise.all(records.map((record) => backend.usageOf(record)));
      io.out(command.json ? JSON.stringify({ keys: keys.map(toUsageJson) }) : formatTable(keys));
      return;
    }
    case 'show': {
      const record = await store.find(command.key);
      if (!record) throw new KeyStoreError('key_not_found', 'no such key');
      const key = await backend.usageOf(record);
      io.out(command.json ? JSON.stringify(toUsageJson(key)) : formatKey(key));
      return;
    }
  }
}

/**
 * Runs the CLI and resolves to the exit code. Every opened client or local database is closed before it
 * resolves, so the process ends on its own.
 */
async function runKeysCli(
  argv: string[],
  env: Readonly<Record<string, string | undefined>>,
  io: Output,
  defaults: { localDir: string; version: string },
): Promise<number> {
  let command: Command;
  let config: AccessConfig;
  try {
    command = parseCommand(argv);
    if (command.name === 'help') {
      io.out(command.command ? COMMAND_HELP[command.command] : HELP);
      return EXIT_OK;
    }
    if (command.name === 'version') {
      io.out(defaults.version);
      return EXIT_OK;
    }
    config = loadAccessConfig(env, defaults);
  } catch (err) {
    return reportError(err, io);
  }
  if (config.tables.kind === 'local') config.tables.localDir = path.resolve(config.tables.localDir);

  let backend: KeysBackend | undefined;
  try {
    backend = await openBackend(config);
    await runCommand(command, backend, io);
    return EXIT_OK;
  } catch (err) {
    return reportError(err, io);
  } finally {
    await backend?.close().catch(() => undefined);
  }
}

function reportError(err: unknown, io: Output): number {
  if (err instanceof UsageError) {
    io.err(`error: ${err.message}\nRun: npm run keys -- --help`);
    return EXIT_REFUSED;
  }
  if (err instanceof KeyStoreError) {
    const message =
      err.code === 'key_not_found'
        ? 'no such key (check the key id in `npm run keys -- list`, or that the key was copied whole)'
        : err.message;
    io.err(`error: ${message}`);
    return EXIT_REFUSED;
  }
  if (err instanceof ConfigError) {
    io.err(`error: ${err.message}`);
    return EXIT_REFUSED;
  }
  // Unexpected (database unreachable, permissions): name and message only, never a stack trace.
  const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  io.err(`error: ${detail}`);
  return EXIT_FAILED;
}

// The repo root, two levels above tools/keys/.
const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** `keys <version>` from the repository's package.json. */
function readVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
  return `keys ${String(pkg.version)}`;
}

runKeysCli(
  process.argv.slice(2),
  process.env,
  { out: (text) => process.stdout.write(`${text}\n`), err: (text) => process.stderr.write(`${text}\n`) },
  { localDir: path.join(REPO_ROOT, '.local'), version: readVersion() },
).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = EXIT_FAILED;
  },
);
