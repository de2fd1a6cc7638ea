/**
 * How the service alarms, wherever the alarm lives: a topic with the operator's e-mail, and alarms that notify it on
 * ALARM and on OK. The service's stack (constructs/monitoring.ts) and the us-east-1 edge stack both build theirs here.
 */
import { Alarm, ComparisonOperator, type IMetric, type Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';

/** The options of an alarm of this service: it fires at or above `threshold`; no data is not a failure. */
export interface AlarmOptions {
  description: string;
  threshold: number;
  evaluationPeriods: number;
  datapointsToAlarm: number;
}

/** The alarm topic of a stack, with `email` subscribed when given. */
export function createAlarmTopic(scope: Construct, id: string, email: string | null): Topic {
  const topic = new Topic(scope, id, { displayName: 'Provider Facts API alarms' });
  if (email !== null) topic.addSubscription(new EmailSubscription(email));
  return topic;
}

/**
 * An alarm that notifies `topic` on ALARM and on OK. CloudWatch alarms notify topics of their own region only, so an
 * alarm of the us-east-1 edge stack has a topic of its own.
 */
export function createNotifyingAlarm(
  scope: Construct,
  id: string,
  topic: Topic,
  metric: IMetric | Metric,
  options: AlarmOptions,
): Alarm {
  const alarm = new Alarm(scope, id, {
    metric,
    alarmDescription: options.description,
    threshold: options.threshold,
    evaluationPeriods: options.evaluationPeriods,
    datapointsToAlarm: options.datapointsToAlarm,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    // Quiet hours and idle functions produce no data; that is not a failure.
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  alarm.addAlarmAction(new SnsAction(topic));
  alarm.addOkAction(new SnsAction(topic));
  return alarm;
}
