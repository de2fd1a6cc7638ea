/**
 * The deployed API function (API Gateway HTTP API, payload 2.0). Everything is built once per execution
 * environment, at cold start; each invocation only runs the app.
 */

import { createJsonLogger } from '../../platform/logger';
import { createLambdaHandler } from '../http/lambda-adapter';
import { loadConfig } from './config';
import { createApiRuntime, runtimeOptionsFrom } from './runtime';
import { configureV8Heap } from './v8-heap';

configureV8Heap();

const config = loadConfig(process.env, {
  localDir: '/tmp/pf-local',
  cacheDir: '/tmp/pf-cache',
  requireDeployedTables: true,
});
const logger = createJsonLogger({ level: config.logLevel });

const tables = config.access.tables;
// loadConfig refused the local tables above, so this is always a deployment's.
if (tables.kind !== 'deployed') throw new Error('deployed tables are required');

const ready = createApiRuntime(runtimeOptionsFrom(config, tables, logger)).then((runtime) => {
  // The current snapshot's pointer and manifest are read now, during init, not by the first request (which shares
  // the read if it comes first). A failure here is the first request's to report.
  runtime.snapshots.refresh().catch(() => undefined);
  return { runtime, handle: createLambdaHandler(runtime.app) };
});
// A failed cold start must not become an unhandled rejection before the first invocation awaits it.
ready.catch((err: unknown) => logger.error('cold_start_failed', { error: err }));

/** The Lambda entry point. */
export const handler = async (...args: Parameters<Awaited<typeof ready>['handle']>) => {
  const { handle } = await ready;
  return handle(...args);
};
