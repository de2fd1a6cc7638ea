/**
 * Configuration of the ETL's Lambda entry points, read once at cold start from the environment map the entry point
 * passes in. Fails fast naming the missing variable.
 */
import { ENV } from '../../data-contracts/env';
import { type Env, readEnv } from '../../platform/config';
import { LOG_LEVELS, type LogLevel } from '../../platform/logger';

export interface EtlLambdaConfig {
  bucket: string;
  prefix: string;
  endpoint?: string;
  region?: string;
  /** Parent folder of the run's temporary files (`/tmp/...` on Lambda). */
  workDir: string;
  logLevel: LogLevel;
  /** `PF_ETL_MAX_REJECT_SHARE` and `PF_ETL_MAX_SHRINK_SHARE` (0-1), when set: the build's safety limits. */
  maxRejectShare?: number;
  maxShrinkShare?: number;
}

/**
 * Reads the ETL Lambdas' settings; `PF_DATA_BUCKET` is required.
 * @example const config = loadEtlLambdaConfig(process.env);
 */
export function loadEtlLambdaConfig(env: Env): EtlLambdaConfig {
  const read = readEnv(env);
  const endpoint = read.optional(ENV.s3Endpoint);
  const region = read.optional(ENV.awsRegion);
  const maxRejectShare = read.number(ENV.etlMaxRejectShare, { min: 0, max: 1 });
  const maxShrinkShare = read.number(ENV.etlMaxShrinkShare, { min: 0, max: 1 });
  return {
    bucket: read.required(ENV.dataBucket),
    prefix: read.optional(ENV.dataPrefix) ?? '',
    ...(endpoint ? { endpoint } : {}),
    ...(region ? { region } : {}),
    workDir: read.optional(ENV.cacheDir) ?? '/tmp/pf-etl',
    logLevel: read.oneOf(ENV.logLevel, LOG_LEVELS, 'info'),
    ...(maxRejectShare !== undefined ? { maxRejectShare } : {}),
    ...(maxShrinkShare !== undefined ? { maxShrinkShare } : {}),
  };
}
