/**
 * The API asset as a deployment ships it: bundled by CDK's local esbuild bundling with the stack's own options
 * (infra/bundling.ts), into a temporary cloud assembly. It must carry the DuckDB binding of the target
 * architecture and Redoc's bundle (the reference page's script), and load from its own folder with nothing but what
 * it carries.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { ENV } from '../../data-contracts/env';
import {
  DUCKDB_BINDING_PACKAGES,
  entryCodeProps,
  functionCodeProps,
  HANDLER_PACKAGE_FILES,
  PROJECT_ROOT,
} from '../../infra/bundling';
import { DEFAULT_CONFIG } from '../../infra/config';
import { apiEnvironment } from '../../infra/constructs/api';
import { createDynamoClient, ensureTables } from '../../lambdas/access/dynamo';
import { KeyStore } from '../../lambdas/access/key-store';
import { BLANK_LOGO, REDOC_CDN_LOGO } from '../../lambdas/http/docs-page';
import { S3ObjectStore } from '../../platform/s3-store';
import { publishEtlSnapshot } from '../helpers/api-test-env';
import { apiGatewayEvent } from '../helpers/apigw-event';
import { startDynalite } from '../helpers/dynalite';
import { lambdaBodyText } from '../helpers/lambda-body';
import { startS3rver } from '../helpers/s3rver';
import { tempOutdir } from './helpers';

const architecture = DEFAULT_CONFIG.architecture;
const bindingPackage = DUCKDB_BINDING_PACKAGES[architecture];
/** The machine can only execute the binding of its own architecture. */
const canRun = process.platform === 'linux' && process.arch === (architecture === 'x86_64' ? 'x64' : 'arm64');

let outdir: string;
let apiDir: string;
let probeDir: string;

