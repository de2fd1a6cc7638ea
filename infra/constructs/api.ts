/**
 * The API: its Lambda function (DuckDB over the cached snapshot) behind an HTTP API with a route for every path
 * of the contract and a `$default` route for JSON 404s.
 */
import { Duration, RemovalPolicy, Size } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, type HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LoggingFormat } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ENV } from '../../data-contracts/env';
import { defaultBudgetMb, heapOption, planMemory } from '../../data-contracts/memory-budget';
import { functionCodeProps } from '../bundling';
import type { ArchitectureName } from '../config';
import { API_ROUTE_PATHS } from '../routes';

/** Retention of every log group of the stack. */
export const LOG_RETENTION = RetentionDays.ONE_MONTH;

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

/** Names of the resources the API reads, as its environment carries them. */
export interface ApiResourceNames {
  readonly bucketName: string;
  readonly keysTableName: string;
  readonly usageTableName: string;
  /** The function's memory size: the process's memory budget and V8 heap limit are sized from it. */
  readonly memoryMb: number;
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
}

/** The API Lambda and the HTTP API in front of it. */
export class Api extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'FunctionLogs', {
      retention: LOG_RETENTION,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.function = new NodejsFunction(this, 'Function', {
      ...functionCodeProps('api', props.architecture),
      description: 'Provider Facts API: every /api/v1 route (HTTP API payload 2.0)',
      memorySize: props.memoryMb,
      ephemeralStorageSize: Size.mebibytes(props.ephemeralStorageMb),
      timeout: Duration.seconds(API_SETTINGS.timeoutSeconds),
      environment: apiEnvironment({
        bucketName: props.bucket.bucketName,
        keysTableName: props.keysTable.tableName,
        usageTableName: props.usageTable.tableName,
        memoryMb: props.memoryMb,
      }),
      // The handler writes its own JSON lines to stdout; JSON format makes the runtime's lines (START, REPORT,
      // uncaught errors) JSON too, so one Logs Insights query reads them all.
      // https://docs.aws.amazon.com/lambda/latest/dg/monitoring-cloudwatchlogs-advanced.html
      loggingFormat: LoggingFormat.JSON,
      logGroup: this.logGroup,
    });

    // Least privilege: read-only on the bucket; one action on each table.
    props.bucket.grantRead(this.function);
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

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: LOG_RETENTION,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        // `$context.path` carries no query string, so a `key=` parameter never reaches the access log.
        format: AccessLogFormat.custom(
          JSON.stringify({
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
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
  }
}
