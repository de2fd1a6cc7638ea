/**
 * Deployment parameters: read from CDK context (`cdk.json` defaults, overridden with `-c name=value`),
 * validated once, and handed to the stack as one typed object. Nothing else in `infra/` reads context.
 */
import type { Node } from 'constructs';
import { EDGE_BLOCK } from '../data-contracts/edge';

/** The context keys an operator may set. Each is documented in `cdk.json` and `docs/deploy.md`. */
export const CONTEXT_KEYS = {
  stackName: 'stackName',
  domainName: 'domainName',
  certificateArn: 'certificateArn',
  snapshotRetentionDays: 'snapshotRetentionDays',
  apiMemoryMb: 'apiMemoryMb',
  apiEphemeralStorageMb: 'apiEphemeralStorageMb',
  architecture: 'architecture',
  alarmEmail: 'alarmEmail',
  apiReservedConcurrency: 'apiReservedConcurrency',
  apiThrottleRateLimit: 'apiThrottleRateLimit',
  apiThrottleBurstLimit: 'apiThrottleBurstLimit',
  webAclArn: 'webAclArn',
  edgeRateWindowSeconds: 'edgeRateWindowSeconds',
  edgeKeylessLimit: 'edgeKeylessLimit',
  edgeAddressLimit: 'edgeAddressLimit',
  originVerify: 'originVerify',
} as const;

/** The evaluation windows a WAF rate-based rule accepts (seconds). */
export const RATE_WINDOWS = [60, 120, 300, 600] as const;
export type RateWindowSeconds = (typeof RATE_WINDOWS)[number];

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
  /**
   * Reserved concurrency of the API function: the most instances it runs at once, and the instances no other function
   * of the account can take from it. 0 leaves the function unreserved (the account's shared pool).
   */
  readonly apiReservedConcurrency: number;
  /** Steady rate (requests per second) the HTTP API stage accepts before answering 429: the account guard. */
  readonly apiThrottleRateLimit: number;
  /** Requests the HTTP API stage accepts at one moment (its token bucket) before answering 429. */
  readonly apiThrottleBurstLimit: number;
  /** An existing CloudFront web ACL (WAFv2, us-east-1) to attach instead of the stack's own, or null. */
  readonly webAclArn: string | null;
  /** Evaluation window of the web ACL's rate-based rules, and the `Retry-After` of their 429. */
  readonly edgeRateWindowSeconds: RateWindowSeconds;
  /** Requests one address may send without a well-formed key (CORS preflights aside) per window. */
  readonly edgeKeylessLimit: number;
  /** Requests one address may send per window, keyed or not. */
  readonly edgeAddressLimit: number;
  /** CloudFront proves itself to the API with a generated secret header; the function refuses calls without it. */
  readonly originVerify: boolean;
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
  apiReservedConcurrency: 200,
  apiThrottleRateLimit: 4000,
  apiThrottleBurstLimit: 200,
  webAclArn: null,
  // The contract's Retry-After of a rate-based block is this window (data-contracts/edge.ts).
  edgeRateWindowSeconds: EDGE_BLOCK.retryAfterSeconds,
  edgeKeylessLimit: 600,
  edgeAddressLimit: 100_000,
  originVerify: true,
};

/** Lambda's limits for memory and `/tmp` ({@link https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html}). */
const LIMITS = {
  memoryMb: { min: 128, max: 10_240 },
  ephemeralStorageMb: { min: 512, max: 10_240 },
  retentionDays: { min: 1, max: 3650 },
  // 0 means "not reserved" here (Lambda's own 0 would stop the function); Lambda keeps 100 of the account unreserved.
  reservedConcurrency: { min: 0, max: 100_000 },
  // A stage's limits cannot exceed the account's (10,000 requests per second, burst 5,000 by default; raisable).
  // https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-throttling.html
  throttleRate: { min: 1, max: 1_000_000 },
  throttleBurst: { min: 1, max: 1_000_000 },
  // https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based-high-level-settings.html
  rateLimit: { min: 10, max: 2_000_000_000 },
} as const;

/** A WAFv2 web ACL of CloudFront scope: they exist only in us-east-1 (`global/webacl/<name>/<id>`). */
const CLOUDFRONT_WEB_ACL_ARN = /^arn:aws[a-z-]*:wafv2:us-east-1:[0-9]{12}:global\/webacl\/[\w-]+\/[0-9a-f-]+$/;

/** A context value, or undefined when it is unset or empty (`-c name=` included). */
function contextValue(node: Node, key: string): unknown {
  const value: unknown = node.tryGetContext(key);
  return value === null || value === '' ? undefined : value;
}

