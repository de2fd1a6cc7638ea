/**
 * Shared helpers of the infra tests: building the stack from context, and reading a synthesized template.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { readStackConfig } from '../../infra/config';
import { buildDeployment } from '../../infra/deployment';
import type { ProviderFactsEdgeStack } from '../../infra/edge-stack';
import type { ProviderFactsStack } from '../../infra/stack';

/**
 * The feature flags of cdk.json's context (the `@aws-cdk...` keys), which `npm run synth` and `npm run deploy` apply:
 * the tests synthesize with them, so they check the template that is deployed.
 */
export const FEATURE_FLAGS: Readonly<Record<string, unknown>> = (() => {
  const cdkJson = JSON.parse(readFileSync(join(__dirname, '..', '..', 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  return Object.fromEntries(Object.entries(cdkJson.context).filter(([name]) => name.startsWith('@aws-cdk')));
})();

/** A fresh temporary folder for a cloud assembly. */
export function tempOutdir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The region the tests deploy to unless they say otherwise: the CDK CLI's when no profile names one. */
export const DEFAULT_TEST_REGION = 'us-east-1';

/**
 * Builds the stacks as `infra/app.ts` does (infra/deployment.ts), from cdk.json's feature flags and `context`, for
 * `region` (default us-east-1, where the service's stack holds the web ACL). With `bundle: false` the Lambda assets
 * are not bundled (CDK's own `aws:cdk:bundling-stacks` switch), for tests that only look at configuration variants.
 */
export function synthStack(
  context: Record<string, unknown>,
  options: { bundle: boolean; outdir: string; region?: string },
): {
  stack: ProviderFactsStack;
  template: Template;
  edgeStack: ProviderFactsEdgeStack | null;
  edgeTemplate: Template | null;
} {
  const withFlags = { ...FEATURE_FLAGS, ...context };
  const app = new App({
    outdir: options.outdir,
    context: options.bundle ? withFlags : { ...withFlags, 'aws:cdk:bundling-stacks': [] },
  });
  const config = readStackConfig(app.node);
  const { service, edge } = buildDeployment(app, config, options.region ?? DEFAULT_TEST_REGION);
  return {
    stack: service,
    template: Template.fromStack(service),
    edgeStack: edge,
    edgeTemplate: edge === null ? null : Template.fromStack(edge),
  };
}

type Statement = { Action: string | string[]; Effect: string; Resource: unknown; Sid?: string; Condition?: unknown };

/** Every IAM statement of the policies attached to the role with logical id `roleLogicalId`. */
export function statementsOfRole(template: Template, roleLogicalId: string): Statement[] {
  const policies = template.findResources('AWS::IAM::Policy');
  const statements: Statement[] = [];
  for (const policy of Object.values(policies)) {
    const roles = (policy.Properties?.Roles ?? []) as unknown[];
    if (!roles.some((role) => JSON.stringify(role) === JSON.stringify({ Ref: roleLogicalId }))) continue;
    statements.push(...((policy.Properties.PolicyDocument.Statement ?? []) as Statement[]));
  }
  return statements;
}

/** The actions of a list of statements, flattened. */
export function actionsOf(statements: Statement[]): string[] {
  return statements.flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]));
}

/** The logical id of the single resource of `type` whose properties match `predicate`. */
export function logicalIdWhere(
  template: Template,
  type: string,
  predicate: (properties: Record<string, unknown>) => boolean,
): string {
  const matches = Object.entries(template.findResources(type)).filter(([, resource]) =>
    predicate((resource.Properties ?? {}) as Record<string, unknown>),
  );
  if (matches.length !== 1) throw new Error(`expected one ${type}, found ${matches.length}`);
  return (matches[0] as [string, unknown])[0];
}
