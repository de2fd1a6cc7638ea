/**
 * The API process's configuration, read once from an environment map that the entry point passes in
 * (`process.env` in `api.ts` and `local/start.ts`; plain objects in tests). Fails fast, naming the variable.
 */
import path from 'node:path';
import { ENV } from '../../data-contracts/env';
import { defaultBudgetMb, type MemoryPlan, MIN_BUDGET_MB, planMemory } from '../../data-contracts/memory-budget';
import { LOG_LEVELS, type LogLevel } from '../../platform/logger';
import { type AccessConfig, ConfigError, loadAccessConfig } from '../access/config';
import { DEFAULT_POINTER_TTL_SECONDS } from '../storage/snapshot-cache';

/** Where snapshots are read from. */
export type DataStoreConfig =
  | { kind: 's3'; bucket: string; prefix: string; endpoint?: string; region?: string }
  | { kind: 'folder'; dir: string };

/** Everything the API runtime needs. */
export interface ApiConfig {
  store: DataStoreConfig;
  /** Local folder for Parquet objects fetched from the store. */
  cacheDir: string;
  pointerTtlSeconds: number;
  access: AccessConfig;
  logLevel: LogLevel;
  /** The process's memory budget and its shares. */
  memory: MemoryPlan;
}

/** Defaults of {@link loadConfig}, resolved by the entry point. */
export interface ConfigDefaults {
  /** The local root when `PF_LOCAL_DIR` is unset. */
  localDir: string;
  /** Cache folder when `PF_CACHE_DIR` is unset. Default `<localDir>/cache`. */
  cacheDir?: string;
  /** Refuse the embedded local tables (a deployed function must name its tables). */
  requireDeployedTables?: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * @example
 * const config = loadConfig(process.env, { localDir: '/tmp/pf', cacheDir: '/tmp/pf-cache', requireDeployedTables: true });
 */
export function loadConfig(env: Env, defaults: ConfigDefaults): ApiConfig {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const localDir = read(ENV.localDir) ?? defaults.localDir;
  const bucket = read(ENV.dataBucket);
  const endpoint = read(ENV.s3Endpoint);
  const region = read(ENV.awsRegion);
  const store: DataStoreConfig = bucket
    ? {
        kind: 's3',
        bucket,
        prefix: read(ENV.dataPrefix) ?? '',
        ...(endpoint ? { endpoint } : {}),
        ...(region ? { region } : {}),
      }
    : { kind: 'folder', dir: path.resolve(read(ENV.dataDir) ?? path.join(localDir, 'data')) };

  if (defaults.requireDeployedTables && !read(ENV.keysTable)) {
    throw new ConfigError(`${ENV.keysTable} is required`);
  }
  const access = loadAccessConfig(env, { localDir });

  const ttlRaw = read(ENV.pointerTtlSeconds);
  const pointerTtlSeconds = ttlRaw === undefined ? DEFAULT_POINTER_TTL_SECONDS : Number(ttlRaw);
  if (!Number.isFinite(pointerTtlSeconds) || pointerTtlSeconds < 0) {
    throw new ConfigError(`${ENV.pointerTtlSeconds} must be a number of 0 or more, got ${ttlRaw}`);
  }
  const level = read(ENV.logLevel) ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(`${ENV.logLevel} must be one of ${LOG_LEVELS.join(', ')}, got ${level}`);
  }
  return {
    store,
    cacheDir: path.resolve(read(ENV.cacheDir) ?? defaults.cacheDir ?? path.join(localDir, 'cache')),
    pointerTtlSeconds,
    access,
    logLevel: level as LogLevel,
    memory: planMemory(readBudgetMb(read(ENV.memoryBudgetMb), read(ENV.lambdaMemoryMb))),
  };
}

function readBudgetMb(budget: string | undefined, lambdaMemory: string | undefined): number {
  if (budget !== undefined) {
    if (!/^[0-9]+$/.test(budget) || Number(budget) < MIN_BUDGET_MB) {
      throw new ConfigError(
        `${ENV.memoryBudgetMb} must be a whole number of MB of at least ${MIN_BUDGET_MB}, got ${budget}`,
      );
    }
    return Number(budget);
  }
  const lambdaMb = lambdaMemory === undefined ? undefined : Number(lambdaMemory);
  if (lambdaMb !== undefined && !(Number.isInteger(lambdaMb) && lambdaMb > 0)) {
    throw new ConfigError(`${ENV.lambdaMemoryMb} must be a whole number of MB, got ${lambdaMemory}`);
  }
  return Math.max(MIN_BUDGET_MB, defaultBudgetMb(lambdaMb));
}
