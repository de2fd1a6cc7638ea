/**
 * Configuration of the ETL's Lambda entry points, read once at cold start from the environment map the entry point
 * passes in. Fails fast naming the missing variable.
 */
import { ENV } from '../../data-contracts/env';
import { LOG_LEVELS, type LogLevel } from '../../platform/logger';

export interface EtlLambdaConfig {
  bucket: string;
  prefix: string;
  endpoint?: string;
  region?: string;
  /** Parent folder of the run's temporary files (`/tmp/...` on Lambda). */
  workDir: string;
  logLevel: LogLevel;
}

export function loadEtlLambdaConfig(env: Readonly<Record<string, string | undefined>>): EtlLambdaConfig {
  const bucket = env[ENV.dataBucket];
  if (!bucket) throw new Error(`${ENV.dataBucket} is not set`);
  const level = env[ENV.logLevel] ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level))
    throw new Error(`${ENV.logLevel} is not one of ${LOG_LEVELS.join(', ')}`);
  return {
    bucket,
    prefix: env[ENV.dataPrefix] ?? '',
    ...(env[ENV.s3Endpoint] ? { endpoint: env[ENV.s3Endpoint] } : {}),
    ...(env[ENV.awsRegion] ? { region: env[ENV.awsRegion] } : {}),
    workDir: env[ENV.cacheDir] ?? '/tmp/pf-etl',
    logLevel: level as LogLevel,
  };
}
