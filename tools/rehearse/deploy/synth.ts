/**
 * The deployed shape, read off the CDK app's own synthesis: the stack is synthesized as `npm run synth` does
 * (cdk.json's context and feature flags, the Lambda assets bundled), into `<outdir>`, and the API function's
 * asset folder, handler, memory, `/tmp`, timeout, architecture, reserved concurrency and environment are taken from
 * the template; so are the DynamoDB tables' key schemas. Nothing here restates what the stack sets.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { ENV } from '../../../data-contracts/env';
import { readStackConfig } from '../../../infra/config';
import { ProviderFactsStack } from '../../../infra/stack';
import type { FunctionSpec } from '../lambda/runtime-process';

/** A DynamoDB table of the template. */
export interface TableSpec {
  logicalId: string;
  keySchema: { AttributeName: string; KeyType: 'HASH' | 'RANGE' }[];
  attributeDefinitions: { AttributeName: string; AttributeType: 'S' | 'N' | 'B' }[];
}

/** What the rehearsal needs of the synthesized stack. */
export interface SynthesizedShape {
  stackName: string;
  /** The API function, its environment still holding the template's references (see {@link resolveEnvironment}). */
  api: Omit<FunctionSpec, 'environment'> & { environment: Record<string, unknown> };
  tables: TableSpec[];
  /** Logical id of the data bucket. */
  bucketLogicalId: string;
  /** The template's `Transform`-free JSON, for anything else a report cites. */
  template: Record<string, unknown>;
}

type Resource = { Type: string; Properties?: Record<string, unknown> };

/** Synthesizes the stack with bundling into `outdir` (a cloud assembly, as `cdk synth` writes `cdk.out`). */
export function synthesizeStack(
  repoRoot: string,
  outdir: string,
  context: Record<string, unknown> = {},
): SynthesizedShape {
  const cdkJson = JSON.parse(readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  // The rehearsal calls the function as API Gateway does, with no CDN in front: the origin-verify check (a call
  // without CloudFront's header is refused) is off, as in a deployment with `-c originVerify=false`.
  const app = new App({ outdir, context: { ...cdkJson.context, originVerify: false, ...context } });
  const config = readStackConfig(app.node);
  const stack = new ProviderFactsStack(app, config.stackName, { config });
  const assembly = app.synth();
  const artifact = assembly.getStackByName(stack.stackName);
  const template = artifact.template as { Resources: Record<string, Resource> };
  return readShape(stack.stackName, template, outdir);
}

/** Reads the API function, the tables and the bucket from a synthesized template. */
export function readShape(
  stackName: string,
  template: { Resources: Record<string, Resource> },
  outdir: string,
): SynthesizedShape {
  const entries = Object.entries(template.Resources);
  const functions = entries.filter(([, r]) => r.Type === 'AWS::Lambda::Function');
  const api = functions.find(([, r]) => {
    const variables = (r.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables;
    return variables !== undefined && ENV.keysTable in variables && ENV.usageTable in variables;
  });
  if (api === undefined) throw new Error('the template has no API function (one with the keys and usage tables)');
  const [apiId, apiResource] = api;
  const props = apiResource.Properties ?? {};
  const code = props.Code as { S3Key?: unknown };
  if (typeof code?.S3Key !== 'string') throw new Error(`${apiId} has no asset code`);
  const architectures = (props.Architectures as string[] | undefined) ?? ['x86_64'];
  const buckets = entries.filter(([, r]) => r.Type === 'AWS::S3::Bucket');
  const dataBucket = buckets.find(([id]) => id.startsWith('Data')) ?? buckets[0];
  if (dataBucket === undefined) throw new Error('the template has no bucket');
  return {
    stackName,
    template: template as unknown as Record<string, unknown>,
    bucketLogicalId: dataBucket[0],
    tables: entries
      .filter(([, r]) => r.Type === 'AWS::DynamoDB::Table' || r.Type === 'AWS::DynamoDB::GlobalTable')
      .map(([logicalId, r]) => ({
        logicalId,
        keySchema: r.Properties?.KeySchema as TableSpec['keySchema'],
        attributeDefinitions: r.Properties?.AttributeDefinitions as TableSpec['attributeDefinitions'],
      })),
    api: {
      functionName: `${stackName}-${apiId}`,
      assetDir: path.join(outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`),
      handler: String(props.Handler),
      environment: (props.Environment as { Variables: Record<string, unknown> }).Variables,
      memoryMb: Number(props.MemorySize ?? 128),
      ephemeralStorageMb: Number((props.EphemeralStorage as { Size?: number } | undefined)?.Size ?? 512),
      timeoutSeconds: Number(props.Timeout ?? 3),
      architecture: architectures[0] === 'arm64' ? 'arm64' : 'x86_64',
      reservedConcurrency:
        props.ReservedConcurrentExecutions === undefined ? null : Number(props.ReservedConcurrentExecutions),
    },
  };
}

/**
 * The function's environment with every `{ Ref: logicalId }` replaced by the rehearsal's name for that resource;
 * any other intrinsic is refused, so nothing unresolved reaches the function.
 */
export function resolveEnvironment(
  environment: Record<string, unknown>,
  names: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (typeof value === 'string') out[name] = value;
    else if (value !== null && typeof value === 'object' && 'Ref' in value) {
      const ref = String((value as { Ref: unknown }).Ref);
      const resolved = names[ref];
      if (resolved === undefined) throw new Error(`${name} refers to ${ref}, which the rehearsal does not provide`);
      out[name] = resolved;
    } else throw new Error(`${name} holds an intrinsic the rehearsal cannot resolve: ${JSON.stringify(value)}`);
  }
  return out;
}
