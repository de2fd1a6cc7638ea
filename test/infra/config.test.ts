/**
 * Deployment parameters: context parsing and validation, the variants they produce in the template, and the
 * architecture guard. These stacks skip bundling (CDK's `aws:cdk:bundling-stacks`), so they synthesize fast.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { DUCKDB_BINDING_PACKAGES, PROJECT_ROOT, resolveDuckdbBinding } from '../../infra/bundling';
import { DEFAULT_CONFIG, readStackConfig } from '../../infra/config';
import { synthStack, tempOutdir } from './helpers';

const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';
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

  it.each([
    [{ apiMemoryMb: '64' }, /apiMemoryMb must be an integer from 128 to 10240/],
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
