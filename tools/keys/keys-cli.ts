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
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PLANS, VERTICALS } from '../../data-contracts/constants';
import {
  type ApiKeyRecord,
  type IssuedKey,
  type KeyScope,
  KeyStoreError,
  parseKeyScope,
} from '../../lambdas/access/api-key';
import { type AccessConfig, loadAccessConfig } from '../../lambdas/access/config';
import { createDynamoClient, ensureTables } from '../../lambdas/access/dynamo';
import { KeyStore } from '../../lambdas/access/key-store';
import { ConfigError } from '../../platform/config';
import { connectLocalDynamo } from '../local/dynamo-local';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_REFUSED = 2;

const HELP = `Manage Provider Facts API keys.

Usage:
  npm run keys -- create --plan <${PLANS.join('|')}> [--vertical <v>] [--json]
  npm run keys -- revoke <key>
  npm run keys -- rotate <key> [--json]
  npm run keys -- list

Options:
  --plan <plan>      plan of the new key
  --vertical <v>     required for builder keys (the one vertical they may query): ${VERTICALS.join(', ')}
  --json             print one JSON object (create, rotate)
  -h, --help         show this help

A key is shown only once, when it is created or rotated; only its SHA-256 hash is stored.
Revocations and rotations reach a running API within 5 seconds.

Tables: PF_KEYS_TABLE and PF_USAGE_TABLE (with PF_DYNAMODB_ENDPOINT, AWS_REGION) select a deployment's tables;
otherwise the local database under PF_LOCAL_DIR (default .local) is used.`;

/** Thrown for bad command lines; printed with a pointer to --help. */
class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Command =
  | { name: 'help' }
  | { name: 'create'; scope: KeyScope; json: boolean }
  | { name: 'revoke'; key: string; json: boolean }
  | { name: 'rotate'; key: string; json: boolean }
  | { name: 'list'; json: boolean };

/** Parses the arguments after `keys-cli.ts`. Throws {@link UsageError}. */
function parseCommand(argv: string[]): Command {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  if (values.help) return { name: 'help' };
  const [name, ...rest] = positionals;
  const json = values.json === true;
  const noExtra = (allowed: number) => {
    if (rest.length > allowed) throw new UsageError(`unexpected argument ${JSON.stringify(rest[allowed])}`);
  };
  const refuseOptions = (...names: ('plan' | 'vertical')[]) => {
    for (const option of names) {
      if (values[option] !== undefined) throw new UsageError(`--${option} is only for create`);
    }
  };
  switch (name) {
    case 'create': {
      noExtra(0);
      if (values.plan === undefined) throw new UsageError('create needs --plan');
      // Refused here, before any database is opened.
      return { name: 'create', scope: parseKeyScope(values.plan, values.vertical), json };
    }
    case 'revoke':
    case 'rotate': {
      refuseOptions('plan', 'vertical');
      const key = rest[0];
      if (!key) throw new UsageError(`${name} needs the key: npm run keys -- ${name} <key>`);
      noExtra(1);
      return { name, key, json };
    }
    case 'list':
      refuseOptions('plan', 'vertical');
      noExtra(0);
      return { name: 'list', json };
    case undefined:
      throw new UsageError('no command given');
    default:
      throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  }
}

function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      plan: { type: 'string' },
      vertical: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
}

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

function toRecordJson(record: ApiKeyRecord) {
  return {
    key_prefix: record.keyPrefix,
    // A short hash is enough to match a key with its usage counters; the full one is a table key.
    key_hash: `${record.keyHash.slice(0, 12)}…`,
    plan: record.plan,
    vertical: record.vertical,
    status: record.status,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

function toIssuedJson(issued: IssuedKey) {
  return { key: issued.key, ...toRecordJson(issued.record) };
}

function describeIssued(verb: string, issued: IssuedKey): string {
  const { record } = issued;
  const scope = record.vertical ? ` bound to ${record.vertical}` : '';
  return [
    `${verb} a ${record.plan} key${scope}:`,
    '',
    `  ${issued.key}`,
    '',
    'This key is shown only once: store it now. Only its hash is kept, so it cannot be recovered.',
  ].join('\n');
}

function formatTable(records: ApiKeyRecord[]): string {
  if (records.length === 0) return 'No keys yet. Create one: npm run keys -- create --plan free';
  const header = ['PREFIX', 'PLAN', 'VERTICAL', 'STATUS', 'CREATED', 'UPDATED', 'HASH'];
  const rows = records.map((r) => [
    `${r.keyPrefix}…`,
    r.plan,
    r.vertical ?? '-',
    r.status,
    r.createdAt,
    r.updatedAt,
    `${r.keyHash.slice(0, 12)}…`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
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
