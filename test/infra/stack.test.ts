/**
 * The synthesized stack with default parameters: every resource, route, grant, environment variable, schedule,
 * alarm and output docs/deploy.md describes. The stack is synthesized once (real esbuild bundling) for the whole file.
 */
import { rmSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { COVERAGE_PAGE_CSP, EDGE_BLOCK, FAVICON_CACHE_CONTROL, ORIGIN_VERIFY_HEADER } from '../../data-contracts/edge';
import { ENV } from '../../data-contracts/env';
import { PUBLIC_KEYS } from '../../data-contracts/layout';
import { defaultBudgetMb, planMemory } from '../../data-contracts/memory-budget';
import { fullPathOf, PAGE_PATHS, ROUTES } from '../../data-contracts/routes';
import { KEYS_TABLE, USAGE_TABLE } from '../../data-contracts/tables';
import { DEFAULT_CONFIG } from '../../infra/config';
import { API_CACHE_DIR, API_READ_PATTERNS, API_SECRET_ACTIONS, API_TABLE_ACTIONS } from '../../infra/constructs/api';
import { HSTS } from '../../infra/constructs/cdn';
import { SNAPSHOT_RETENTION_TAG } from '../../infra/constructs/data-store';
import { COMMON_RULE_SET_COUNTED, EDGE_BLOCK_BODY_KEY, EDGE_RULES } from '../../infra/constructs/edge-acl';
import { ETL_SIZING } from '../../infra/constructs/etl-jobs';
import {
  ALARM_THRESHOLDS,
  EDGE_REFUSAL,
  INTEGRITY_FAILURE,
  KEYS_UNAVAILABLE,
  METERING_FAILURE,
  METRIC_NAMESPACE,
  STAGE_THROTTLE,
} from '../../infra/constructs/monitoring';
import { RECEIPT_SECRET_LENGTH } from '../../infra/constructs/receipt-key';
import { API_ROUTE_PATHS, CONTRACT_PATHS, DEFAULT_ROUTE_KEY, routeKeyOf, servingRouteKey } from '../../infra/routes';
import { edgeAclName, OUTPUT_NAMES } from '../../infra/stack';
import { KEYS_UNAVAILABLE_METRIC } from '../../lambdas/access/cached-key-lookup';
import { METERING_FAILURE_METRIC } from '../../lambdas/access/metering';
import { INTEGRITY_FAILURE_METRIC } from '../../lambdas/http/error-mapping';
import { EDGE_REFUSAL_METRIC } from '../../lambdas/http/request-log';
import { actionsOf, logicalIdWhere, statementsOfRole, synthStack, tempOutdir } from './helpers';

let template: Template;
let outdir: string;

type Props = Record<string, unknown>;
const describes = (text: string) => (p: Props) => String(p.Description ?? '').includes(text);
type GetAtt = { 'Fn::GetAtt': [string, string] };
/** Properties of resource `id` of `type` (or of the only one, without `id`); throws when absent. */
const propsOf = (type: string, id?: string): ReturnType<Template['findResources']>[string]['Properties'] => {
  const resources = template.findResources(type);
  const resource = id === undefined ? Object.values(resources)[0] : resources[id];
  if (resource === undefined) throw new Error(`no ${type} ${id ?? ''}`);
  return resource.Properties;
};
const roleOf = (functionId: string): string =>
  (propsOf('AWS::Lambda::Function', functionId).Role as GetAtt)['Fn::GetAtt'][0];
/** The dynamic reference to the origin-verify secret, as CloudFormation resolves it at deploy time. */
const secretReference = () => {
  const secretId = logicalIdWhere(template, 'AWS::SecretsManager::Secret', describes('origin'));
  return { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] };
};

/** The receipts' secret. */
const receiptSecretId = () => logicalIdWhere(template, 'AWS::SecretsManager::Secret', describes('receipts'));

let apiFunctionId: string;
let rebuildFunctionId: string;
let feedFunctionId: string;
let bucketId: string;
let keysTableId: string;
let usageTableId: string;

beforeAll(() => {
  outdir = tempOutdir('pf-infra-stack-');
  ({ template } = synthStack({}, { bundle: true, outdir }));
  apiFunctionId = logicalIdWhere(template, 'AWS::Lambda::Function', describes('Provider Facts API'));
  rebuildFunctionId = logicalIdWhere(template, 'AWS::Lambda::Function', describes('Rebuilds the public'));
  feedFunctionId = logicalIdWhere(template, 'AWS::Lambda::Function', describes('curation feed'));
  bucketId = logicalIdWhere(template, 'AWS::S3::Bucket', () => true);
  keysTableId = logicalIdWhere(template, 'AWS::DynamoDB::Table', (p) => !p.TimeToLiveSpecification);
  usageTableId = logicalIdWhere(template, 'AWS::DynamoDB::Table', (p) => Boolean(p.TimeToLiveSpecification));
});

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

