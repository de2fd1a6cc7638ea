/**
 * The API: its Lambda function (DuckDB over the cached snapshot) behind an HTTP API with a route for every path
 * of the contract and a `$default` route for JSON 404s; the stage's throttle and the function's reserved concurrency
 * (the account's capacity guards, docs/deploy.md), and the function's read-only grants on the bucket.
 */
import { Duration, Size } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, type HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LoggingFormat } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ENV } from '../../data-contracts/env';
import { POINTER_KEY, PUBLIC_KEYS, SNAPSHOTS_PREFIX } from '../../data-contracts/layout';
import { defaultBudgetMb, heapOption, planMemory } from '../../data-contracts/memory-budget';
import { functionCodeProps } from '../bundling';
import type { ArchitectureName } from '../config';
import { API_ROUTE_PATHS } from '../routes';
import { serviceLogGroup } from './logs';

/** The API Lambda's `/tmp` cache folder (Lambda's only writable path). */
export const API_CACHE_DIR = '/tmp/pf-cache' as const;

/** Run-time settings of the API Lambda that are not deployment parameters. */
export const API_SETTINGS = {
  pointerTtlSeconds: 60,
  meterTimeoutMs: 250,
  logLevel: 'info',
  /** API Gateway gives an integration at most 30 s; the function stops first so the client gets our 500. */
  timeoutSeconds: 28,
} as const;

/** The only DynamoDB actions the API may call: key lookup, and the metering counter's atomic update. */
export const API_TABLE_ACTIONS = {
  keys: ['dynamodb:GetItem'],
  usage: ['dynamodb:UpdateItem'],
} as const;

/** The only Secrets Manager action the API may call, on the receipts' secret alone. */
export const API_SECRET_ACTIONS = ['secretsmanager:GetSecretValue'] as const;

/**
 * The bucket keys the API may read, as IAM resource patterns (relative to the bucket): the current-snapshot pointer,
 * every snapshot object (manifests, partitions, indexes and their block digests, static files, the change feed),
 * and the public objects (public by nature: CloudFront serves them to anyone). Not `inputs/` (the ETL's source
 * files). The same patterns bound `s3:ListBucket` (as `s3:prefix`), so that a missing key of them is S3's 404
 * `NoSuchKey`, which the store reads as "absent" (platform/object-store.ts `isNotFoundError`), and not a 403.
 */
export const API_READ_PATTERNS = [POINTER_KEY, `${SNAPSHOTS_PREFIX}*`, ...Object.values(PUBLIC_KEYS)] as const;

/**
 * The stage's access log line (JSON). `$context.path` carries no query string, so a `key=` parameter never reaches
 * the log. `integrationStatus` is Lambda's own status for the invocation, `-` when none was made: it tells the
 * stage's throttle (429, no invocation) from the function's quota 429 (invocation 200), and shows a Lambda throttle
 * (invocation 429, the client's 500).
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-logging-variables.html
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  bytes: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
} as const;

/** Names of the resources the API reads, as its environment carries them. */
export interface ApiResourceNames {
  readonly bucketName: string;
  readonly keysTableName: string;
  readonly usageTableName: string;
  /** The function's memory size: the process's memory budget and V8 heap limit are sized from it. */
  readonly memoryMb: number;
  /**
   * The CDN's origin-verify secret (a CloudFormation dynamic reference, resolved at deploy time), or undefined when
   * the deployment does not check it.
   */
  readonly originVerifySecret?: string;
  /** The ARN of the secret the receipts' key derives from (the function reads it on its first receipt). */
  readonly receiptSecretArn: string;
}

/**
 * The API Lambda's environment, keyed by the names of data-contracts/env.ts.
 * @example apiEnvironment({ bucketName: 'b', keysTableName: 'k', usageTableName: 'u', memoryMb: 2048 })[ENV.cacheDir] === '/tmp/pf-cache'
 */
export function apiEnvironment(names: ApiResourceNames): Record<string, string> {
  const plan = planMemory(defaultBudgetMb(names.memoryMb));
  return {
    [ENV.dataBucket]: names.bucketName,
    [ENV.cacheDir]: API_CACHE_DIR,
    [ENV.keysTable]: names.keysTableName,
    [ENV.usageTable]: names.usageTableName,
    [ENV.pointerTtlSeconds]: String(API_SETTINGS.pointerTtlSeconds),
    [ENV.meterTimeoutMs]: String(API_SETTINGS.meterTimeoutMs),
    [ENV.logLevel]: API_SETTINGS.logLevel,
    [ENV.memoryBudgetMb]: String(plan.budgetMb),
    // The bundle ships a source map; without the first flag Node ignores it. The second gives V8 the old
    // generation of the memory plan (data-contracts/memory-budget.ts) instead of one sized from the VM's memory.
    NODE_OPTIONS: `--enable-source-maps ${heapOption(plan)}`,
    ...(names.originVerifySecret === undefined ? {} : { [ENV.originVerifySecret]: names.originVerifySecret }),
    [ENV.receiptSecretArn]: names.receiptSecretArn,
  };
}

