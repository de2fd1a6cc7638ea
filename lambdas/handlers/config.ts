/**
 * The API process's configuration, read once from an environment map that the entry point passes in
 * (`process.env` in `api.ts` and `local/start.ts`; plain objects in tests). Fails fast, naming the variable.
 */

import path from 'node:path';
import { ENV } from '../../data-contracts/env';
import { defaultBudgetMb, type MemoryPlan, MIN_BUDGET_MB, planMemory } from '../../data-contracts/memory-budget';
import { ConfigError, type Env, type EnvReader, readEnv } from '../../platform/config';
import { LOG_LEVELS, type LogLevel } from '../../platform/logger';
import { type AccessConfig, loadAccessConfig } from '../access/config';
import { DEFAULT_NPI_ARENA_BYTES } from '../query/npi-buckets';
import type { ReceiptKeySource } from '../signing/receipt-keys';
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
  /** Local disk the NPI arena may take, in bytes. */
  npiArenaBytes: number;
  /** The CDN's origin secret: when set, calls without it are refused (403 `cdn_required`). */
  originSecret?: string;
  /** Where the receipts' key comes from; unset, the runtime makes a key of its own (the local server sets one). */
  receipts?: ReceiptKeySource;
}

/**
 * The NPI arena's disk when `PF_NPI_ARENA_MB` is unset: in a Lambda, and elsewhere (docs/deploy.md, sizing).
 * Locally 8 GB, so that the national file's buckets (4.8 GB unzipped) stay placed: with half that, uniformly drawn
 * lookups on a national snapshot slowed sharply as generations rotated (docs/performance.md).
 */
export const DEFAULT_NPI_ARENA_MB = { lambda: DEFAULT_NPI_ARENA_BYTES / (1024 * 1024), local: 8192 } as const;
/** The smallest arena accepted: two generations of one national bucket's unzipped bytes, with room. */
export const MIN_NPI_ARENA_MB = 64;

/** Defaults of {@link loadConfig}, resolved by the entry point. */
export interface ConfigDefaults {
  /** The local root when `PF_LOCAL_DIR` is unset. */
  localDir: string;
  /** Cache folder when `PF_CACHE_DIR` is unset. Default `<localDir>/cache`. */
  cacheDir?: string;
  /** Refuse the embedded local tables (a deployed function must name its tables). */
  requireDeployedTables?: boolean;
}

/**
 * @example
 * const config = loadConfig(process.env, { localDir: '/tmp/pf', cacheDir: '/tmp/pf-cache', requireDeployedTables: true });
 */
export function loadConfig(env: Env, defaults: ConfigDefaults): ApiConfig {
  const read = readEnv(env);
  const localDir = read.optional(ENV.localDir) ?? defaults.localDir;
  const bucket = read.optional(ENV.dataBucket);
  const endpoint = read.optional(ENV.s3Endpoint);
  const region = read.optional(ENV.awsRegion);
  const store: DataStoreConfig = bucket
    ? {
        kind: 's3',
        bucket,
        prefix: read.optional(ENV.dataPrefix) ?? '',
        ...(endpoint ? { endpoint } : {}),
        ...(region ? { region } : {}),
      }
    : { kind: 'folder', dir: path.resolve(read.optional(ENV.dataDir) ?? path.join(localDir, 'data')) };

  if (defaults.requireDeployedTables) read.required(ENV.keysTable);
  return {
    store,
    cacheDir: path.resolve(read.optional(ENV.cacheDir) ?? defaults.cacheDir ?? path.join(localDir, 'cache')),
    pointerTtlSeconds: read.number(ENV.pointerTtlSeconds, { min: 0 }, DEFAULT_POINTER_TTL_SECONDS),
    access: loadAccessConfig(env, { localDir }),
    logLevel: read.oneOf(ENV.logLevel, LOG_LEVELS, 'info'),
    memory: planMemory(readBudgetMb(read)),
    npiArenaBytes: readNpiArenaMb(read) * 1024 * 1024,
    ...originSecretOf(read),
    ...receiptsOf(read, region, defaults.requireDeployedTables === true),
  };
}

/**
 * The receipts' key source: the secret's ARN (`PF_RECEIPT_SECRET_ARN`), else the seed (`PF_RECEIPT_SEED`). A deployed
 * function needs one of them: a key of its own per instance would sign receipts that the public key does not verify.
 */
function receiptsOf(read: EnvReader, region: string | undefined, required: boolean): { receipts?: ReceiptKeySource } {
  const arn = read.optional(ENV.receiptSecretArn);
  if (arn !== undefined) return { receipts: { kind: 'secret', secretId: arn, ...(region ? { region } : {}) } };
  const seed = read.optional(ENV.receiptSeed);
  if (seed !== undefined) return { receipts: { kind: 'seed', seed } };
  if (required) read.required(ENV.receiptSecretArn, `when ${ENV.receiptSeed} is unset`);
  return {};
}

/** `PF_NPI_ARENA_MB` when set, else the Lambda's or the local default. */
function readNpiArenaMb(read: EnvReader): number {
  const mb = read.integer(ENV.npiArenaMb, { min: MIN_NPI_ARENA_MB });
  if (mb !== undefined) return mb;
  return read.integer(ENV.lambdaMemoryMb, { min: 1 }) === undefined
    ? DEFAULT_NPI_ARENA_MB.local
    : DEFAULT_NPI_ARENA_MB.lambda;
}

/** `PF_MEMORY_BUDGET_MB` when set, else the default derived from the Lambda's memory size (or the local one). */
function readBudgetMb(read: EnvReader): number {
  const budget = read.integer(ENV.memoryBudgetMb, { min: MIN_BUDGET_MB });
  if (budget !== undefined) return budget;
  return Math.max(MIN_BUDGET_MB, defaultBudgetMb(read.integer(ENV.lambdaMemoryMb, { min: 1 })));
}

/** The origin secret, when the deployment sets one; a secret shorter than 16 characters is a mistake, refused. */
function originSecretOf(read: EnvReader): { originSecret?: string } {
  const secret = read.optional(ENV.originVerifySecret);
  if (secret === undefined) return {};
  if (secret.length < 16)
    throw new ConfigError(
      ENV.originVerifySecret,
      'must be at least 16 characters (never the secret itself in this message)',
    );
  return { originSecret: secret };
}
