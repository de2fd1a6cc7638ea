/**
 * The CDK app (`cdk.json` runs it with tsx): the service's stack, and in us-east-1 the stack of its web ACL when the
 * service is elsewhere (infra/deployment.ts); parameters from context.
 */
import { App } from 'aws-cdk-lib';
import { loadCdkEnvConfig, readStackConfig } from './config';
import { buildDeployment } from './deployment';

const app = new App();
// The CDK CLI sets CDK_DEFAULT_REGION (AWS_REGION, the profile, else us-east-1); the stacks deploy there.
buildDeployment(app, readStackConfig(app.node), loadCdkEnvConfig(process.env).region);
app.synth();
