/**
 * The whole service in one stack: data store, API, CDN, ETL jobs, alarms and the outputs an operator needs.
 * Environment-agnostic (no account or region lookups), so `cdk synth` runs offline without credentials.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { StackConfig } from './config';
import { Api } from './constructs/api';
import { Cdn } from './constructs/cdn';
import { DataStore } from './constructs/data-store';
import { ETL_CONTAINER_NAME, EtlJobs } from './constructs/etl-jobs';
import { Monitoring } from './constructs/monitoring';

/** Names of the stack outputs (the README's commands read them). */
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
} as const;

/** Props of {@link ProviderFactsStack}. */
export interface ProviderFactsStackProps extends StackProps {
  readonly config: StackConfig;
}

/** The Provider Facts Data API deployment. */
export class ProviderFactsStack extends Stack {
  readonly dataStore: DataStore;
  readonly api: Api;
  readonly cdn: Cdn;
  readonly etl: EtlJobs;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: ProviderFactsStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.dataStore = new DataStore(this, 'Data', { snapshotRetentionDays: config.snapshotRetentionDays });
    const { bucket, keysTable, usageTable } = this.dataStore;

    this.api = new Api(this, 'Api', {
      bucket,
      keysTable,
      usageTable,
      architecture: config.architecture,
      memoryMb: config.apiMemoryMb,
      ephemeralStorageMb: config.apiEphemeralStorageMb,
    });

    this.cdn = new Cdn(this, 'Cdn', {
      bucket,
      httpApi: this.api.httpApi,
      domainName: config.domainName,
      certificateArn: config.certificateArn,
    });

    this.etl = new EtlJobs(this, 'Etl', { bucket, architecture: config.architecture });

    this.monitoring = new Monitoring(this, 'Monitoring', {
      httpApi: this.api.httpApi,
      apiFunction: this.api.function,
      apiLogGroup: this.api.logGroup,
      rebuildFunction: this.etl.rebuildFunction,
      feedFunction: this.etl.feedFunction,
      alarmEmail: config.alarmEmail,
    });

    const cdnHost = config.domainName ?? this.cdn.distribution.distributionDomainName;
    const outputs: Record<(typeof OUTPUT_NAMES)[keyof typeof OUTPUT_NAMES], [string, string]> = {
      [OUTPUT_NAMES.apiUrl]: [this.api.stage.url, 'HTTP API address (direct, bypassing the CDN)'],
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
      [OUTPUT_NAMES.alarmTopic]: [this.monitoring.topic.topicArn, 'SNS topic of every alarm'],
    };
    for (const [name, [value, description]] of Object.entries(outputs)) {
      new CfnOutput(this, name, { value, description });
    }
  }
}
