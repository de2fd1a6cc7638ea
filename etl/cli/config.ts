/**
 * The environment of `npm run etl` (etl/cli.ts), read once through the platform's env reader. Command-line flags
 * override the store named here.
 */
import { ENV } from '../../data-contracts/env';
import { type Env, readEnv } from '../../platform/config';
import { LOG_LEVELS, type LogLevel } from '../../platform/logger';

/** The CLI's settings from the environment. */
export interface EtlCliConfig {
  /** `PF_DATA_BUCKET`: the S3 store when neither `--out` nor `--bucket` is given. */
  bucket?: string;
  /** `PF_DATA_PREFIX`, default empty. */
  prefix: string;
  /** `PF_DATA_DIR`: the folder store, when it should differ from `<localDir>/data`. */
  dataDir?: string;
  /** `PF_LOCAL_DIR`, default `.local` (relative to the working folder). */
  localDir: string;
  /** `AWS_REGION` and `PF_S3_ENDPOINT`, for the S3 store and for s3:// inputs. */
  region?: string;
  endpoint?: string;
  /** `PF_LOG_LEVEL`, default `warn` (a CLI prints its summary, not info logs). */
  logLevel: LogLevel;
  /** `PF_ETL_MAX_REJECT_SHARE` (0-1): the build's default reject threshold when `--max-reject-share` is not given. */
  maxRejectShare?: number;
  /** `PF_ETL_MAX_SHRINK_SHARE` (0-1): the shrink guard's default when `--max-shrink-share` is not given. */
  maxShrinkShare?: number;
}

/**
 * Reads the CLI's settings, failing with a `ConfigError` naming a malformed variable.
 * @example const config = loadEtlCliConfig(process.env);
 */
export function loadEtlCliConfig(env: Env): EtlCliConfig {
  const read = readEnv(env);
  const bucket = read.optional(ENV.dataBucket);
  const dataDir = read.optional(ENV.dataDir);
  const region = read.optional(ENV.awsRegion);
  const endpoint = read.optional(ENV.s3Endpoint);
  const maxRejectShare = read.number(ENV.etlMaxRejectShare, { min: 0, max: 1 });
  const maxShrinkShare = read.number(ENV.etlMaxShrinkShare, { min: 0, max: 1 });
  return {
    ...(bucket ? { bucket } : {}),
    prefix: read.optional(ENV.dataPrefix) ?? '',
    ...(dataDir ? { dataDir } : {}),
    localDir: read.optional(ENV.localDir) ?? '.local',
    ...(region ? { region } : {}),
    ...(endpoint ? { endpoint } : {}),
    logLevel: read.oneOf(ENV.logLevel, LOG_LEVELS, 'warn'),
    ...(maxRejectShare !== undefined ? { maxRejectShare } : {}),
    ...(maxShrinkShare !== undefined ? { maxShrinkShare } : {}),
  };
}
