/**
 * The synthesized stack with default parameters: every resource, route, grant, environment variable, schedule,
 * alarm and output of issue 4. The stack is synthesized once (real esbuild bundling) for the whole file.
 */
import { rmSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { ENV } from '../../data-contracts/env';
import { PUBLIC_KEYS } from '../../data-contracts/layout';
import { defaultBudgetMb, planMemory } from '../../data-contracts/memory-budget';
import { fullPathOf, PAGE_PATHS, ROUTES } from '../../data-contracts/routes';
import { KEYS_TABLE, USAGE_TABLE } from '../../data-contracts/tables';
import { DEFAULT_CONFIG } from '../../infra/config';
import { API_CACHE_DIR, API_TABLE_ACTIONS } from '../../infra/constructs/api';
import { SNAPSHOT_RETENTION_TAG } from '../../infra/constructs/data-store';
import { ETL_SIZING } from '../../infra/constructs/etl-jobs';
import {
  INTEGRITY_FAILURE,
  KEYS_UNAVAILABLE,
  METERING_FAILURE,
  METRIC_NAMESPACE,
} from '../../infra/constructs/monitoring';
import { API_ROUTE_PATHS, CONTRACT_PATHS, DEFAULT_ROUTE_KEY, routeKeyOf, servingRouteKey } from '../../infra/routes';
import { OUTPUT_NAMES } from '../../infra/stack';
import { KEYS_UNAVAILABLE_METRIC } from '../../lambdas/access/cached-key-lookup';
import { METERING_FAILURE_METRIC } from '../../lambdas/access/metering';
import { INTEGRITY_FAILURE_METRIC } from '../../lambdas/http/app';
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
  it('API role: read the bucket, GetItem on keys, UpdateItem on usage, nothing else', () => {
    const statements = statementsOfRole(template, roleOf(apiFunctionId));
    const actions = actionsOf(statements);
    expect(actions.sort()).toEqual(
      ['s3:GetObject*', 's3:GetBucket*', 's3:List*', ...API_TABLE_ACTIONS.keys, ...API_TABLE_ACTIONS.usage].sort(),
    );
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

  it('serves coverage and sample from S3 before /api/v1/* goes to the API', () => {
    expect(behaviors().map((b) => b.PathPattern)).toEqual(['/api/v1/coverage*', '/api/v1/sample*', '/api/v1/*']);
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
    for (const behavior of behaviors().slice(0, 2)) {
      expect(behavior.CachePolicyId).toEqual({ Ref: policyId });
      expect(behavior.AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS']);
      expect((behavior.FunctionAssociations as Props[]).map((f) => f.EventType).sort()).toEqual([
        'viewer-request',
        'viewer-response',
      ]);
    }
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
      2,
    );
  });

  it('never caches the API and forwards every viewer header but Host, and every query string', () => {
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0];
    const config = distribution?.Properties.DistributionConfig as Props;
    for (const behavior of [behaviors()[2] as Props, config.DefaultCacheBehavior as Props]) {
      expect(behavior.CachePolicyId).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
      expect(behavior.OriginRequestPolicyId).toBe(
        OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
      );
      expect(behavior.ViewerProtocolPolicy).toBe('https-only');
    }
  });

  it('lets CORS preflights and Accept-Encoding reach the API, and compresses without caching keyed answers', () => {
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0];
    const config = distribution?.Properties.DistributionConfig as Props;
    for (const behavior of [behaviors()[2] as Props, config.DefaultCacheBehavior as Props]) {
      expect(behavior.AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS']);
      expect(behavior.Compress).toBe(true);
      expect(behavior.CachePolicyId).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
    }
    for (const behavior of behaviors().slice(0, 2)) expect(behavior.Compress).toBe(true);
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
});

describe('alarms', () => {
  it('has the nine alarms, each notifying the alarm topic', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms).toHaveLength(9);
    const topicId = logicalIdWhere(template, 'AWS::SNS::Topic', () => true);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
  });

  it('alarms on the API 5xx rate computed from 5xx and Count', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Threshold: 1,
      Metrics: Match.arrayWith([
        Match.objectLike({ Expression: Match.stringLikeRegexp('100 \\* errors / requests') }),
        Match.objectLike({ MetricStat: Match.objectLike({ Metric: Match.objectLike({ MetricName: 'Count' }) }) }),
        Match.objectLike({ MetricStat: Match.objectLike({ Metric: Match.objectLike({ MetricName: '5xx' }) }) }),
      ]),
    });
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
