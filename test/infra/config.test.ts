/**
 * Deployment parameters: context parsing and validation, the variants they produce in the template, and the
 * architecture guard. These stacks skip bundling (CDK's `aws:cdk:bundling-stacks`), so they synthesize fast.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { ENV } from '../../data-contracts/env';
import { DUCKDB_BINDING_PACKAGES, PROJECT_ROOT, resolveDuckdbBinding } from '../../infra/bundling';
import { CONTEXT_KEYS, DEFAULT_CONFIG, loadCdkEnvConfig, readStackConfig, type StackConfig } from '../../infra/config';
import { EDGE_RULES } from '../../infra/constructs/edge-acl';
import { buildDeployment } from '../../infra/deployment';
import { EDGE_OUTPUT_NAMES, EDGE_REGION, edgeStackName } from '../../infra/edge-stack';
import { edgeAclName } from '../../infra/stack';
import { FEATURE_FLAGS, synthStack, tempOutdir } from './helpers';

const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';
const WEB_ACL = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/shared-edge/0a1b2c3d-4e5f-6789-abcd-ef0123456789';
let outdir: string;

beforeAll(() => {
  outdir = tempOutdir('pf-infra-config-');
});
afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

const configOf = (context: Record<string, unknown>) => readStackConfig(new App({ context }).node);

describe('readStackConfig', () => {
  it('uses the defaults when nothing is set (and treats cdk.json empty strings as unset)', () => {
    expect(configOf({})).toEqual(DEFAULT_CONFIG);
    expect(configOf({ domainName: '', certificateArn: '', alarmEmail: '' })).toEqual(DEFAULT_CONFIG);
  });

  it('reads -c values, which arrive as strings', () => {
    const config = configOf({ apiMemoryMb: '3008', apiEphemeralStorageMb: '8192', snapshotRetentionDays: '7' });
    expect(config).toMatchObject({ apiMemoryMb: 3008, apiEphemeralStorageMb: 8192, snapshotRetentionDays: 7 });
  });

  it('reads the edge parameters from -c strings', () => {
    const config = configOf({
      apiReservedConcurrency: '0',
      apiThrottleRateLimit: '500',
      apiThrottleBurstLimit: '50',
      webAclArn: WEB_ACL,
      edgeRateWindowSeconds: '60',
      edgeKeylessLimit: '100',
      edgeAddressLimit: '20000',
      originVerify: 'false',
    });
    expect(config).toMatchObject({
      apiReservedConcurrency: 0,
      apiThrottleRateLimit: 500,
      apiThrottleBurstLimit: 50,
      webAclArn: WEB_ACL,
      edgeRateWindowSeconds: 60,
      edgeKeylessLimit: 100,
      edgeAddressLimit: 20_000,
      originVerify: false,
    });
    expect(configOf({ originVerify: true, webAclArn: '' })).toMatchObject({ originVerify: true, webAclArn: null });
  });

  it('carries the defaults of the edge parameters in cdk.json', () => {
    const context = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Props }).context;
    const keys: (keyof StackConfig)[] = [
      'apiReservedConcurrency',
      'apiThrottleRateLimit',
      'apiThrottleBurstLimit',
      'webAclArn',
      'edgeRateWindowSeconds',
      'edgeKeylessLimit',
      'edgeAddressLimit',
      'originVerify',
    ];
    for (const key of keys) {
      expect(key in context).toBe(true);
      expect(configOf({ [CONTEXT_KEYS[key]]: context[key] })[key]).toEqual(DEFAULT_CONFIG[key]);
    }
  });

  it.each([
    [{ apiMemoryMb: '64' }, /apiMemoryMb must be an integer from 128 to 10240/],
    [{ apiReservedConcurrency: '-1' }, /apiReservedConcurrency must be an integer from 0/],
    [{ apiReservedConcurrency: '2.5' }, /apiReservedConcurrency/],
    [{ apiThrottleRateLimit: '0' }, /apiThrottleRateLimit must be an integer from 1/],
    [{ apiThrottleBurstLimit: 'lots' }, /apiThrottleBurstLimit/],
    [{ edgeRateWindowSeconds: '90' }, /edgeRateWindowSeconds must be one of 60, 120, 300, 600/],
    [{ edgeKeylessLimit: '5' }, /edgeKeylessLimit must be an integer from 10/],
    [{ edgeAddressLimit: '600' }, /edgeAddressLimit \(600\) must be above edgeKeylessLimit \(600\)/],
    [{ originVerify: 'no' }, /originVerify must be true or false/],
    [{ webAclArn: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/x/0a1b' }, /CloudFront-scope WAFv2 web ACL/],
    [{ webAclArn: 'shared-edge' }, /webAclArn/],
    [{ apiEphemeralStorageMb: '20000' }, /apiEphemeralStorageMb/],
    [{ snapshotRetentionDays: '0' }, /snapshotRetentionDays/],
    [{ snapshotRetentionDays: 'thirty' }, /snapshotRetentionDays/],
    [{ architecture: 'x64' }, /architecture must be one of x86_64, arm64/],
    [{ domainName: 'api.example.com' }, /set both or neither/],
    [{ domainName: 'api.example.com', certificateArn: 'arn:aws:acm:eu-west-1:1:certificate/x' }, /us-east-1/],
  ])('refuses %j', (context, message) => {
    expect(() => configOf(context)).toThrow(message);
  });
});

describe('parameter variants in the template', () => {
  it('puts the custom domain and certificate on the distribution, with TLS 1.2', () => {
    const { template } = synthStack(
      { domainName: 'api.example.com', certificateArn: CERT, snapshotRetentionDays: 7, apiMemoryMb: 3008 },
      { bundle: false, outdir: join(outdir, 'domain') },
    );
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['api.example.com'],
        ViewerCertificate: {
          AcmCertificateArn: CERT,
          MinimumProtocolVersion: 'TLSv1.2_2021',
          SslSupportMethod: 'sni-only',
        },
      }),
    });
    template.hasOutput('CdnUrl', { Value: 'https://api.example.com' });
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ ExpirationInDays: 7 })]) },
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('Provider Facts API'),
      MemorySize: 3008,
    });
  });
});

type Props = Record<string, unknown>;

describe('edge variants in the template', () => {
  it('turns the bypass guard off with originVerify=false: no secret, no header, no variable', () => {
    const { template } = synthStack({ originVerify: false }, { bundle: false, outdir: join(outdir, 'no-verify') });
    // The receipts' secret stays: it is not the origin check's.
    template.resourceCountIs('AWS::SecretsManager::Secret', 1);
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      Description: Match.stringLikeRegexp('receipts'),
    });
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0];
    for (const origin of (distribution?.Properties.DistributionConfig.Origins ?? []) as Props[]) {
      expect(origin.OriginCustomHeaders).toBeUndefined();
    }
    const api = Object.values(template.findResources('AWS::Lambda::Function')).find((fn) =>
      String(fn.Properties.Description).includes('Provider Facts API'),
    );
    expect(Object.keys(api?.Properties.Environment.Variables)).not.toContain(ENV.originVerifySecret);
    const distributionId = Object.keys(template.findResources('AWS::CloudFront::Distribution'))[0] ?? '';
    expect(api?.DependsOn ?? []).not.toContain(distributionId);
    template.hasOutput('ApiUrl', { Description: Match.stringLikeRegexp('bypassing the CDN') });
  });

  it('attaches an existing web ACL by its ARN and builds none', () => {
    const { template, edgeStack } = synthStack(
      { webAclArn: WEB_ACL },
      { bundle: false, outdir: join(outdir, 'acl-arn'), region: 'eu-west-1' },
    );
    expect(edgeStack).toBeNull();
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ WebACLId: WEB_ACL }),
    });
    // No ACL of ours, no alarm on its metrics: the ACL's owner watches it.
    template.resourcePropertiesCountIs('AWS::CloudWatch::Alarm', { Namespace: 'AWS/WAFV2' }, 0);
  });

  it('puts the web ACL, its alarm and an alarm topic in a us-east-1 stack when the service is elsewhere', () => {
    const { stack, template, edgeStack, edgeTemplate } = synthStack(
      { alarmEmail: 'ops@example.com' },
      { bundle: false, outdir: join(outdir, 'eu'), region: 'eu-west-1' },
    );
    expect(stack.region).toBe('eu-west-1');
    expect(edgeStack?.region).toBe(EDGE_REGION);
    expect(edgeStack?.stackName).toBe(edgeStackName(DEFAULT_CONFIG.stackName));
    if (edgeTemplate === null) throw new Error('no edge stack');
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    edgeTemplate.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      Name: edgeAclName(DEFAULT_CONFIG.stackName),
      Rules: Match.arrayWith([Match.objectLike({ Name: EDGE_RULES.keyless.name })]),
    });
    // The alarm notifies the edge stack's own topic (an alarm notifies topics of its region only).
    const topicId = Object.keys(edgeTemplate.findResources('AWS::SNS::Topic'))[0];
    edgeTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/WAFV2',
      MetricName: 'BlockedRequests',
      AlarmActions: [{ Ref: topicId }],
    });
    edgeTemplate.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    edgeTemplate.hasOutput(EDGE_OUTPUT_NAMES.webAcl, { Value: Match.anyValue() });
    template.resourcePropertiesCountIs('AWS::CloudWatch::Alarm', { Namespace: 'AWS/WAFV2' }, 0);
    // The distribution reads the ACL's ARN from the edge stack, which deploys first.
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0];
    const webAclId = JSON.stringify(distribution?.Properties.DistributionConfig.WebACLId);
    expect(webAclId).toContain(edgeStackName(DEFAULT_CONFIG.stackName));
    expect(webAclId).toContain(EDGE_REGION);
    expect(stack.dependencies).toContain(edgeStack);
  });

  it('needs the region to place the web ACL, unless webAclArn names one', () => {
    const appWith = (context: Props) =>
      new App({ context: { ...FEATURE_FLAGS, ...context, 'aws:cdk:bundling-stacks': [] } });
    const app = appWith({});
    expect(() => buildDeployment(app, readStackConfig(app.node), undefined)).toThrow(/CDK_DEFAULT_REGION.*webAclArn/);
    const withArn = appWith({ webAclArn: WEB_ACL });
    expect(buildDeployment(withArn, readStackConfig(withArn.node), undefined).edge).toBeNull();
  });

  it('sets the throttles, the reserved concurrency and the rate rules from the parameters', () => {
    const { template } = synthStack(
      {
        apiReservedConcurrency: 0,
        apiThrottleRateLimit: 500,
        apiThrottleBurstLimit: 50,
        edgeRateWindowSeconds: 60,
        edgeKeylessLimit: 100,
        edgeAddressLimit: 20_000,
      },
      { bundle: false, outdir: join(outdir, 'limits') },
    );
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 500, ThrottlingBurstLimit: 50 },
    });
    // 0: not reserved (Lambda's own 0 would stop the function).
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
    const rules = Object.values(template.findResources('AWS::WAFv2::WebACL'))[0]?.Properties.Rules as Props[];
    const rate = (name: string) =>
      (rules.find((r) => r.Name === name)?.Statement as { RateBasedStatement?: Props } | undefined)?.RateBasedStatement;
    expect(rate(EDGE_RULES.keyless.name)).toMatchObject({ Limit: 100, EvaluationWindowSec: 60 });
    expect(rate(EDGE_RULES.addressVolume.name)).toMatchObject({ Limit: 20_000, EvaluationWindowSec: 60 });
    // Retry-After follows the window.
    expect(JSON.stringify(rules)).toContain('{"Name":"Retry-After","Value":"60"}');
  });
});

describe('architecture guard', () => {
  it('fails with the install command when the binding of the architecture is missing', () => {
    const emptyRoot = join(outdir, 'empty-root');
    mkdirSync(emptyRoot, { recursive: true });
    expect(() => resolveDuckdbBinding('arm64', emptyRoot)).toThrow(
      /architecture=arm64 needs the DuckDB binding @duckdb\/node-bindings-linux-arm64.*npm install --no-save --os=linux --cpu=arm64/,
    );
  });

  it('finds the installed x86_64 binding', () => {
    expect(resolveDuckdbBinding('x86_64')).toBe(join(PROJECT_ROOT, 'node_modules', DUCKDB_BINDING_PACKAGES.x86_64));
  });

  const arm64Installed = existsSync(join(PROJECT_ROOT, 'node_modules', DUCKDB_BINDING_PACKAGES.arm64, 'duckdb.node'));
  (arm64Installed ? it.skip : it)('refuses to synthesize an arm64 stack without the arm64 binding', () => {
    expect(() => synthStack({ architecture: 'arm64' }, { bundle: false, outdir: join(outdir, 'arm64') })).toThrow(
      /architecture=arm64 needs the DuckDB binding/,
    );
  });
});

describe('loadCdkEnvConfig', () => {
  it('reads the region the CDK CLI deploys to, and none outside the CLI', () => {
    expect(loadCdkEnvConfig({ CDK_DEFAULT_REGION: 'eu-west-1' })).toEqual({ region: 'eu-west-1' });
    expect(loadCdkEnvConfig({ CDK_DEFAULT_REGION: ' us-east-1 ' })).toEqual({ region: 'us-east-1' });
    expect(loadCdkEnvConfig({ CDK_DEFAULT_REGION: '' })).toEqual({ region: undefined });
    expect(loadCdkEnvConfig({})).toEqual({ region: undefined });
  });
});
