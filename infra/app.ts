/**
 * The CDK app (`cdk.json` runs it with tsx): one environment-agnostic stack, parameters from context.
 */
import { App } from 'aws-cdk-lib';
import { readStackConfig } from './config';
import { ProviderFactsStack } from './stack';

const app = new App();
const config = readStackConfig(app.node);
new ProviderFactsStack(app, config.stackName, {
  config,
  description: 'Provider Facts Data API: S3 snapshots, DuckDB Lambda API, CloudFront, DynamoDB keys and usage',
});
app.synth();
