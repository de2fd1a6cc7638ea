/**
 * Configuration of the ETL's Lambda entry points, read once at cold start from the environment map the entry point
 * passes in: the ETL's shared settings (etl/config.ts), a required bucket and the work folder. Fails fast naming
 * the missing variable.
 */
import { ENV } from '../../data-contracts/env';
import { type Env, readEnv } from '../../platform/config';
import { type EtlEnvConfig, readEtlEnv } from '../config';

export interface EtlLambdaConfig extends EtlEnvConfig {
  bucket: string;
  /** Parent folder of the run's temporary files (`/tmp/...` on Lambda). */
  workDir: string;
}

/**
 * Reads the ETL Lambdas' settings (log level `info` by default); `PF_DATA_BUCKET` is required.
 * @example const config = loadEtlLambdaConfig(process.env);
 */
export function loadEtlLambdaConfig(env: Env): EtlLambdaConfig {
  const shared = readEtlEnv(env, 'info');
  const read = readEnv(env);
  return {
    ...shared,
    bucket: read.required(ENV.dataBucket),
    workDir: read.optional(ENV.cacheDir) ?? '/tmp/pf-etl',
  };
}
