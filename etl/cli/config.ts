/**
 * The environment of `npm run etl` (etl/cli.ts): the ETL's shared settings (etl/config.ts) and the local folder
 * store's. Command-line flags override the store named here.
 */
import { ENV } from '../../data-contracts/env';
import { type Env, readEnv } from '../../platform/config';
import { type EtlEnvConfig, readEtlEnv } from '../config';

/** The CLI's settings from the environment. `bucket`: the S3 store when neither `--out` nor `--bucket` is given. */
export interface EtlCliConfig extends EtlEnvConfig {
  /** `PF_DATA_DIR`: the folder store, when it should differ from `<localDir>/data`. */
  dataDir?: string;
  /** `PF_LOCAL_DIR`, default `.local` (relative to the working folder). */
  localDir: string;
}

/**
 * Reads the CLI's settings (log level `warn` by default: a CLI prints its summary, not info logs), failing with a
 * `ConfigError` naming a malformed variable.
 * @example const config = loadEtlCliConfig(process.env);
 */
export function loadEtlCliConfig(env: Env): EtlCliConfig {
  const shared = readEtlEnv(env, 'warn');
  const read = readEnv(env);
  const dataDir = read.optional(ENV.dataDir);
  return { ...shared, ...(dataDir ? { dataDir } : {}), localDir: read.optional(ENV.localDir) ?? '.local' };
}
