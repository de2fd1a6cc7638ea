/** The stack's log groups: one retention for all, and none outlives the stack (logs are not the service's state). */
import { RemovalPolicy } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** Retention of every log group of the stack. */
export const LOG_RETENTION = RetentionDays.ONE_MONTH;

/** A log group of the stack, kept {@link LOG_RETENTION} and deleted with the stack. */
export function serviceLogGroup(scope: Construct, id: string): LogGroup {
  return new LogGroup(scope, id, { retention: LOG_RETENTION, removalPolicy: RemovalPolicy.DESTROY });
}
