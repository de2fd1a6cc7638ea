/**
 * Configuration of the access layer (keys table, usage table, metering, key cache), read from an environment
 * map that the entry point passes in. Nothing here reads `process.env`.
 */
import { ENV } from '../../data-contracts/env';

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

/** A missing or malformed environment variable; the message names it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
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
export function loadAccessConfig(
  env: Readonly<Record<string, string | undefined>>,
  defaults: AccessConfigDefaults,
): AccessConfig {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const keysTable = read(ENV.keysTable);
  let tables: AccessTablesConfig;
  if (keysTable) {
    const usageTable = read(ENV.usageTable);
    if (!usageTable) throw new ConfigError(`${ENV.usageTable} is required when ${ENV.keysTable} is set`);
    const endpoint = read(ENV.dynamoEndpoint);
    const region = read(ENV.awsRegion);
    tables = {
      kind: 'deployed',
      keysTable,
      usageTable,
      ...(endpoint ? { endpoint: parseUrl(ENV.dynamoEndpoint, endpoint) } : {}),
      ...(region ? { region } : {}),
    };
  } else {
    tables = { kind: 'local', localDir: read(ENV.localDir) ?? defaults.localDir };
  }
  return {
    tables,
    meterTimeoutMs: readPositiveNumber(read, ENV.meterTimeoutMs, defaults.meterTimeoutMs ?? 250),
    keyCacheSeconds: readNonNegativeNumber(read, ENV.keyCacheSeconds, defaults.keyCacheSeconds ?? 5),
  };
}

function parseUrl(name: string, value: string): string {
  try {
    return new URL(value).toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(`${name} must be a URL, got ${JSON.stringify(value)}`);
  }
}

function readPositiveNumber(read: (name: string) => string | undefined, name: string, fallback: number): number {
  const raw = read(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a positive number, got ${raw}`);
  return value;
}

function readNonNegativeNumber(read: (name: string) => string | undefined, name: string, fallback: number): number {
  const raw = read(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new ConfigError(`${name} must be a number of 0 or more, got ${raw}`);
  return value;
}
