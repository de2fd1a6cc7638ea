/**
 * Environment-variable names: the one table shared by the process entry points (`lambdas/handlers`,
 * `tools/local`, `etl/cli.ts`) and `infra/`. Nothing below the entry points reads `process.env`.
 */
export const ENV = {
  /** S3 bucket holding snapshots and public objects. When unset, the local folder store is used. */
  dataBucket: 'PF_DATA_BUCKET',
  /** Optional key prefix inside the bucket. */
  dataPrefix: 'PF_DATA_PREFIX',
  /**
   * Root of the embedded local default (`npm start`, `npm run keys`, `npm run etl`): `<dir>/data` is the folder
   * store, `<dir>/dynamo` the persisted dynalite database, `<dir>/cache` the Parquet cache. Default `.local`.
   */
  localDir: 'PF_LOCAL_DIR',
  /** Local folder store root, when it should differ from `<PF_LOCAL_DIR>/data`. */
  dataDir: 'PF_DATA_DIR',
  /** Local cache folder for Parquet objects fetched from the store (`/tmp/...` on Lambda). */
  cacheDir: 'PF_CACHE_DIR',
  /** Custom S3 endpoint (s3rver in tests). */
  s3Endpoint: 'PF_S3_ENDPOINT',
  /** DynamoDB table names and custom endpoint (dynalite locally and in tests). */
  keysTable: 'PF_KEYS_TABLE',
  usageTable: 'PF_USAGE_TABLE',
  dynamoEndpoint: 'PF_DYNAMODB_ENDPOINT',
  /** Seconds between re-reads of the current-snapshot pointer. Default 60. */
  pointerTtlSeconds: 'PF_POINTER_TTL_SECONDS',
  /** Milliseconds the metering call may take before the request is served without it. Default 250. */
  meterTimeoutMs: 'PF_METER_TIMEOUT_MS',
  /** Seconds a key lookup is cached in a process. Default 5. */
  keyCacheSeconds: 'PF_KEY_CACHE_SECONDS',
  /**
   * The secret CloudFront sends in the `x-pf-origin-verify` header (data-contracts/edge.ts). When set, a call without
   * it is refused with 403 `cdn_required` before any other work; unset (the local server, tests), nothing is checked.
   */
  originVerifySecret: 'PF_ORIGIN_VERIFY_SECRET',
  /**
   * The ARN of the Secrets Manager secret whose string the receipts' Ed25519 key derives from (a deployment's: the
   * stack creates it). Read once per instance, on the first receipt or public-key request.
   */
  receiptSecretArn: 'PF_RECEIPT_SECRET_ARN',
  /**
   * The receipts' secret string itself, when no ARN is set (the local server, the rehearsal). Unset locally, the local
   * server generates one and keeps it in `<PF_LOCAL_DIR>/receipt-seed`, so its receipts verify across restarts.
   */
  receiptSeed: 'PF_RECEIPT_SEED',
  /** Local server port. Default 8787. */
  port: 'PORT',
  /** `1` adds the benchmark's routes (tools/bench/api/bench-routes.ts) to the LOCAL server only (never the Lambda). */
  benchCeiling: 'PF_BENCH_CEILING',
  /**
   * The API process's memory budget in MB: DuckDB's limit and the identity indexes kept in memory are sized from it
   * (data-contracts/memory-budget.ts). Default: 85% of the Lambda's memory size, or `LOCAL_BUDGET_MB` locally.
   */
  memoryBudgetMb: 'PF_MEMORY_BUDGET_MB',
  /**
   * Local disk in MB the NPI arena (unzipped NPI buckets, lambdas/query/npi-buckets.ts) may take. Default 1024 in a
   * Lambda (its `/tmp` also holds the snapshot's other objects: docs/deploy.md, sizing), 8192 locally
   * (the national file's buckets are 4.8 GB unzipped).
   */
  npiArenaMb: 'PF_NPI_ARENA_MB',
  /** Set by the Lambda runtime: the function's memory size in MB. */
  lambdaMemoryMb: 'AWS_LAMBDA_FUNCTION_MEMORY_SIZE',
  /** debug | info | warn | error. Default info. */
  logLevel: 'PF_LOG_LEVEL',
  /**
   * ETL: the share of a source file's rows that may be rejected before the file fails the run (0-1). Default 0.01.
   * The CLI's `--max-reject-share` overrides it.
   */
  etlMaxRejectShare: 'PF_ETL_MAX_REJECT_SHARE',
  /**
   * ETL: the drop of a layer count, against the current snapshot, above which publishing is refused (0-1). Default
   * 0.1. The CLI's `--max-shrink-share` overrides it; `--allow-shrink` lifts the guard for one run.
   */
  etlMaxShrinkShare: 'PF_ETL_MAX_SHRINK_SHARE',
  awsRegion: 'AWS_REGION',
} as const;
export type EnvName = (typeof ENV)[keyof typeof ENV];
