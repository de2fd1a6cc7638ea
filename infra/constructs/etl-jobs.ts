/**
 * The data team's jobs: the hourly rebuild of the public objects, the vertical feed ETL (a Lambda), and the
 * national NPPES build (an ECS Fargate task).
 *
 * Why Fargate for NPPES: the national file is ~10 GB of CSV (~9M rows). Lambda stops at 15 minutes and 10 GB of
 * `/tmp`, which cannot hold the CSV plus DuckDB's spill and the Parquet output; a Fargate task has up to 200 GiB
 * of ephemeral storage, 4 vCPU / 30 GB, and no time limit, and runs only when started (no idle cost). AWS Batch
 * would add a queue and compute environment for one job; Glue/EMR would replace our DuckDB ETL code.
 */
import { Duration, Size } from 'aws-cdk-lib';
import { GatewayVpcEndpointAwsService, SubnetType, Vpc } from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import {
  Cluster,
  ContainerImage,
  CpuArchitecture,
  FargateTaskDefinition,
  LogDrivers,
  OperatingSystemFamily,
} from 'aws-cdk-lib/aws-ecs';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LoggingFormat } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ENV } from '../../data-contracts/env';
import { POINTER_KEY } from '../../data-contracts/layout';
import { functionCodeProps, type HandlerName, PROJECT_ROOT } from '../bundling';
import type { ArchitectureName } from '../config';
import { PUBLIC_PREFIX, REBUILD_INTERVAL } from './cdn';
import { SNAPSHOT_RETENTION_TAG, SNAPSHOTS_PREFIX } from './data-store';
import { serviceLogGroup } from './logs';

/** Where the data team uploads the inputs of a build (curation feeds, NPPES / NUCC / LEIE / FDA files). */
export const INPUTS_PREFIX = 'inputs/' as const;

/** Sizes of the ETL compute. */
export const ETL_SIZING = {
  rebuild: { memoryMb: 1024, ephemeralStorageMb: 2048, timeoutMinutes: 10 },
  // 3008 MB: the most a new account may give a function before a quota increase.
  feed: { memoryMb: 3008, ephemeralStorageMb: 10_240, timeoutMinutes: 15 },
  // 4 vCPU with 16 GB; 150 GiB of ephemeral storage for the CSV, DuckDB's spill and the Parquet output.
  nppes: { cpu: 4096, memoryMiB: 16_384, ephemeralStorageGiB: 150 },
} as const;

/** The name of the ETL container in the task definition (for `run-task --overrides`). */
export const ETL_CONTAINER_NAME = 'etl' as const;

/** Props of {@link EtlJobs}. */
export interface EtlJobsProps {
  readonly bucket: IBucket;
  readonly architecture: ArchitectureName;
}

function etlEnvironment(bucket: IBucket, cacheDir: string): Record<string, string> {
  return {
    [ENV.dataBucket]: bucket.bucketName,
    [ENV.cacheDir]: cacheDir,
    [ENV.logLevel]: 'info',
    NODE_OPTIONS: '--enable-source-maps',
  };
}

/** Writing a snapshot: its objects, then `public/*`, then the pointer (data-contracts/layout.ts). */
function grantSnapshotWrite(bucket: IBucket, grantee: Parameters<IBucket['grantPut']>[0]): void {
  bucket.grantRead(grantee);
  bucket.grantPut(grantee, `${SNAPSHOTS_PREFIX}*`);
  bucket.grantPut(grantee, `${PUBLIC_PREFIX}*`);
  bucket.grantPut(grantee, POINTER_KEY);
}

/** What differs between the ETL's two Lambda jobs. */
interface LambdaJob {
  readonly handler: HandlerName;
  readonly description: string;
  readonly sizing: { readonly memoryMb: number; readonly ephemeralStorageMb: number; readonly timeoutMinutes: number };
  readonly cacheDir: string;
}

/**
 * One of the ETL's Lambda jobs, as `<name>Function` with its JSON logs in `<name>Logs`. Never retried
 * asynchronously: a rebuild that fails is retried by the next hour's run (a retry would only overlap with it), and
 * a failed feed build leaves the pointer untouched (a silent retry would only repeat the failure).
 */
function etlFunction(scope: Construct, name: string, props: EtlJobsProps, job: LambdaJob): NodejsFunction {
  const logGroup = serviceLogGroup(scope, `${name}Logs`);
  return new NodejsFunction(scope, `${name}Function`, {
    ...functionCodeProps(job.handler, props.architecture),
    description: job.description,
    memorySize: job.sizing.memoryMb,
    ephemeralStorageSize: Size.mebibytes(job.sizing.ephemeralStorageMb),
    timeout: Duration.minutes(job.sizing.timeoutMinutes),
    environment: etlEnvironment(props.bucket, job.cacheDir),
    loggingFormat: LoggingFormat.JSON,
    logGroup,
    retryAttempts: 0,
  });
}

