/**
 * The keys CLI (`npm run keys -- …`): create, revoke, rotate and list API keys.
 *
 *   create --plan <free|builder|developer|enterprise> [--vertical <v>] [--json]
 *   revoke <key>
 *   rotate <key> [--json]
 *   list
 *
 * Against a deployment's table when `PF_KEYS_TABLE` is set (with `PF_USAGE_TABLE`, and `PF_DYNAMODB_ENDPOINT`
 * / `AWS_REGION` if set); otherwise against the local default under `PF_LOCAL_DIR` (default `<repo>/.local`),
 * through the running local server's endpoint when there is one. Exit codes: 0 done, 2 refused (bad usage,
 * unknown plan or key), 1 anything else. This file is an entry point: the only place that reads `process.env`.
 * The command line is parsed in ./keys-args.ts; keys are shown by ./keys-output.ts.
 */
import path from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KeyStoreError } from '../../lambdas/access/api-key';
import { type AccessConfig, loadAccessConfig } from '../../lambdas/access/config';
import { createDynamoClient, ensureTables } from '../../lambdas/access/dynamo';
import { KeyStore } from '../../lambdas/access/key-store';
import { ConfigError } from '../../platform/config';
import { connectLocalDynamo } from '../local/dynamo-local';
import { type Command, HELP, parseCommand, UsageError } from './keys-args';
import { describeIssued, formatTable, toIssuedJson, toRecordJson } from './keys-output';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_REFUSED = 2;

/** An open connection to the keys table, and how to close it. */
interface KeysBackend {
  store: KeyStore;
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
      describe: `table ${tables.keysTable}`,
      close: async () => client.destroy(),
    };
  }
  const local = await connectLocalDynamo({ dir: tables.localDir });
  const client = createDynamoClient({ endpoint: local.endpoint });
  return {
    store: new KeyStore({ client, tableName: local.keysTable }),
    describe: `local ${local.keysTable} under ${tables.localDir}`,
    close: async () => {
      client.destroy();
      await local.stop();
    },
  };
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

async function runCommand(command: Exclude<Command, { name: 'help' }>, store: KeyStore, io: Output): Promise<void> {
  switch (command.name) {
    case 'create': {
      const issued = await store.create(command.scope);
      io.out(command.json ? JSON.stringify(toIssuedJson(issued)) : describeIssued('Created', issued));
      return;
    }
    case 'rotate': {
      const issued = await store.rotate(command.key);
      const replaced = command.key.slice(0, issued.record.keyPrefix.length);
      io.out(
        command.json
          ? JSON.stringify({ ...toIssuedJson(issued), replaces: replaced })
          : `${describeIssued('Rotated', issued)}\nThe old key ${replaced}… no longer works (within 5 seconds on a running API).`,
      );
      return;
    }
    case 'revoke': {
      const record = await store.revoke(command.key);
      io.out(
        command.json
          ? JSON.stringify(toRecordJson(record))
          : record.status === 'revoked'
            ? `Revoked ${record.plan} key ${record.keyPrefix}… (refused within 5 seconds on a running API).`
            : `Key ${record.keyPrefix}… was already ${record.status}; nothing changed.`,
      );
      return;
    }
    case 'list': {
      const records = await store.list();
      io.out(command.json ? JSON.stringify({ keys: records.map(toRecordJson) }) : formatTable(records));
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
  defaults: { localDir: string },
): Promise<number> {
  let command: Command;
  let config: AccessConfig;
  try {
    command = parseCommand(argv);
    if (command.name === 'help') {
      io.out(HELP);
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
    await runCommand(command, backend.store, io);
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
    const message = err.code === 'key_not_found' ? 'no such key (check that it was copied whole)' : err.message;
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

runKeysCli(
  process.argv.slice(2),
  process.env,
  { out: (text) => process.stdout.write(`${text}\n`), err: (text) => process.stderr.write(`${text}\n`) },
  { localDir: path.join(REPO_ROOT, '.local') },
).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = EXIT_FAILED;
  },
);
