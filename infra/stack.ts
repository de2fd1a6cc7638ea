/**
 * The service's stack: data store, API, CDN, ETL jobs, alarms and the outputs an operator needs; the CDN's web ACL
 * too when the stack is in us-east-1 (else it is the edge stack's, infra/edge-stack.ts). No account or region lookups,
 * so `cdk synth` runs offline without credentials.
 */
import { CfnOutput, type CfnResource, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { StackConfig } from './config';
import { Api } from './constructs/api';
import { Cdn } from './constructs/cdn';
import { DataStore } from './constructs/data-store';
import { EdgeAcl } from './constructs/edge-acl';
import { ETL_CONTAINER_NAME, EtlJobs } from './constructs/etl-jobs';
import { Monitoring } from './constructs/monitoring';
import { OriginVerify } from './constructs/origin-verify';
import { ReceiptKey } from './constructs/receipt-key';

/** Names of the stack outputs (the commands of docs/deploy.md read them). */
export const OUTPUT_NAMES = {
  apiUrl: 'ApiUrl',
  cdnUrl: 'CdnUrl',
  dataBucket: 'DataBucketName',
  keysTable: 'KeysTableName',
  usageTable: 'UsageTableName',
  apiFunction: 'ApiFunctionName',
  feedFunction: 'FeedEtlFunctionName',
  rebuildFunction: 'RebuildStaticFunctionName',
  etlCluster: 'EtlClusterName',
  nppesTaskDefinition: 'NppesTaskDefinitionArn',
  etlSubnets: 'EtlSubnetIds',
  etlContainer: 'EtlContainerName',
  alarmTopic: 'AlarmTopicArn',
  webAcl: 'WebAclArn',
  originVerifySecret: 'OriginVerifySecretArn',
} as const;

/** The web ACL's name (and metric name) for a stack name: one per deployment, in us-east-1. */
export function edgeAclName(stackName: string): string {
  return `${stackName}-edge`;
}

/** The web ACL of a distribution, from its rate-limit parameters. */
export function createEdgeAcl(scope: Construct, id: string, config: StackConfig): EdgeAcl {
  return new EdgeAcl(scope, id, {
    name: edgeAclName(config.stackName),
    windowSeconds: config.edgeRateWindowSeconds,
    keylessLimit: config.edgeKeylessLimit,
    addressLimit: config.edgeAddressLimit,
  });
}

/**
 * Where the distribution's web ACL comes from: `config.webAclArn` when set (an existing ACL), else this stack
 * (`'in-stack'`, only in us-east-1), else another stack's ACL by ARN (a cross-region reference), else none (a stack
 * built for a rehearsal, which has no CDN in front of it).
 */
export type WebAclSource = 'in-stack' | { readonly arn: string } | 'none';

/** Props of {@link ProviderFactsStack}. */
export interface ProviderFactsStackProps extends StackProps {
  readonly config: StackConfig;
  /** The web ACL when `config.webAclArn` is not set. Default `'none'`. */
  readonly webAcl?: WebAclSource;
}

/** The Provider Facts Data API deployment. */
export class ProviderFactsStack extends Stack {
  readonly dataStore: DataStore;
  readonly api: Api;
  readonly cdn: Cdn;
  readonly etl: EtlJobs;
  readonly monitoring: Monitoring;
  /** The web ACL, when this stack holds it. */
  readonly edgeAcl: EdgeAcl | null;
  /** The origin-verify secret, unless `originVerify` is off. */
  readonly originVerify: OriginVerify | null;
  /** The secret the receipts' signing key derives from. */
  readonly receiptKey: ReceiptKey;

  constructor(scope: Construct, id: string, props: ProviderFactsStackProps) {
    super(scope, id, props);
    const { config } = props;
    const webAcl = props.webAcl ?? 'none';

    this.originVerify = config.originVerify ? new OriginVerify(this, 'OriginVerify') : null;
    const originVerifySecret = this.originVerify?.value ?? null;
    this.edgeAcl = config.webAclArn === null && webAcl === 'in-stack' ? createEdgeAcl(this, 'Edge', config) : null;
    const webAclArn = config.webAclArn ?? this.edgeAcl?.arn ?? (typeof webAcl === 'object' ? webAcl.arn : null) ?? null;

    this.dataStore = new DataStore(this, 'Data', { snapshotRetentionDays: config.snapshotRetentionDays });
    const { bucket, keysTable, usageTable } = this.dataStore;
    this.receiptKey = new ReceiptKey(this, 'ReceiptKey');

    this.api = new Api(this, 'Api', {
      bucket,
      keysTable,
      usageTable,
      architecture: config.architecture,
      memoryMb: config.apiMemoryMb,
      ephemeralStorageMb: config.apiEphemeralStorageMb,
      reservedConcurrency: config.apiReservedConcurrency,
      throttle: { rateLimit: config.apiThrottleRateLimit, burstLimit: config.apiThrottleBurstLimit },
      originVerifySecret,
      receiptSecret: this.receiptKey.secret,
    });

    this.cdn = new Cdn(this, 'Cdn', {
      bucket,
      httpApi: this.api.httpApi,
      domainName: config.domainName,
      certificateArn: config.certificateArn,
      originVerifySecret,
      webAclArn,
    });

    if (this.originVerify !== null) {
      // The function starts requiring the header only once CloudFront sends it everywhere: CloudFormation updates
      // the distribution first and waits until it is deployed. (Turning the guard off runs in the same order, so
      // calls are refused 403 cdn_required for those minutes: docs/deploy.md.)
      const fn = this.api.function.node.defaultChild as CfnResource;
      fn.addResourceDependency(this.cdn.distribution.node.defaultChild as CfnResource);
    }

    this.etl = new EtlJobs(this, 'Etl', { bucket, architecture: config.architecture });

    this.monitoring = new Monitoring(this, 'Monitoring', {
      httpApi: this.api.httpApi,
      apiFunction: this.api.function,
      apiLogGroup: this.api.logGroup,
      accessLogGroup: this.api.accessLogGroup,
      edgeBlocked: this.edgeAcl?.blockedRequests ?? null,
      rebuildFunction: this.etl.rebuildFunction,
      feedFunction: this.etl.feedFunction,
      alarmEmail: config.alarmEmail,
    });

    const cdnHost = config.domainName ?? this.cdn.distribution.distributionDomainName;
    type OutputName = (typeof OUTPUT_NAMES)[keyof typeof OUTPUT_NAMES];
    const outputs: Partial<Record<OutputName, [string, string]>> = {
      [OUTPUT_NAMES.apiUrl]: [
        this.api.stage.url,
        config.originVerify
          ? 'HTTP API address, for diagnosis only: without the origin-verify header it answers 403 cdn_required'
          : 'HTTP API address (direct, bypassing the CDN and its web ACL)',
      ],
      [OUTPUT_NAMES.cdnUrl]: [`https://${cdnHost}`, 'Public address of the API (CloudFront)'],
      [OUTPUT_NAMES.dataBucket]: [bucket.bucketName, 'Bucket of snapshots, pointer and public objects'],
      [OUTPUT_NAMES.keysTable]: [keysTable.tableName, 'DynamoDB table of API keys (PF_KEYS_TABLE)'],
      [OUTPUT_NAMES.usageTable]: [usageTable.tableName, 'DynamoDB table of monthly usage (PF_USAGE_TABLE)'],
      [OUTPUT_NAMES.apiFunction]: [this.api.function.functionName, 'API Lambda function'],
      [OUTPUT_NAMES.feedFunction]: [this.etl.feedFunction.functionName, 'Vertical feed ETL Lambda function'],
      [OUTPUT_NAMES.rebuildFunction]: [this.etl.rebuildFunction.functionName, 'Hourly static rebuild function'],
      [OUTPUT_NAMES.etlCluster]: [this.etl.cluster.clusterName, 'ECS cluster of the NPPES build'],
      [OUTPUT_NAMES.nppesTaskDefinition]: [this.etl.nppesTask.taskDefinitionArn, 'Fargate task of the NPPES build'],
      [OUTPUT_NAMES.etlSubnets]: [
        this.etl.cluster.vpc.publicSubnets.map((subnet) => subnet.subnetId).join(','),
        'Subnets for run-task (public, assign a public IP)',
      ],
      [OUTPUT_NAMES.etlContainer]: [ETL_CONTAINER_NAME, 'Container name for run-task overrides'],
      [OUTPUT_NAMES.alarmTopic]: [this.monitoring.topic.topicArn, 'SNS topic of every alarm of this stack'],
    };
    if (webAclArn !== null) outputs[OUTPUT_NAMES.webAcl] = [webAclArn, 'Web ACL of the CDN (WAFv2, us-east-1)'];
    if (this.originVerify !== null) {
      outputs[OUTPUT_NAMES.originVerifySecret] = [
        this.originVerify.secret.secretArn,
        'Secret of the origin-verify header (x-pf-origin-verify), for a diagnostic call to ApiUrl',
      ];
    }
    for (const [name, output] of Object.entries(outputs)) {
      if (output !== undefined) new CfnOutput(this, name, { value: output[0], description: output[1] });
    }
  }
}
