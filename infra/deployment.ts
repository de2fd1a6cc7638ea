/**
 * The stacks of a deployment, as `infra/app.ts` builds them (and the infra tests, with the same function):
 * - `webAclArn` set: the service's stack alone, its distribution on that ACL;
 * - the service's region is us-east-1: the service's stack alone, holding the ACL;
 * - another region: the edge stack in us-east-1 holding the ACL, and the service's stack reading its ARN through a
 *   cross-region reference (`crossRegionReferences`: CDK's SSM-parameter writer and reader, deployed edge first).
 */
import type { App } from 'aws-cdk-lib';
import type { StackConfig } from './config';
import { EDGE_REGION, edgeStackName, ProviderFactsEdgeStack } from './edge-stack';
import { ProviderFactsStack } from './stack';

const DESCRIPTION = 'Provider Facts Data API: S3 snapshots, DuckDB Lambda API, CloudFront, DynamoDB keys and usage';

/** The stacks of one deployment. */
export interface Deployment {
  readonly service: ProviderFactsStack;
  /** The us-east-1 stack of the web ACL, or null when the service's stack holds it or `webAclArn` names one. */
  readonly edge: ProviderFactsEdgeStack | null;
}

/**
 * Builds the deployment's stacks into `app` for the service's region (the CDK CLI's `CDK_DEFAULT_REGION`, which it
 * sets from the AWS profile or `AWS_REGION`, and to us-east-1 when neither names one).
 * @example buildDeployment(app, readStackConfig(app.node), 'eu-west-1') // { service, edge: ProviderFactsEdgeStack }
 */
export function buildDeployment(app: App, config: StackConfig, region: string | undefined): Deployment {
  const env = region === undefined ? undefined : { region };
  if (config.webAclArn !== null) {
    return {
      service: new ProviderFactsStack(app, config.stackName, { config, env, description: DESCRIPTION }),
      edge: null,
    };
  }
  if (region === undefined) {
    throw new Error(
      'The web ACL needs the region of the stack (the CDK CLI sets CDK_DEFAULT_REGION from AWS_REGION or the ' +
        'profile); or name an existing CloudFront web ACL with -c webAclArn=<arn>.',
    );
  }
  if (region === EDGE_REGION) {
    return {
      service: new ProviderFactsStack(app, config.stackName, {
        config,
        env,
        webAcl: 'in-stack',
        description: DESCRIPTION,
      }),
      edge: null,
    };
  }
  const edge = new ProviderFactsEdgeStack(app, edgeStackName(config.stackName), {
    config,
    description: 'Provider Facts Data API: the CDN web ACL (us-east-1) and its alarm',
  });
  const service = new ProviderFactsStack(app, config.stackName, {
    config,
    env,
    crossRegionReferences: true,
    webAcl: { arn: edge.edgeAcl.arn },
    description: DESCRIPTION,
  });
  return { service, edge };
}