describe('data bucket', () => {
  it('is versioned, encrypted, private and retained', () => {
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        VersioningConfiguration: { Status: 'Enabled' },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
      }),
    });
  });

  it('denies every request that is not TLS', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  it('expires snapshot objects after the retention only when tagged superseded', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({
            Prefix: 'snapshots/',
            TagFilters: [{ Key: SNAPSHOT_RETENTION_TAG.key, Value: SNAPSHOT_RETENTION_TAG.superseded }],
            ExpirationInDays: DEFAULT_CONFIG.snapshotRetentionDays,
            Status: 'Enabled',
          }),
          Match.objectLike({ NoncurrentVersionExpiration: { NoncurrentDays: DEFAULT_CONFIG.snapshotRetentionDays } }),
        ]),
      },
    });
  });

  it('has no rule that could expire a current (untagged) object', () => {
    const rules = propsOf('AWS::S3::Bucket', bucketId).LifecycleConfiguration.Rules as Props[];
    const expiring = rules.filter((rule) => rule.ExpirationInDays !== undefined || rule.ExpirationDate !== undefined);
    expect(expiring).toHaveLength(1);
    expect(expiring[0]?.TagFilters).toEqual([
      { Key: SNAPSHOT_RETENTION_TAG.key, Value: SNAPSHOT_RETENTION_TAG.superseded },
    ]);
  });

  it('lets CloudFront read public/* only, and only from this distribution', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Sid: 'CloudFrontReadsPublicObjects',
            Effect: 'Allow',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Action: 's3:GetObject',
            Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/public/*']] },
            Condition: { StringEquals: { 'AWS:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
    const cloudFront = (propsOf('AWS::S3::BucketPolicy').PolicyDocument.Statement as Props[]).filter((s) =>
      JSON.stringify(s.Principal ?? '').includes('cloudfront'),
    );
    expect(cloudFront).toHaveLength(1);
  });
});

describe('DynamoDB tables', () => {
  it('keys table: key_hash, on demand, PITR, retained', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        KeySchema: [{ AttributeName: KEYS_TABLE.partitionKey, KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: KEYS_TABLE.partitionKey, AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    });
  });

  it('usage table: key_hash + month, on demand, PITR, TTL on expires_at', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: USAGE_TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: USAGE_TABLE.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: USAGE_TABLE.ttlAttribute, Enabled: true },
    });
  });
});

describe('Lambda functions', () => {
  it('runs every function on Node.js 22, x86_64, with JSON logs into a log group with retention', () => {
    const functions = template.findResources('AWS::Lambda::Function');
    expect(Object.keys(functions)).toHaveLength(3);
    for (const fn of Object.values(functions)) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['x86_64']);
      expect(fn.Properties.LoggingConfig.LogFormat).toBe('JSON');
      const logGroupId = fn.Properties.LoggingConfig.LogGroup.Ref as string;
      expect(template.findResources('AWS::Logs::LogGroup')[logGroupId]?.Properties.RetentionInDays).toBe(30);
    }
  });

  it('sizes the API function from the parameters', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('Provider Facts API'),
      Handler: 'index.handler',
      MemorySize: DEFAULT_CONFIG.apiMemoryMb,
      EphemeralStorage: { Size: DEFAULT_CONFIG.apiEphemeralStorageMb },
      Timeout: 28,
    });
  });

  it('gives the API function exactly the environment of data-contracts/env.ts', () => {
    const fn = template.findResources('AWS::Lambda::Function')[apiFunctionId];
    const variables = fn?.Properties.Environment.Variables as Record<string, unknown>;
    expect(Object.keys(variables).sort()).toEqual(
      [
        ENV.dataBucket,
        ENV.cacheDir,
        ENV.keysTable,
        ENV.usageTable,
        ENV.pointerTtlSeconds,
        ENV.meterTimeoutMs,
        ENV.logLevel,
        ENV.memoryBudgetMb,
        ENV.originVerifySecret,
        ENV.receiptSecretArn,
        'NODE_OPTIONS',
      ].sort(),
    );
    // The memory plan of the function's size: 85% of 2048 MB, and V8's old generation of that plan.
    const plan = planMemory(defaultBudgetMb(DEFAULT_CONFIG.apiMemoryMb));
    expect(variables[ENV.memoryBudgetMb]).toBe(String(Math.floor(DEFAULT_CONFIG.apiMemoryMb * 0.85)));
    expect(variables.NODE_OPTIONS).toBe(`--enable-source-maps --max-old-space-size=${plan.heapMb}`);
    expect(variables[ENV.dataBucket]).toEqual({ Ref: bucketId });
    expect(variables[ENV.keysTable]).toEqual({ Ref: keysTableId });
    expect(variables[ENV.usageTable]).toEqual({ Ref: usageTableId });
    expect(variables[ENV.cacheDir]).toBe(API_CACHE_DIR);
    expect(variables[ENV.pointerTtlSeconds]).toBe('60');
    expect(variables[ENV.meterTimeoutMs]).toBe('250');
    expect(variables[ENV.logLevel]).toBe('info');
    // The origin-verify secret: a dynamic reference to the generated secret, resolved at deploy time, never a value.
    expect(variables[ENV.originVerifySecret]).toEqual(secretReference());
    // The receipts' secret: its ARN only (the function reads the value on its first receipt), never a value.
    expect(variables[ENV.receiptSecretArn]).toEqual({ Ref: receiptSecretId() });
  });

  it('generates the receipts\u2019 secret, kept when the stack goes, and lets only the API function read it', () => {
    const id = receiptSecretId();
    const secret = template.findResources('AWS::SecretsManager::Secret')[id];
    expect(secret?.Properties.GenerateSecretString).toEqual(
      expect.objectContaining({ ExcludePunctuation: true, PasswordLength: RECEIPT_SECRET_LENGTH }),
    );
    expect(secret?.Properties.SecretString).toBeUndefined();
    expect(secret?.DeletionPolicy).toBe('Retain');
    const readers = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
      JSON.stringify(policy.Properties.PolicyDocument).includes(JSON.stringify({ Ref: id })),
    );
    expect(readers).toHaveLength(1);
    expect(readers[0]?.Properties.Roles).toEqual([{ Ref: roleOf(apiFunctionId) }]);
    const statements = statementsOfRole(template, roleOf(apiFunctionId));
    const read = statements.find((st) => st.Sid === 'ReadReceiptSecret');
    expect(read?.Action).toBe('secretsmanager:GetSecretValue');
    expect(read?.Resource).toEqual({ Ref: id });
  });

  it('reserves the API function\u2019s concurrency (the account guard), and no other function\u2019s', () => {
    const functions = template.findResources('AWS::Lambda::Function');
    expect(functions[apiFunctionId]?.Properties.ReservedConcurrentExecutions).toBe(
      DEFAULT_CONFIG.apiReservedConcurrency,
    );
    for (const id of [rebuildFunctionId, feedFunctionId]) {
      expect(functions[id]?.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
  });

  it('points the ETL functions at the bucket', () => {
    for (const id of [rebuildFunctionId, feedFunctionId]) {
      const fn = template.findResources('AWS::Lambda::Function')[id];
      expect(fn?.Properties.Environment.Variables[ENV.dataBucket]).toEqual({ Ref: bucketId });
    }
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('curation feed'),
      Timeout: ETL_SIZING.feed.timeoutMinutes * 60,
      EphemeralStorage: { Size: ETL_SIZING.feed.ephemeralStorageMb },
    });
  });
});

describe('least privilege', () => {
  it('API role: read the pointer, snapshots and public objects, GetItem on keys, UpdateItem on usage, nothing else', () => {
    const statements = statementsOfRole(template, roleOf(apiFunctionId));
    const actions = actionsOf(statements);
    expect(actions.sort()).toEqual(
      [
        's3:GetObject',
        's3:ListBucket',
        ...API_TABLE_ACTIONS.keys,
        ...API_TABLE_ACTIONS.usage,
        ...API_SECRET_ACTIONS,
      ].sort(),
    );
    // Objects: exactly the keys of API_READ_PATTERNS (test/infra/api-bucket-grants.test.ts checks them against
    // every key the ETL writes); listing: the bucket, only under those same keys (404, not 403, for a missing one).
    const reads = statements.filter((st) => actionsOf([st]).includes('s3:GetObject'));
    expect(reads).toHaveLength(1);
    const objectArn = (pattern: string) => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, `/${pattern}`]] });
    const sorted = (resources: unknown) => (resources as unknown[]).map((r) => JSON.stringify(r)).sort();
    expect(sorted(reads[0]?.Resource)).toEqual(sorted(API_READ_PATTERNS.map(objectArn)));
    const lists = statements.filter((st) => actionsOf([st]).includes('s3:ListBucket'));
    expect(lists).toHaveLength(1);
    expect(lists[0]?.Resource).toEqual({ 'Fn::GetAtt': [bucketId, 'Arn'] });
    const condition = lists[0]?.Condition as { StringLike?: { 's3:prefix'?: string[] } } | undefined;
    expect([...(condition?.StringLike?.['s3:prefix'] ?? [])].sort()).toEqual([...API_READ_PATTERNS].sort());
    expect(Object.keys(condition ?? {})).toEqual(['StringLike']);
    for (const forbidden of [
      's3:PutObject',
      's3:DeleteObject*',
      'dynamodb:PutItem',
      'dynamodb:DeleteItem',
      'dynamodb:Scan',
    ]) {
      expect(actions).not.toContain(forbidden);
    }
    expect(actions.some((action) => action.startsWith('s3:Put') || action.startsWith('s3:Delete'))).toBe(false);
    const keys = statements.find((s) => s.Sid === 'ReadApiKeys');
    expect(keys?.Action).toBe('dynamodb:GetItem');
    expect(keys?.Resource).toEqual({ 'Fn::GetAtt': [keysTableId, 'Arn'] });
    const usage = statements.find((s) => s.Sid === 'CountUsage');
    expect(usage?.Action).toBe('dynamodb:UpdateItem');
    expect(usage?.Resource).toEqual({ 'Fn::GetAtt': [usageTableId, 'Arn'] });
    // No statement of the API role names the keys table with anything but GetItem.
    const onKeys = statements.filter((s) => JSON.stringify(s.Resource).includes(keysTableId));
    expect(actionsOf(onKeys)).toEqual(['dynamodb:GetItem']);
  });

  it('rebuild role: read the bucket, write public/* only, tag snapshots, no DynamoDB', () => {
    const statements = statementsOfRole(template, roleOf(rebuildFunctionId));
    const actions = actionsOf(statements);
    expect(actions.some((a) => a.startsWith('dynamodb:'))).toBe(false);
    expect(actions.some((a) => a.startsWith('s3:Delete'))).toBe(false);
    const writes = statements.filter((s) => actionsOf([s]).includes('s3:PutObject'));
    expect(writes).toHaveLength(1);
    expect(writes[0]?.Resource).toEqual({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/public/*']] });
    const tagging = statements.find((s) => s.Sid === 'TagSupersededSnapshots');
    expect(actionsOf(tagging ? [tagging] : []).sort()).toEqual(['s3:GetObjectTagging', 's3:PutObjectTagging']);
  });

  it('feed ETL and NPPES task roles: read the bucket, write snapshots/*, public/* and the pointer; no delete', () => {
    const taskRoleId = (propsOf('AWS::ECS::TaskDefinition').TaskRoleArn as GetAtt)['Fn::GetAtt'][0];
    for (const roleId of [roleOf(feedFunctionId), taskRoleId]) {
      const statements = statementsOfRole(template, roleId);
      const actions = actionsOf(statements);
      expect(actions.some((a) => a.startsWith('dynamodb:') || a.startsWith('s3:Delete') || a === 's3:*')).toBe(false);
      // One statement per prefix, or one listing the three (the minimizePolicies feature flag merges them).
      const writeResources = statements
        .filter((s) => actionsOf([s]).includes('s3:PutObject'))
        .flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]))
        .map((resource) => JSON.stringify(resource));
      expect(writeResources).toHaveLength(3);
      expect(writeResources.join()).toContain('/snapshots/*');
      expect(writeResources.join()).toContain('/public/*');
      expect(writeResources.join()).toContain('/current.json');
    }
  });
});

describe('HTTP API', () => {
  it('integrates the API Lambda with payload format 2.0', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [apiFunctionId, 'Arn'] },
    });
  });

  it.each(API_ROUTE_PATHS)('has GET %s routed to the API Lambda', (path) => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
      RouteKey: routeKeyOf(path),
      Target: Match.anyValue(),
    });
  });

  it('has exactly one route per row of the contract route table, plus $default', () => {
    const keys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties.RouteKey as string,
    );
    const table = ROUTES.map((route) => `${route.method} ${fullPathOf(route)}`);
    expect([...keys].sort()).toEqual([...table, DEFAULT_ROUTE_KEY].sort());
  });

  it('has a $default route for JSON 404s', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: DEFAULT_ROUTE_KEY });
  });

  it.each(CONTRACT_PATHS)('serves %s through a route that targets the one integration', (path) => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route'));
    const integrationIds = Object.keys(template.findResources('AWS::ApiGatewayV2::Integration'));
    expect(integrationIds).toHaveLength(1);
    const route = routes.find((r) => r.Properties.RouteKey === servingRouteKey(path));
    expect(route).toBeDefined();
    expect(JSON.stringify(route?.Properties.Target)).toContain(integrationIds[0]);
  });

  it('has no route key ending in a slash (API Gateway rejects them)', () => {
    const keys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties.RouteKey as string,
    );
    expect(keys.filter((key) => key.endsWith('/'))).toEqual([]);
  });

  it('deploys the $default stage automatically, with JSON access logs', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('"routeKey"') },
    });
  });
});

describe('hourly rebuild', () => {
  it('runs the rebuild function at rate(1 hour)', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 hour)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [rebuildFunctionId, 'Arn'] } })],
    });
  });
});

describe('NPPES build on Fargate', () => {
  it('runs a 4 vCPU / 16 GB task with 150 GiB of ephemeral storage from the etl/Dockerfile image', () => {
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      RequiresCompatibilities: ['FARGATE'],
      Cpu: '4096',
      Memory: '16384',
      EphemeralStorage: { SizeInGiB: 150 },
      RuntimePlatform: { CpuArchitecture: 'X86_64', OperatingSystemFamily: 'LINUX' },
      ContainerDefinitions: [
        Match.objectLike({
          Name: 'etl',
          Image: Match.anyValue(),
          Environment: Match.arrayWith([{ Name: ENV.dataBucket, Value: { Ref: bucketId } }]),
        }),
      ],
    });
    template.resourceCountIs('AWS::ECS::Cluster', 1);
    template.resourcePropertiesCountIs('AWS::EC2::VPCEndpoint', { VpcEndpointType: 'Gateway' }, 1);
  });
});

describe('CloudFront', () => {
  const behaviors = (): Props[] => {
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0];
    return distribution?.Properties.DistributionConfig.CacheBehaviors as Props[];
  };
  const behavior = (pattern: string): Props => {
    const found = behaviors().find((b) => b.PathPattern === pattern);
    if (found === undefined) throw new Error(`no behaviour ${pattern}`);
    return found;
  };
  const defaultBehavior = (): Props => {
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0];
    return distribution?.Properties.DistributionConfig.DefaultCacheBehavior as Props;
  };
  const STATIC = ['/api/v1/coverage.html*', '/api/v1/coverage*', '/api/v1/sample*'];

  it('serves the page, coverage and sample from S3 before /api/v1/* goes to the API, and answers the favicon', () => {
    expect(behaviors().map((b) => b.PathPattern)).toEqual([...STATIC, '/api/v1/*', '/favicon.ico']);
  });

  it('serves the coverage page from public/coverage.html in the bucket, through the first behaviour matching its path', () => {
    const page = `/api/v1${PAGE_PATHS.coverage}`;
    // CloudFront patterns: `*` matches any run of characters; the first matching behaviour wins.
    const matches = (pattern: string) =>
      new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(page);
    const behavior = behaviors().find((b) => matches(String(b.PathPattern)));
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0];
    const origins = distribution?.Properties.DistributionConfig.Origins as Props[];
    const s3 = origins.find((o) => o.S3OriginConfig !== undefined);
    expect(behavior?.TargetOriginId).toBe(s3?.Id);
    // The behaviour's viewer-request function, as deployed, maps the page to its object.
    const associations = (behavior?.FunctionAssociations ?? []) as Props[];
    const arn = associations.find((f) => f.EventType === 'viewer-request')?.FunctionARN as { 'Fn::GetAtt': string[] };
    const functionId = arn['Fn::GetAtt'][0] ?? '';
    const code = template.toJSON().Resources[functionId].Properties.FunctionCode as string;
    const context: { handler?: (event: unknown) => { uri: string; querystring: unknown } } = {};
    runInNewContext(`${code}\nthis.handler = handler;`, context);
    const out = context.handler?.({
      version: '1.0',
      context: { eventType: 'viewer-request', requestId: 'r' },
      request: { method: 'GET', uri: page, querystring: { utm_source: { value: 'x' } }, headers: {} },
    });
    expect(out).toMatchObject({ uri: `/${PUBLIC_KEYS.coveragePage}`, querystring: {} });
  });

  it('caches the static behaviours with the format-keyed policy and runs the rewrite functions', () => {
    const policyId = logicalIdWhere(template, 'AWS::CloudFront::CachePolicy', () => true);
    for (const pattern of STATIC) {
      const staticBehavior = behavior(pattern);
      expect(staticBehavior.CachePolicyId).toEqual({ Ref: policyId });
      expect(staticBehavior.AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS']);
      expect((staticBehavior.FunctionAssociations as Props[]).map((f) => f.EventType).sort()).toEqual([
        'viewer-request',
        'viewer-response',
      ]);
    }
    // The page's behaviour runs the same two functions as coverage's.
    expect(behavior(STATIC[0] as string).FunctionAssociations).toEqual(
      behavior(STATIC[1] as string).FunctionAssociations,
    );
    template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({
        DefaultTTL: 3600,
        MaxTTL: 3600,
        MinTTL: 0,
        ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({
          QueryStringsConfig: { QueryStringBehavior: 'whitelist', QueryStrings: ['format'] },
          HeadersConfig: { HeaderBehavior: 'none' },
          CookiesConfig: { CookieBehavior: 'none' },
        }),
      }),
    });
    template.resourcePropertiesCountIs(
      'AWS::CloudFront::Function',
      { FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }) },
      3,
    );
  });

  it('never caches the API and forwards every viewer header but Host, and every query string', () => {
    for (const api of [behavior('/api/v1/*'), defaultBehavior()]) {
      expect(api.CachePolicyId).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
      expect(api.OriginRequestPolicyId).toBe(OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId);
      expect(api.ViewerProtocolPolicy).toBe('https-only');
    }
  });

  it('lets CORS preflights and Accept-Encoding reach the API, and compresses without caching keyed answers', () => {
    for (const api of [behavior('/api/v1/*'), defaultBehavior()]) {
      expect(api.AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS']);
      expect(api.Compress).toBe(true);
      expect(api.CachePolicyId).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
    }
    for (const pattern of STATIC) expect(behavior(pattern).Compress).toBe(true);
    // API Gateway answers no preflight itself: OPTIONS falls to $default, the API Lambda.
    for (const api of Object.values(template.findResources('AWS::ApiGatewayV2::Api')))
      expect(api.Properties.CorsConfiguration).toBeUndefined();
  });

  it('reaches S3 through origin access control and the API over HTTPS', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0];
    const origins = distribution?.Properties.DistributionConfig.Origins as Props[];
    expect(origins).toHaveLength(2);
    const s3 = origins.find((o) => o.S3OriginConfig !== undefined);
    expect(s3?.OriginAccessControlId).toBeDefined();
    const api = origins.find((o) => o.CustomOriginConfig !== undefined);
    expect(api?.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
  });

  it('sends the API origin the origin-verify header, its value the generated secret by dynamic reference', () => {
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0];
    const origins = distribution?.Properties.DistributionConfig.Origins as Props[];
    const api = origins.find((o) => o.CustomOriginConfig !== undefined);
    expect(api?.OriginCustomHeaders).toEqual([{ HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: secretReference() }]);
    // The S3 origin gets no secret.
    const s3 = origins.find((o) => o.S3OriginConfig !== undefined);
    expect(s3?.OriginCustomHeaders).toBeUndefined();
    // Secrets Manager generates the value at deploy time: letters and digits, nothing in the template.
    const originSecretId = logicalIdWhere(template, 'AWS::SecretsManager::Secret', describes('origin'));
    expect(propsOf('AWS::SecretsManager::Secret', originSecretId).GenerateSecretString).toEqual(
      expect.objectContaining({ ExcludePunctuation: true, PasswordLength: 64 }),
    );
    expect(propsOf('AWS::SecretsManager::Secret', originSecretId).SecretString).toBeUndefined();
    // The function requires the header only after CloudFront sends it: it is updated after the distribution.
    const distributionId = logicalIdWhere(template, 'AWS::CloudFront::Distribution', () => true);
    expect(template.findResources('AWS::Lambda::Function')[apiFunctionId]?.DependsOn).toContain(distributionId);
  });

  it('puts a response headers policy on every behaviour, the page\u2019s with its CSP and no framing', () => {
    const policies = template.findResources('AWS::CloudFront::ResponseHeadersPolicy');
    expect(Object.keys(policies)).toHaveLength(2);
    const pageId = logicalIdWhere(template, 'AWS::CloudFront::ResponseHeadersPolicy', (p) =>
      JSON.stringify(p).includes('ContentSecurityPolicy'),
    );
    const commonId = Object.keys(policies).find((id) => id !== pageId);
    for (const b of [defaultBehavior(), ...behaviors()]) {
      expect(b.ResponseHeadersPolicyId).toEqual({ Ref: b.PathPattern === STATIC[0] ? pageId : commonId });
    }
    const config = (id: string | undefined) =>
      policies[id ?? '']?.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig as Props;
    const common = {
      StrictTransportSecurity: {
        AccessControlMaxAgeSec: 63_072_000,
        IncludeSubdomains: true,
        Preload: false,
        Override: true,
      },
      ContentTypeOptions: { Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
    };
    expect(HSTS.maxAgeSeconds).toBe(2 * 365 * 86_400);
    expect(config(commonId)).toEqual(common);
    expect(config(pageId)).toEqual({
      ...common,
      ContentSecurityPolicy: { ContentSecurityPolicy: COVERAGE_PAGE_CSP, Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
    });
    expect(COVERAGE_PAGE_CSP).toContain("frame-ancestors 'none'");
    // CORS stays with the functions and the API: no policy sets or removes a CORS or custom header.
    for (const policy of Object.values(policies)) {
      const body = policy.Properties.ResponseHeadersPolicyConfig as Props;
      expect(body.CorsConfig).toBeUndefined();
      expect(body.CustomHeadersConfig).toBeUndefined();
      expect(body.RemoveHeadersConfig).toBeUndefined();
    }
  });

  it('answers /favicon.ico with 204 at the edge, as the API does', () => {
    const favicon = behavior('/favicon.ico');
    const associations = favicon.FunctionAssociations as Props[];
    expect(associations.map((f) => f.EventType)).toEqual(['viewer-request']);
    const arn = associations[0]?.FunctionARN as { 'Fn::GetAtt': string[] } | undefined;
    const functionId = arn?.['Fn::GetAtt'][0] ?? '';
    const code = template.toJSON().Resources[functionId].Properties.FunctionCode as string;
    const context: {
      handler?: (event: unknown) => { statusCode: number; headers: Record<string, { value: string }> };
    } = {};
    runInNewContext(`${code}\nthis.handler = handler;`, context);
    const out = context.handler?.({
      version: '1.0',
      context: { eventType: 'viewer-request', requestId: 'r' },
      request: { method: 'GET', uri: '/favicon.ico', querystring: {}, headers: {} },
    });
    expect(out?.statusCode).toBe(204);
    expect(out?.headers['cache-control']?.value).toBe(FAVICON_CACHE_CONTROL);
  });
});

describe('alarms', () => {
  it('has the twelve alarms, each notifying the alarm topic', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms).toHaveLength(12);
    const topicId = logicalIdWhere(template, 'AWS::SNS::Topic', () => true);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
  });

  it('alarms on the API 5xx rate computed from 5xx and Count, Lambda throttles of the API function left out', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Threshold: 1,
      Metrics: Match.arrayWith([
        Match.objectLike({
          Expression:
            'IF(requests >= 20, 100 * IF(FILL(errors, 0) > FILL(throttles, 0), FILL(errors, 0) - FILL(throttles, 0), 0) / requests, 0)',
        }),
        Match.objectLike({ MetricStat: Match.objectLike({ Metric: Match.objectLike({ MetricName: 'Count' }) }) }),
        Match.objectLike({ MetricStat: Match.objectLike({ Metric: Match.objectLike({ MetricName: '5xx' }) }) }),
        Match.objectLike({
          Id: 'throttles',
          MetricStat: Match.objectLike({
            Metric: {
              Namespace: 'AWS/Lambda',
              MetricName: 'Throttles',
              Dimensions: [{ Name: 'FunctionName', Value: { Ref: apiFunctionId } }],
            },
            Stat: 'Sum',
          }),
        }),
      ]),
    });
  });

  it('computes the 5xx rate as the alarm does: throttled 500s are not failures, other 500s are', () => {
    // The expression, evaluated on one period's sums as CloudWatch would (FILL: a missing sum is 0).
    const rate = (requests: number, errors: number | undefined, throttles: number | undefined) => {
      const e = errors ?? 0;
      const t = throttles ?? 0;
      return requests >= ALARM_THRESHOLDS.api5xxMinRequests ? (100 * (e > t ? e - t : 0)) / requests : 0;
    };
    expect(rate(1000, 50, 50)).toBe(0);
    expect(rate(1000, 50, undefined)).toBe(5);
    expect(rate(1000, 60, 50)).toBe(1);
    expect(rate(1000, 10, 50)).toBe(0);
  });

  it('alarms on the API p99 latency', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'Latency',
      Namespace: 'AWS/ApiGateway',
      ExtendedStatistic: 'p99',
    });
  });

  it('alarms on throttles of each function', () => {
    for (const id of [apiFunctionId, rebuildFunctionId, feedFunctionId]) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'Throttles',
        Namespace: 'AWS/Lambda',
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: id } }],
      });
    }
  });

  it.each([
    ['MeteringFailure', METERING_FAILURE, METERING_FAILURE_METRIC],
    ['KeysTableUnavailable', KEYS_UNAVAILABLE, KEYS_UNAVAILABLE_METRIC],
    ['IntegrityFailure', INTEGRITY_FAILURE, INTEGRITY_FAILURE_METRIC],
  ])('counts %s log lines of the API and alarms on them', (_name, line, written) => {
    // The filter matches the value the API writes.
    expect(line.value).toBe(written);
    const apiLogGroup = template.findResources('AWS::Lambda::Function')[apiFunctionId]?.Properties.LoggingConfig
      .LogGroup as { Ref: string };
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: apiLogGroup,
      FilterPattern: Match.stringLikeRegexp(`\\$\\.${line.field} = "${line.value}"`),
      MetricTransformations: [
        Match.objectLike({
          MetricNamespace: METRIC_NAMESPACE,
          MetricName: line.metricName,
          MetricValue: '1',
          DefaultValue: 0,
        }),
      ],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: line.metricName,
      Namespace: METRIC_NAMESPACE,
    });
  });

  it('alarms when the hourly rebuild fails', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: rebuildFunctionId } }],
    });
  });

  it('counts EdgeRefusal log lines of the API (403 cdn_required) and alarms on any', () => {
    // The API's log line (lambdas/, the origin check): `metric: 'EdgeRefusal'`.
    expect(EDGE_REFUSAL.value).toBe(EDGE_REFUSAL_METRIC);
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      FilterPattern: Match.stringLikeRegexp(`\\$\\.metric = "EdgeRefusal"`),
      MetricTransformations: [Match.objectLike({ MetricNamespace: METRIC_NAMESPACE, MetricName: 'EdgeRefusals' })],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: EDGE_REFUSAL.metricName,
      Namespace: METRIC_NAMESPACE,
      Threshold: ALARM_THRESHOLDS.edgeRefusals,
    });
  });

  it('counts the stage\u2019s throttles from its access log (429 without an invocation) and alarms on any', () => {
    const stage = propsOf('AWS::ApiGatewayV2::Stage');
    const accessLogGroup = (stage.AccessLogSettings.DestinationArn as GetAtt)['Fn::GetAtt'][0];
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: accessLogGroup },
      FilterPattern:
        '{ ($.status = "429") && (($.integrationStatus = "-") || ($.integrationStatus = "") || ($.integrationStatus NOT EXISTS)) }',
      MetricTransformations: [
        Match.objectLike({ MetricNamespace: METRIC_NAMESPACE, MetricName: STAGE_THROTTLE.metricName, DefaultValue: 0 }),
      ],
    });
    // The access log line carries the fields the filter reads.
    const format = JSON.parse(stage.AccessLogSettings.Format as string) as Record<string, string>;
    expect(format[STAGE_THROTTLE.statusField]).toBe('$context.status');
    expect(format[STAGE_THROTTLE.integrationStatusField]).toBe('$context.integrationStatus');
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: STAGE_THROTTLE.metricName,
      Namespace: METRIC_NAMESPACE,
      Threshold: ALARM_THRESHOLDS.stageThrottles,
    });
  });

  it('alarms on the web ACL\u2019s blocked requests, in us-east-1 without a Region dimension', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/WAFV2',
      MetricName: 'BlockedRequests',
      Dimensions: [
        { Name: 'Rule', Value: 'ALL' },
        { Name: 'WebACL', Value: edgeAclName(DEFAULT_CONFIG.stackName) },
      ],
      Statistic: 'Sum',
      Period: 300,
      Threshold: ALARM_THRESHOLDS.edgeBlocked,
    });
  });
});

describe('capacity guards', () => {
  it('throttles the HTTP API stage at the account guard\u2019s rate and burst', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: {
        ThrottlingRateLimit: DEFAULT_CONFIG.apiThrottleRateLimit,
        ThrottlingBurstLimit: DEFAULT_CONFIG.apiThrottleBurstLimit,
      },
    });
  });

  it('sizes the defaults from the rehearsal: the stage\u2019s rate is what the reserved instances serve warm', () => {
    // docs/deployment-rehearsal.md ("Sizing the function for a traffic"): a warm call takes about 50 ms.
    const warmCallSeconds = 0.05;
    expect(DEFAULT_CONFIG.apiThrottleRateLimit).toBe(DEFAULT_CONFIG.apiReservedConcurrency / warmCallSeconds);
    expect(DEFAULT_CONFIG.apiThrottleBurstLimit).toBe(DEFAULT_CONFIG.apiReservedConcurrency);
    // Well above a developer key spending its whole month (25,000 calls) in one minute: 417 calls/s, 9.6 times less.
    expect(DEFAULT_CONFIG.apiThrottleRateLimit).toBeGreaterThan((9 * 25_000) / 60);
    // Lambda keeps 100 of the account's default 1,000 unreserved.
    expect(DEFAULT_CONFIG.apiReservedConcurrency).toBeLessThanOrEqual(900);
  });
});

describe('web ACL (service stack in us-east-1)', () => {
  const acl = () => propsOf('AWS::WAFv2::WebACL');
  const rule = (name: string) => (acl().Rules as Props[]).find((r) => r.Name === name) as Props;

  it('is a CloudFront-scope ACL attached to the distribution, allowing by default', () => {
    const aclId = logicalIdWhere(template, 'AWS::WAFv2::WebACL', () => true);
    expect(acl()).toMatchObject({
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Name: edgeAclName(DEFAULT_CONFIG.stackName),
      VisibilityConfig: { CloudWatchMetricsEnabled: true, MetricName: edgeAclName(DEFAULT_CONFIG.stackName) },
    });
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ WebACLId: { 'Fn::GetAtt': [aclId, 'Arn'] } }),
    });
  });

  it('has the two rate rules before the common rule set, each with its CloudWatch metric', () => {
    expect((acl().Rules as Props[]).map((r) => [r.Name, r.Priority])).toEqual([
      [EDGE_RULES.addressVolume.name, 0],
      [EDGE_RULES.keyless.name, 1],
      [EDGE_RULES.common.name, 2],
    ]);
    for (const r of acl().Rules as Props[]) {
      expect(r.VisibilityConfig).toEqual({
        CloudWatchMetricsEnabled: true,
        MetricName: r.Name,
        SampledRequestsEnabled: true,
      });
    }
  });

  it('blocks both rate rules with the contract\u2019s JSON 429 and Retry-After of the window', () => {
    expect(acl().CustomResponseBodies).toEqual({
      [EDGE_BLOCK_BODY_KEY]: { ContentType: 'APPLICATION_JSON', Content: JSON.stringify(EDGE_BLOCK.body) },
    });
    for (const name of [EDGE_RULES.addressVolume.name, EDGE_RULES.keyless.name]) {
      const response = (rule(name).Action as Props).Block as { CustomResponse: Props };
      expect(response.CustomResponse).toMatchObject({
        ResponseCode: EDGE_BLOCK.status,
        CustomResponseBodyKey: EDGE_BLOCK_BODY_KEY,
      });
      const headers = response.CustomResponse.ResponseHeaders as { Name: string; Value: string }[];
      // Named as the client must see it: WAF prefixes only headers it inserts into forwarded requests.
      expect(headers).toContainEqual({ Name: 'Retry-After', Value: String(EDGE_BLOCK.retryAfterSeconds) });
      expect(headers).toContainEqual({ Name: 'Access-Control-Allow-Origin', Value: '*' });
      const statement = (rule(name).Statement as Props).RateBasedStatement as Props;
      expect(statement).toMatchObject({ AggregateKeyType: 'IP', EvaluationWindowSec: EDGE_BLOCK.retryAfterSeconds });
    }
    expect(DEFAULT_CONFIG.edgeRateWindowSeconds).toBe(EDGE_BLOCK.retryAfterSeconds);
  });

  it('limits every request of one address above any plan\u2019s month within one window', () => {
    const statement = (rule(EDGE_RULES.addressVolume.name).Statement as Props).RateBasedStatement as Props;
    expect(statement.Limit).toBe(DEFAULT_CONFIG.edgeAddressLimit);
    expect(statement.ScopeDownStatement).toBeUndefined();
    // The developer plan's 25,000 calls, each with a browser's CORS preflight, for two keys behind one address.
    expect(DEFAULT_CONFIG.edgeAddressLimit).toBeGreaterThanOrEqual(25_000 * 2 * 2);
  });

  it('limits requests without a well-formed key (in any of the three places) but not CORS preflights', () => {
    const statement = (rule(EDGE_RULES.keyless.name).Statement as Props).RateBasedStatement as Props;
    expect(statement.Limit).toBe(DEFAULT_CONFIG.edgeKeylessLimit);
    const scope = (statement.ScopeDownStatement as Props).AndStatement as { Statements: Props[] };
    const [noKey, notPreflight] = scope.Statements as [Props, Props];
    const places = ((noKey.NotStatement as Props).Statement as Props).OrStatement as { Statements: Props[] };
    expect(places.Statements.map((st) => (st.RegexMatchStatement as Props).FieldToMatch)).toEqual([
      { SingleHeader: { Name: 'authorization' } },
      { SingleHeader: { Name: 'x-api-key' } },
      { SingleQueryArgument: { Name: 'key' } },
    ]);
    expect((notPreflight.NotStatement as Props).Statement).toEqual({
      ByteMatchStatement: {
        FieldToMatch: { Method: {} },
        PositionalConstraint: 'EXACTLY',
        SearchString: 'OPTIONS',
        TextTransformations: [{ Priority: 0, Type: 'NONE' }],
      },
    });
  });

  it('runs AWS\u2019s common rule set with the rules that refuse contract-valid calls counted', () => {
    const common = rule(EDGE_RULES.common.name);
    expect(common.OverrideAction).toEqual({ None: {} });
    expect(common.Statement).toEqual({
      ManagedRuleGroupStatement: {
        VendorName: 'AWS',
        Name: 'AWSManagedRulesCommonRuleSet',
        RuleActionOverrides: Object.keys(COMMON_RULE_SET_COUNTED).map((name) => ({
          Name: name,
          ActionToUse: { Count: {} },
        })),
      },
    });
  });
});

describe('outputs', () => {
  it.each(Object.values(OUTPUT_NAMES))('outputs %s', (name) => {
    template.hasOutput(name, { Value: Match.anyValue() });
  });

  it('outputs the bucket and table names by reference', () => {
    template.hasOutput(OUTPUT_NAMES.dataBucket, { Value: { Ref: bucketId } });
    template.hasOutput(OUTPUT_NAMES.keysTable, { Value: { Ref: keysTableId } });
    template.hasOutput(OUTPUT_NAMES.usageTable, { Value: { Ref: usageTableId } });
  });
});
