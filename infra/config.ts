/**
 * Deployment parameters: read from CDK context (`cdk.json` defaults, overridden with `-c name=value`),
 * validated once, and handed to the stack as one typed object. Nothing else in `infra/` reads context.
 */
import type { Node } from 'constructs';

/** The context keys an operator may set. Each is documented in `cdk.json` and `README.md (Deployment)`. */
export const CONTEXT_KEYS = {
  stackName: 'stackName',
  domainName: 'domainName',
  certificateArn: 'certificateArn',
  snapshotRetentionDays: 'snapshotRetentionDays',
  apiMemoryMb: 'apiMemoryMb',
  apiEphemeralStorageMb: 'apiEphemeralStorageMb',
  architecture: 'architecture',
  alarmEmail: 'alarmEmail',
} as const;

/** CPU architectures the Lambda functions and the ETL container can run on. */
export const ARCHITECTURES = ['x86_64', 'arm64'] as const;
export type ArchitectureName = (typeof ARCHITECTURES)[number];

/** The typed deployment parameters. */
export interface StackConfig {
  /** CloudFormation stack name. */
  readonly stackName: string;
  /** Custom domain for the CDN (needs `certificateArn`), or null for the `*.cloudfront.net` address. */
  readonly domainName: string | null;
  /** ACM certificate in us-east-1 covering `domainName` (CloudFront only reads certificates from us-east-1). */
  readonly certificateArn: string | null;
  /** Days a superseded snapshot is kept before S3 lifecycle expires it. */
  readonly snapshotRetentionDays: number;
  /** API Lambda memory (MB): also buys CPU, which DuckDB uses for Parquet scans. */
  readonly apiMemoryMb: number;
  /** API Lambda `/tmp` size (MB): holds the Parquet cache of the current snapshot. */
  readonly apiEphemeralStorageMb: number;
  /** CPU architecture of every function and of the ETL container. */
  readonly architecture: ArchitectureName;
  /** Address subscribed to the alarm topic, or null to subscribe nobody. */
  readonly alarmEmail: string | null;
}

/** Defaults: the same values `cdk.json` carries, so a stack built without `cdk.json` (tests) behaves alike. */
export const DEFAULT_CONFIG: StackConfig = {
  stackName: 'ProviderFactsApi',
  domainName: null,
  certificateArn: null,
  snapshotRetentionDays: 30,
  apiMemoryMb: 2048,
  apiEphemeralStorageMb: 10240,
  architecture: 'x86_64',
  alarmEmail: null,
};

/** Lambda's limits for memory and `/tmp` ({@link https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html}). */
const LIMITS = {
  memoryMb: { min: 128, max: 10_240 },
  ephemeralStorageMb: { min: 512, max: 10_240 },
  retentionDays: { min: 1, max: 3650 },
} as const;

function optionalString(node: Node, key: string): string | null {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw new Error(`context ${key} must be a string, got ${JSON.stringify(value)}`);
  return value;
}

function integerInRange(node: Node, key: string, fallback: number, range: { min: number; max: number }): number {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined || raw === null || raw === '') return fallback;
  // `-c name=value` always arrives as a string; cdk.json values arrive as numbers.
  const value = typeof raw === 'string' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
    throw new Error(`context ${key} must be an integer from ${range.min} to ${range.max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/**
 * Reads and validates the deployment parameters from CDK context, failing synth with the parameter's name
 * when one is malformed.
 * @example readStackConfig(app.node) // with `cdk synth -c apiMemoryMb=3008`
 */
export function readStackConfig(node: Node): StackConfig {
  const architecture = optionalString(node, CONTEXT_KEYS.architecture) ?? DEFAULT_CONFIG.architecture;
  if (!(ARCHITECTURES as readonly string[]).includes(architecture)) {
    throw new Error(
      `context ${CONTEXT_KEYS.architecture} must be one of ${ARCHITECTURES.join(', ')}, got ${architecture}`,
    );
  }
  const domainName = optionalString(node, CONTEXT_KEYS.domainName);
  const certificateArn = optionalString(node, CONTEXT_KEYS.certificateArn);
  if ((domainName === null) !== (certificateArn === null)) {
    throw new Error(
      `context ${CONTEXT_KEYS.domainName} and ${CONTEXT_KEYS.certificateArn} go together: set both or neither`,
    );
  }
  if (certificateArn !== null && !/^arn:aws[a-z-]*:acm:us-east-1:/.test(certificateArn)) {
    // CloudFront only accepts ACM certificates from us-east-1, whatever region the stack is in.
    throw new Error(`context ${CONTEXT_KEYS.certificateArn} must be an ACM certificate ARN in us-east-1`);
  }
  const memoryMb = integerInRange(node, CONTEXT_KEYS.apiMemoryMb, DEFAULT_CONFIG.apiMemoryMb, LIMITS.memoryMb);
  return {
    stackName: optionalString(node, CONTEXT_KEYS.stackName) ?? DEFAULT_CONFIG.stackName,
    domainName,
    certificateArn,
    snapshotRetentionDays: integerInRange(
      node,
      CONTEXT_KEYS.snapshotRetentionDays,
      DEFAULT_CONFIG.snapshotRetentionDays,
      LIMITS.retentionDays,
    ),
    apiMemoryMb: memoryMb,
    apiEphemeralStorageMb: integerInRange(
      node,
      CONTEXT_KEYS.apiEphemeralStorageMb,
      DEFAULT_CONFIG.apiEphemeralStorageMb,
      LIMITS.ephemeralStorageMb,
    ),
    architecture: architecture as ArchitectureName,
    alarmEmail: optionalString(node, CONTEXT_KEYS.alarmEmail),
  };
}
