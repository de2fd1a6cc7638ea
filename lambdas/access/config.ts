/**
 * Configuration of the access layer (keys table, usage table, metering, key cache), read from an environment
 * map that the entry point passes in. Nothing here reads `process.env`.
 */
import { ENV } from '../../data-contracts/env';
import { type Env, readEnv } from '../../platform/config';

/** Where the keys and usage tables live. */
export type AccessTablesConfig =
  /** A deployment's tables (`PF_KEYS_TABLE` set), on AWS or at a custom endpoint. */
  | { kind: 'deployed'; keysTable: string; usageTable: string; endpoint?: string; region?: string }
  /** The embedded local default: dynalite persisted under `<localDir>/dynamo`. */
  | { kind: 'local'; localDir: string };

/** The access layer's settings. */
export interface AccessConfig {
  tables: AccessTablesConfig;
  /** Milliseconds a metering call may take before the request is served unmetered. */
  meterTimeoutMs: number;
  /** Seconds a key lookup is cached in a process. */
  keyCacheSeconds: number;
}

/** Defaults of {@link loadAccessConfig}. */
export interface AccessConfigDefaults {
  /** The local root when `PF_LOCAL_DIR` is unset (the entry point resolves it, e.g. `<repo>/.local`). */
  localDir: string;
  meterTimeoutMs?: number;
  keyCacheSeconds?: number;
}

/**
 * Reads the access settings from `env`, failing fast with the variable's name when one is missing or invalid.
 * `PF_KEYS_TABLE` selects a deployment's tables and then requires `PF_USAGE_TABLE`; without it the local
 * default under `PF_LOCAL_DIR` is used.
 *
 * @example
 * const config = loadAccessConfig(process.env, { localDir: path.resolve(repoRoot, '.local') });
 */
export function loadAccessConfig(env: Env, defaults: AccessConfigDefaults): AccessConfig {
  const read = readEnv(env);
  const keysTable = read.optional(ENV.keysTable);
  let tables: AccessTablesConfig;
  if (keysTable) {
    const usageTable = read.required(ENV.usageTable, `when ${ENV.keysTable} is set`);
    const endpoint = read.url(ENV.dynamoEndpoint);
    const region = read.optional(ENV.awsRegion);
    tables = {
      kind: 'deployed',
      keysTable,
      usageTable,
      ...(endpoint ? { endpoint } : {}),
      ...(region ? { region } : {}),
    };
  } else {
    tables = { kind: 'local', localDir: read.optional(ENV.localDir) ?? defaults.localDir };
  }
  return {
    tables,
    meterTimeoutMs: read.number(ENV.meterTimeoutMs, { above: 0 }, defaults.meterTimeoutMs ?? 250),
    keyCacheSeconds: read.number(ENV.keyCacheSeconds, { min: 0 }, defaults.keyCacheSeconds ?? 5),
  };
}