/** Runs `script` with Node in `cwd`, with a clean environment (no NODE_PATH, so only the asset resolves). */
function runIn(cwd: string, script: string, env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['-e', script], {
    cwd,
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

beforeAll(() => {
  outdir = tempOutdir('pf-infra-bundle-');
  const app = new App({ outdir });
  const stack = new Stack(app, 'Bundle');
  new NodejsFunction(stack, 'Api', functionCodeProps('api', architecture));
  new NodejsFunction(stack, 'Probe', entryCodeProps('test/infra/fixtures/duckdb-probe.ts', architecture));
  app.synth();
  const functions = Template.fromStack(stack).findResources('AWS::Lambda::Function');
  const assetDir = (prefix: string): string => {
    const [, fn] = Object.entries(functions).find(([id]) => id.startsWith(prefix)) ?? [];
    const key = fn?.Properties.Code.S3Key as string;
    return join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
  };
  apiDir = assetDir('Api');
  probeDir = assetDir('Probe');
});

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

/** A receipts' secret ARN: never read by these calls (the key is read on the first receipt). */
const RECEIPT_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:pf-receipts-AbCdEf';

describe('API asset', () => {
  it('holds the bundle, its source map and the DuckDB binding for the target architecture', () => {
    expect(existsSync(join(apiDir, 'index.js'))).toBe(true);
    expect(existsSync(join(apiDir, 'index.js.map'))).toBe(true);
    const bindingDir = join(apiDir, 'node_modules', ...bindingPackage.split('/'));
    expect(existsSync(join(bindingDir, 'duckdb.node'))).toBe(true);
    // duckdb.node links libduckdb.so through RUNPATH $ORIGIN: it must sit beside it.
    expect(existsSync(join(bindingDir, 'libduckdb.so'))).toBe(true);
    expect(existsSync(join(bindingDir, 'package.json'))).toBe(true);
  });

  it('carries Redoc standalone bundle for the reference page, as installed', () => {
    expect(HANDLER_PACKAGE_FILES.api).toEqual(['redoc/bundles/redoc.standalone.js']);
    const carried = readFileSync(join(apiDir, 'node_modules', 'redoc', 'bundles', 'redoc.standalone.js'));
    const installed = readFileSync(join(PROJECT_ROOT, 'node_modules', 'redoc', 'bundles', 'redoc.standalone.js'));
    expect(carried.equals(installed)).toBe(true);
  });

  it('carries no other binding and no other node_modules', () => {
    expect(readdirSync(join(apiDir, 'node_modules')).sort()).toEqual(['@duckdb', 'redoc']);
    expect(readdirSync(join(apiDir, 'node_modules', '@duckdb'))).toEqual([bindingPackage.split('/')[1]]);
    expect(readdirSync(join(apiDir, 'node_modules', 'redoc'))).toEqual(['bundles']);
    expect(readdirSync(join(apiDir, 'node_modules', 'redoc', 'bundles'))).toEqual(['redoc.standalone.js']);
  });

  /** The deployed function's environment (no AWS reachable) with its cache in `cacheFolder` of the test's output. */
  const bundleEnv = (cacheFolder: string) => ({
    ...apiEnvironment({
      bucketName: 'pf-test-bucket',
      keysTableName: 'pf-keys',
      usageTableName: 'pf-usage',
      memoryMb: 2048,
      receiptSecretArn: RECEIPT_SECRET_ARN,
    }),
    [ENV.cacheDir]: join(outdir, cacheFolder),
    AWS_REGION: 'us-east-1',
  });

  (canRun ? it : it.skip)('serves the reference page and its script from its own folder', () => {
    const env = {
      ...bundleEnv('docs-cache'),
      PF_PAGE_EVENT: JSON.stringify(apiGatewayEvent('/api/v1/docs')),
      PF_SCRIPT_EVENT: JSON.stringify(apiGatewayEvent('/api/v1/docs/redoc.standalone.js')),
    };
    // No S3 or DynamoDB is reachable: the reference page needs neither.
    const script = `
      const { handler } = require('./index.js');
      (async () => {
        const page = await handler(JSON.parse(process.env.PF_PAGE_EVENT), {});
        const js = await handler(JSON.parse(process.env.PF_SCRIPT_EVENT), {});
        const body = js.isBase64Encoded ? Buffer.from(js.body, 'base64') : Buffer.from(js.body, 'utf8');
        console.log(JSON.stringify({ page: page.statusCode, html: page.body, js: js.statusCode, length: body.length,
          sha: require('node:crypto').createHash('sha256').update(body).digest('hex') }));
      })().catch((e) => { console.error(e); process.exit(1); });
    `;
    const result = runIn(apiDir, script, env);
    expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr }).toEqual({
      status: 0,
      stderr: '',
    });
    const out = JSON.parse(result.stdout.split('\n').pop() ?? '') as {
      page: number;
      html: string;
      js: number;
      length: number;
      sha: string;
    };
    expect(out.page).toBe(200);
    expect(out.html).toContain('<script src="/api/v1/docs/redoc.standalone.js"></script>');
    expect(out.js).toBe(200);
    const expected = Buffer.from(
      readFileSync(join(PROJECT_ROOT, 'node_modules', 'redoc', 'bundles', 'redoc.standalone.js'), 'utf8').replace(
        REDOC_CDN_LOGO,
        BLANK_LOGO,
      ),
      'utf8',
    );
    expect(out.length).toBe(expected.byteLength);
    expect(out.sha).toBe(createHash('sha256').update(expected).digest('hex'));
  });

  (canRun ? it : it.skip)('loads from its own folder, exports handler, and resolves the binding there', () => {
    const env = {
      ...bundleEnv('cache'),
    };
    const script = `
      const mod = require('./index.js');
      const { createRequire } = require('node:module');
      const local = createRequire(require.resolve('./index.js'));
      const resolved = local.resolve('${bindingPackage}/duckdb.node');
      const binding = local('${bindingPackage}/duckdb.node');
      console.log(JSON.stringify({ handler: typeof mod.handler, resolved, version: binding.library_version() }));
    `;
    const result = runIn(apiDir, script, env);
    // stderr may carry runtime warnings (the AWS SDK's Node-version notice on Node 20): show it on failure.
    expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr }).toEqual({
      status: 0,
      stderr: '',
    });
    const out = JSON.parse(result.stdout) as { handler: string; resolved: string; version: string };
    expect(out.handler).toBe('function');
    expect(out.resolved.startsWith(join(apiDir, 'node_modules'))).toBe(true);
    expect(out.version).toMatch(/^v\d+\.\d+\.\d+/);
  });
});

