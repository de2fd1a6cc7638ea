/**
 * The environment of `npm start` (tools/local/start.ts): the API's own configuration plus what only the local server
 * reads, all through the platform's env reader.
 */
import path from 'node:path';
import { ENV } from '../../data-contracts/env';
import { type ApiConfig, loadConfig } from '../../lambdas/handlers/config';
import { type Env, readEnv } from '../../platform/config';

/** The local server's default port. */
export const DEFAULT_PORT = 8787;

/** The local server's settings. */
export interface LocalConfig {
  api: ApiConfig;
  /** `PF_LOCAL_DIR` (absolute): demo keys, the persisted dynalite database, and by default the data and cache. */
  localDir: string;
  /** `PORT`, default {@link DEFAULT_PORT}; 0 picks a free port. */
  port: number;
  /** `PF_BENCH_CEILING=1` turns on the benchmark's in-memory ceiling route (local server only). */
  benchCeiling: boolean;
}

/**
 * Reads the local server's settings, failing with a `ConfigError` naming a missing or malformed variable.
 * @example const config = loadLocalConfig(process.env, { localDir: path.join(repoRoot, '.local') });
 */
export function loadLocalConfig(env: Env, defaults: { localDir: string }): LocalConfig {
  const read = readEnv(env);
  return {
    api: loadConfig(env, defaults),
    localDir: path.resolve(read.optional(ENV.localDir) ?? defaults.localDir),
    port: read.integer(ENV.port, { min: 0, max: 65_535 }, DEFAULT_PORT),
    benchCeiling: read.oneOf(ENV.benchCeiling, ['0', '1'], '0') === '1',
  };
}
