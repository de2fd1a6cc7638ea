/**
 * The ETL's environment, read once through the platform's env reader: the settings that the CLI (cli/config.ts) and
 * the Lambdas (handlers/config.ts) share; each adds its own. Fails with a `ConfigError` naming a malformed variable.
 */
import { ENV } from '../data-contracts/env';
import { type Env, readEnv } from '../platform/config';
import { LOG_LEVELS, type LogLevel } from '../platform/logger';

/** The settings every entry of the ETL reads. */
export interface EtlEnvConfig {
  /** `PF_DATA_BUCKET`, when set. */
  bucket?: string;
  /** `PF_DATA_PREFIX`, default empty. */
  prefix: string;
  /** `AWS_REGION` and `PF_S3_ENDPOINT`, for the S3 store and for s3:// inputs. */
  region?: string;
  endpoint?: string;
  /** `PF_LOG_LEVEL`, default the entry's. */
  logLevel: LogLevel;
  /** `PF_ETL_MAX_REJECT_SHARE` (0-1): the build's reject threshold when the run does not give one. */
  maxRejectShare?: number;
  /** `PF_ETL_MAX_SHRINK_SHARE` (0-1): the shrink guard's largest drop when the run does not give one. */
  maxShrinkShare?: number;
}

/** `{ [key]: value }` when the value is set, else nothing: an unset setting stays absent. */
export function present<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/**
 * Reads the shared settings; `defaultLogLevel` is the entry's (a CLI prints its summary, a Lambda logs).
 * @example const { bucket, prefix } = readEtlEnv(process.env, 'warn');
 */
export function readEtlEnv(env: Env, defaultLogLevel: LogLevel): EtlEnvConfig {
  const read = readEnv(env);
  return {
    ...present('bucket', read.optional(ENV.dataBucket)),
    prefix: read.optional(ENV.dataPrefix) ?? '',
    ...present('region', read.optional(ENV.awsRegion)),
    ...present('endpoint', read.optional(ENV.s3Endpoint)),
    ...present('maxRejectShare', read.number(ENV.etlMaxRejectShare, { min: 0, max: 1 })),
    ...present('maxShrinkShare', read.number(ENV.etlMaxShrinkShare, { min: 0, max: 1 })),
    logLevel: read.oneOf(ENV.logLevel, LOG_LEVELS, defaultLogLevel),
  };
}