/** A number-valued context value: `-c name=value` always arrives as a string; cdk.json values arrive as numbers. */
function numberValue(raw: unknown): unknown {
  return typeof raw === 'string' ? Number(raw) : raw;
}

function optionalString(node: Node, key: string): string | null {
  const value = contextValue(node, key);
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new Error(`context ${key} must be a string, got ${JSON.stringify(value)}`);
  return value;
}

function integerInRange(node: Node, key: string, fallback: number, range: { min: number; max: number }): number {
  const raw = contextValue(node, key);
  if (raw === undefined) return fallback;
  const value = numberValue(raw);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
    throw new Error(`context ${key} must be an integer from ${range.min} to ${range.max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function booleanFlag(node: Node, key: string, fallback: boolean): boolean {
  const raw = contextValue(node, key);
  if (raw === undefined) return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new Error(`context ${key} must be true or false, got ${JSON.stringify(raw)}`);
}

function rateWindow(node: Node): RateWindowSeconds {
  const key = CONTEXT_KEYS.edgeRateWindowSeconds;
  const raw = contextValue(node, key);
  if (raw === undefined) return DEFAULT_CONFIG.edgeRateWindowSeconds;
  const value = numberValue(raw);
  if (!(RATE_WINDOWS as readonly unknown[]).includes(value)) {
    throw new Error(`context ${key} must be one of ${RATE_WINDOWS.join(', ')} (seconds), got ${JSON.stringify(raw)}`);
  }
  return value as RateWindowSeconds;
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
  const webAclArn = optionalString(node, CONTEXT_KEYS.webAclArn);
  if (webAclArn !== null && !CLOUDFRONT_WEB_ACL_ARN.test(webAclArn)) {
    // A regional ACL (or a WAF Classic id) cannot be attached to a distribution.
    throw new Error(
      `context ${CONTEXT_KEYS.webAclArn} must be the ARN of a CloudFront-scope WAFv2 web ACL ` +
        `(arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>), got ${webAclArn}`,
    );
  }
  const edgeKeylessLimit = integerInRange(
    node,
    CONTEXT_KEYS.edgeKeylessLimit,
    DEFAULT_CONFIG.edgeKeylessLimit,
    LIMITS.rateLimit,
  );
  const edgeAddressLimit = integerInRange(
    node,
    CONTEXT_KEYS.edgeAddressLimit,
    DEFAULT_CONFIG.edgeAddressLimit,
    LIMITS.rateLimit,
  );
  if (edgeAddressLimit <= edgeKeylessLimit) {
    // The keyless rule counts a subset of the address rule's requests: a lower address limit would make it moot.
    throw new Error(
      `context ${CONTEXT_KEYS.edgeAddressLimit} (${edgeAddressLimit}) must be above ` +
        `${CONTEXT_KEYS.edgeKeylessLimit} (${edgeKeylessLimit})`,
    );
  }
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
    apiReservedConcurrency: integerInRange(
      node,
      CONTEXT_KEYS.apiReservedConcurrency,
      DEFAULT_CONFIG.apiReservedConcurrency,
      LIMITS.reservedConcurrency,
    ),
    apiThrottleRateLimit: integerInRange(
      node,
      CONTEXT_KEYS.apiThrottleRateLimit,
      DEFAULT_CONFIG.apiThrottleRateLimit,
      LIMITS.throttleRate,
    ),
    apiThrottleBurstLimit: integerInRange(
      node,
      CONTEXT_KEYS.apiThrottleBurstLimit,
      DEFAULT_CONFIG.apiThrottleBurstLimit,
      LIMITS.throttleBurst,
    ),
    webAclArn,
    edgeRateWindowSeconds: rateWindow(node),
    edgeKeylessLimit,
    edgeAddressLimit,
    originVerify: booleanFlag(node, CONTEXT_KEYS.originVerify, DEFAULT_CONFIG.originVerify),
  };
}

/** What the CDK CLI tells the app about where it deploys (its environment, not context). */
export interface CdkEnvConfig {
  /** `CDK_DEFAULT_REGION`: set by the CLI from `AWS_REGION`, the profile, else us-east-1; undefined outside the CLI. */
  readonly region: string | undefined;
}

/**
 * Reads the CDK CLI's environment once, at the app's entry point (infra/app.ts); nothing else in `infra/` reads it.
 * @example loadCdkEnvConfig(process.env).region // 'eu-west-1'
 */
export function loadCdkEnvConfig(env: Readonly<Record<string, string | undefined>>): CdkEnvConfig {
  const region = env.CDK_DEFAULT_REGION?.trim();
  return { region: region === undefined || region === '' ? undefined : region };
}