/** The ETL's deployed jobs. */
export class EtlJobs extends Construct {
  readonly rebuildFunction: NodejsFunction;
  readonly rebuildSchedule: Rule;
  readonly feedFunction: NodejsFunction;
  readonly cluster: Cluster;
  readonly nppesTask: FargateTaskDefinition;
  readonly nppesLogGroup: LogGroup;

  constructor(scope: Construct, id: string, props: EtlJobsProps) {
    super(scope, id);
    const { bucket, architecture } = props;

    // Hourly rebuild of public/coverage.json, public/sample.json and public/sample.csv.
    this.rebuildFunction = etlFunction(this, 'RebuildStatic', props, {
      handler: 'rebuildStatic',
      description: 'Rebuilds the public coverage and sample objects from the current snapshot',
      sizing: ETL_SIZING.rebuild,
      cacheDir: '/tmp/pf-cache',
    });
    bucket.grantRead(this.rebuildFunction);
    bucket.grantPut(this.rebuildFunction, `${PUBLIC_PREFIX}*`);
    // Marks superseded snapshots for expiry (see SNAPSHOT_RETENTION_TAG): tagging only, never deleting.
    this.rebuildFunction.addToRolePolicy(
      new PolicyStatement({
        sid: 'TagSupersededSnapshots',
        effect: Effect.ALLOW,
        actions: ['s3:PutObjectTagging', 's3:GetObjectTagging'],
        resources: [bucket.arnForObjects(`${SNAPSHOTS_PREFIX}*`)],
        conditions: { 'ForAllValues:StringEquals': { 's3:RequestObjectTagKeys': [SNAPSHOT_RETENTION_TAG.key] } },
      }),
    );
    this.rebuildSchedule = new Rule(this, 'RebuildStaticSchedule', {
      description: 'Hourly rebuild of the public coverage and sample objects',
      schedule: Schedule.rate(REBUILD_INTERVAL),
      targets: [new LambdaFunction(this.rebuildFunction, { retryAttempts: 0 })],
    });

    // The vertical feed ETL: a new snapshot from a curation feed under inputs/, reusing the current identity
    // layer. Invoked by the data team (see docs/data-team.md), not by an S3 trigger: a feed is two files,
    // and a trigger on either could start a build before the other has arrived.
    this.feedFunction = etlFunction(this, 'FeedEtl', props, {
      handler: 'feed',
      description: 'Builds a snapshot from a vertical curation feed',
      sizing: ETL_SIZING.feed,
      cacheDir: '/tmp/pf-etl',
    });
    grantSnapshotWrite(bucket, this.feedFunction);

    // The national NPPES build on Fargate. Public subnets and no NAT gateway: the task reaches S3 through the
    // gateway endpoint and CMS (the NPPES download) and ECR through its public IP; nothing listens on it.
    const vpc = new Vpc(this, 'EtlVpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'public', subnetType: SubnetType.PUBLIC, cidrMask: 24 }],
      gatewayEndpoints: { S3: { service: GatewayVpcEndpointAwsService.S3 } },
    });
    this.cluster = new Cluster(this, 'EtlCluster', { vpc });
    this.nppesTask = new FargateTaskDefinition(this, 'NppesTask', {
      cpu: ETL_SIZING.nppes.cpu,
      memoryLimitMiB: ETL_SIZING.nppes.memoryMiB,
      ephemeralStorageGiB: ETL_SIZING.nppes.ephemeralStorageGiB,
      runtimePlatform: {
        operatingSystemFamily: OperatingSystemFamily.LINUX,
        cpuArchitecture: architecture === 'arm64' ? CpuArchitecture.ARM64 : CpuArchitecture.X86_64,
      },
    });
    this.nppesLogGroup = serviceLogGroup(this, 'NppesLogs');
    this.nppesTask.addContainer(ETL_CONTAINER_NAME, {
      // Staged at synth, built by `cdk deploy` (Docker needed then, not for synth or tests).
      image: ContainerImage.fromAsset(PROJECT_ROOT, {
        file: 'etl/Dockerfile',
        platform: architecture === 'arm64' ? Platform.LINUX_ARM64 : Platform.LINUX_AMD64,
      }),
      essential: true,
      environment: etlEnvironment(bucket, '/tmp/pf-etl'),
      logging: LogDrivers.awsLogs({ streamPrefix: 'nppes', logGroup: this.nppesLogGroup }),
    });
    grantSnapshotWrite(bucket, this.nppesTask.taskRole);
  }
}
