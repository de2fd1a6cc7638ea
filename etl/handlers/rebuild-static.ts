/**
 * The hourly rebuild (EventBridge schedule): recomputes public/coverage.json, public/coverage.html,
 * public/sample.json and public/sample.csv from the current snapshot. Config and clients are built once per execution environment.
 */
import { createJsonLogger } from '../../platform/logger';
import { createS3Client, S3ObjectStore } from '../../platform/s3-store';
import { type RebuildStaticSummary, rebuildStatic } from '../rebuild-static';
import { loadEtlLambdaConfig } from './config';

const config = loadEtlLambdaConfig(process.env);
const logger = createJsonLogger({ level: config.logLevel, base: { fn: 'rebuild-static' } });
const store = new S3ObjectStore(
  createS3Client({ region: config.region, endpoint: config.endpoint }),
  config.bucket,
  config.prefix,
);

export const handler = async (): Promise<RebuildStaticSummary> =>
  rebuildStatic({ store, logger, workDir: config.workDir });