describe('DuckDB through the same bundling', () => {
  (canRun ? it : it.skip)('answers a query from the asset folder (loader bundled, binding carried)', () => {
    const result = runIn(
      probeDir,
      `require('./index.js').handler().then((rows) => console.log(JSON.stringify(rows)), (err) => { console.error(err); process.exit(1); });`,
    );
    expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr }).toEqual({
      status: 0,
      stderr: '',
    });
    const rows = JSON.parse(result.stdout) as { answer: number; version: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.answer).toBe(42);
  });
});

describe('the bundled API answering a request', () => {
  (canRun ? it : it.skip)(
    'serves a recorded API Gateway event from its own folder, against s3rver and dynalite',
    async () => {
      const s3 = await startS3rver();
      const dynalite = await startDynalite();
      try {
        await publishEtlSnapshot(new S3ObjectStore(s3.client, s3.bucket), new Date('2026-10-15T00:00:00Z'));
        const client = createDynamoClient({ endpoint: dynalite.endpoint });
        await ensureTables(client, { keysTable: 'pf-keys', usageTable: 'pf-usage' });
        const { key } = await new KeyStore({ client, tableName: 'pf-keys' }).create({ plan: 'developer' });
        client.destroy();
        const event = readFileSync(join(__dirname, '..', 'fixtures', 'apigw', 'list.json'), 'utf8').replaceAll(
          '{{API_KEY}}',
          key,
        );
        const env = {
          ...apiEnvironment({
            bucketName: s3.bucket,
            keysTableName: 'pf-keys',
            usageTableName: 'pf-usage',
            memoryMb: 2048,
            receiptSecretArn: RECEIPT_SECRET_ARN,
          }),
          [ENV.cacheDir]: join(outdir, 'answer-cache'),
          [ENV.s3Endpoint]: s3.endpoint,
          [ENV.dynamoEndpoint]: dynalite.endpoint,
          AWS_REGION: 'us-east-1',
          PF_TEST_EVENT: event,
          PATH: process.env.PATH ?? '',
          HOME: outdir,
        };
        const script = `require('./index.js').handler(JSON.parse(process.env.PF_TEST_EVENT), {}).then(
          (r) => process.stdout.write('RESULT ' + JSON.stringify(r) + '\\n'), (e) => { console.error(e); process.exit(1); });`;
        // Asynchronous: s3rver and dynalite answer from this process while the child runs.
        const child = spawn(process.execPath, ['-e', script], { cwd: apiDir, env });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString();
        });
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
        });
        const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
        expect({ status, stderr: status === 0 ? '' : stderr }).toEqual({ status: 0, stderr: '' });
        // The function's own JSON log lines share stdout with the result line; none may carry the key.
        const lines = stdout.trim().split('\n');
        const resultLine = lines.find((l) => l.startsWith('RESULT ')) ?? '';
        const logLines = lines.filter((l) => !l.startsWith('RESULT '));
        expect(logLines.length).toBeGreaterThan(0);
        for (const line of logLines) expect(line).not.toContain(key);
        const result = JSON.parse(resultLine.slice('RESULT '.length)) as {
          statusCode: number;
          headers: Record<string, string>;
          body: string;
          isBase64Encoded?: boolean;
        };
        expect(result.statusCode).toBe(200);
        expect(result.headers['x-ratelimit-used']).toBe('1');
        const body = JSON.parse(lambdaBodyText(result)) as {
          plan: string;
          data: { state: string; vertical: string }[];
        };
        expect(body.plan).toBe('developer');
        expect(body.data.length).toBeGreaterThan(0);
        for (const row of body.data) expect(row).toMatchObject({ vertical: 'glp1', state: 'CA' });
      } finally {
        await dynalite.stop();
        await s3.stop();
      }
    },
  );
});