/** Props of {@link Api}. */
export interface ApiProps {
  readonly bucket: IBucket;
  readonly keysTable: ITable;
  readonly usageTable: ITable;
  readonly architecture: ArchitectureName;
  readonly memoryMb: number;
  readonly ephemeralStorageMb: number;
  /** Reserved concurrency, or 0 for none. */
  readonly reservedConcurrency: number;
  /** The stage's throttle: steady requests per second, and requests at one moment. */
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  /** The origin-verify secret's dynamic reference, or null (no check). */
  readonly originVerifySecret: string | null;
  /** The secret the receipts' key derives from: the function may read it, and nothing else of Secrets Manager. */
  readonly receiptSecret: ISecret;
}

/** The API Lambda and the HTTP API in front of it. */
export class Api extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  /** The stage's JSON access log (one line per request, throttled ones too). */
  readonly accessLogGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    this.logGroup = serviceLogGroup(this, 'FunctionLogs');

    this.function = new NodejsFunction(this, 'Function', {
      ...functionCodeProps('api', props.architecture),
      description: 'Provider Facts API: every /api/v1 route (HTTP API payload 2.0)',
      memorySize: props.memoryMb,
      ephemeralStorageSize: Size.mebibytes(props.ephemeralStorageMb),
      timeout: Duration.seconds(API_SETTINGS.timeoutSeconds),
      // Caps the instances (and the bill) of a flood that gets past the edge, and keeps them for the API when other
      // functions of the account scale. A call beyond it is throttled: API Gateway answers it 500 (docs/deploy.md).
      reservedConcurrentExecutions: props.reservedConcurrency > 0 ? props.reservedConcurrency : undefined,
      environment: apiEnvironment({
        bucketName: props.bucket.bucketName,
        keysTableName: props.keysTable.tableName,
        usageTableName: props.usageTable.tableName,
        memoryMb: props.memoryMb,
        ...(props.originVerifySecret === null ? {} : { originVerifySecret: props.originVerifySecret }),
        receiptSecretArn: props.receiptSecret.secretArn,
      }),
      // The handler writes its own JSON lines to stdout; JSON format makes the runtime's lines (START, REPORT,
      // uncaught errors) JSON too, so one Logs Insights query reads them all.
      // https://docs.aws.amazon.com/lambda/latest/dg/monitoring-cloudwatchlogs-advanced.html
      loggingFormat: LoggingFormat.JSON,
      logGroup: this.logGroup,
    });

    // Least privilege: read-only on the keys the API reads (not the ETL's inputs/); one action on each table.
    this.function.addToRolePolicy(
      new PolicyStatement({
        sid: 'ReadSnapshotObjects',
        effect: Effect.ALLOW,
        // GetObject covers HeadObject and ranged GETs, all the API sends (platform/s3-store.ts).
        actions: ['s3:GetObject'],
        resources: API_READ_PATTERNS.map((pattern) => props.bucket.arnForObjects(pattern)),
      }),
    );
    // Without s3:ListBucket, S3 answers a missing key 403 AccessDenied instead of 404 NoSuchKey, and a missing
    // object (an unpublished pointer, an absent optional file) would read as a failure. S3 evaluates the s3:prefix
    // condition of that check with the requested key as the prefix, so listing stays confined to the same keys.
    // https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html (Permissions)
    this.function.addToRolePolicy(
      new PolicyStatement({
        sid: 'ListSnapshotKeys',
        effect: Effect.ALLOW,
        actions: ['s3:ListBucket'],
        resources: [props.bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': [...API_READ_PATTERNS] } },
      }),
    );
    this.function.addToRolePolicy(
      new PolicyStatement({
        sid: 'ReadApiKeys',
        effect: Effect.ALLOW,
        actions: [...API_TABLE_ACTIONS.keys],
        resources: [props.keysTable.tableArn],
      }),
    );
    this.function.addToRolePolicy(
      new PolicyStatement({
        sid: 'CountUsage',
        effect: Effect.ALLOW,
        actions: [...API_TABLE_ACTIONS.usage],
        resources: [props.usageTable.tableArn],
      }),
    );

    this.function.addToRolePolicy(
      new PolicyStatement({
        sid: 'ReadReceiptSecret',
        effect: Effect.ALLOW,
        actions: [...API_SECRET_ACTIONS],
        resources: [props.receiptSecret.secretArn],
      }),
    );

    const integration = new HttpLambdaIntegration('ApiIntegration', this.function);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Provider Facts Data API',
      createDefaultStage: false,
      // Unknown paths and methods reach the Lambda too, which answers the contract's JSON 404.
      defaultIntegration: integration,
    });
    for (const path of API_ROUTE_PATHS) {
      this.httpApi.addRoutes({ path, methods: [HttpMethod.GET], integration });
    }

    this.accessLogGroup = serviceLogGroup(this, 'AccessLogs');
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      // The account guard (every route's default): past it API Gateway answers 429 {"message":"Too Many Requests"}
      // itself; an HTTP API has no gateway responses to shape that body.
      // https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-throttling.html
      throttle: { rateLimit: props.throttle.rateLimit, burstLimit: props.throttle.burstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogGroup),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
  }
}
