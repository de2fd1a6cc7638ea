/**
 * The CDN's web ACL when the service's stack is not in us-east-1: CloudFront takes web ACLs of CloudFront scope, and
 * those exist only in us-east-1, so they live in a stack of their own there. Its ARN reaches the distribution through
 * a cross-region reference (CDK writes it to an SSM parameter in the service's region, which the service's stack reads
 * while it deploys). WAF's metrics of a CloudFront ACL are in us-east-1 too, and a CloudWatch alarm notifies a topic of
 * its own region only: the stack has its own alarm topic, with the same e-mail subscription.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { StackConfig } from './config';
import { createAlarmTopic } from './constructs/alarms';
import type { EdgeAcl } from './constructs/edge-acl';
import { createEdgeBlockedAlarm } from './constructs/monitoring';
import { createEdgeAcl } from './stack';

/** The region of every CloudFront-scope web ACL. */
export const EDGE_REGION = 'us-east-1' as const;

/** Names of the edge stack's outputs. */
export const EDGE_OUTPUT_NAMES = { webAcl: 'WebAclArn', alarmTopic: 'EdgeAlarmTopicArn' } as const;

/** The edge stack's name for a service stack's name. */
export function edgeStackName(stackName: string): string {
  return `${stackName}Edge`;
}

/** Props of {@link ProviderFactsEdgeStack}. */
export interface ProviderFactsEdgeStackProps extends StackProps {
  readonly config: StackConfig;
}

/** The web ACL, its blocked-requests alarm and the alarm topic, in us-east-1. */
export class ProviderFactsEdgeStack extends Stack {
  readonly edgeAcl: EdgeAcl;
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: ProviderFactsEdgeStackProps) {
    super(scope, id, { ...props, env: { ...props.env, region: EDGE_REGION }, crossRegionReferences: true });
    this.edgeAcl = createEdgeAcl(this, 'Edge', props.config);
    this.topic = createAlarmTopic(this, 'AlarmTopic', props.config.alarmEmail);
    createEdgeBlockedAlarm(this, this.topic, this.edgeAcl.blockedRequests);
    new CfnOutput(this, EDGE_OUTPUT_NAMES.webAcl, {
      value: this.edgeAcl.arn,
      description: 'Web ACL of the CDN (WAFv2, CloudFront scope)',
    });
    new CfnOutput(this, EDGE_OUTPUT_NAMES.alarmTopic, {
      value: this.topic.topicArn,
      description: 'SNS topic of the web ACL alarm (us-east-1)',
    });
  }
}
