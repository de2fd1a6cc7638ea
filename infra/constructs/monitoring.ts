/**
 * Alarms: the API's 5xx rate and p99 latency, Lambda throttles, the stage's throttle, metering failures (the API
 * failing open), keys-table failures (the API serving cached keys or answering 503), integrity failures (stored bytes
 * that do not match the manifest, refused with 503), the function's edge refusals (calls that bypassed the CDN), the
 * web ACL's blocks (where the ACL is in this stack), and a failed hourly rebuild. Every alarm notifies one SNS topic.
 */
import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { type Alarm, type IMetric, MathExpression, type Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { type AlarmOptions, createAlarmTopic, createNotifyingAlarm } from './alarms';
import type { ACCESS_LOG_FIELDS } from './api';

/** The metric namespace of the service's own (log-derived) metrics. */
export const METRIC_NAMESPACE = 'ProviderFacts' as const;

/**
 * The log field and value the API writes on every fail-open metering call (lambdas/access/metering.ts:
 * `metric: 'MeteringFailure'`), and the metric the filter counts.
 */
export const METERING_FAILURE = { field: 'metric', value: 'MeteringFailure', metricName: 'MeteringFailures' } as const;

/**
 * The log field and value the API writes on every failed read of the keys table (lambdas/access/cached-key-lookup.ts:
 * `metric: 'KeysTableUnavailable'`, with `served: 'stale'` or `'refused'`), and the metric the filter counts.
 */
export const KEYS_UNAVAILABLE = {
  field: 'metric',
  value: 'KeysTableUnavailable',
  metricName: 'KeysTableUnavailable',
} as const;

/**
 * The log field and value the API writes when bytes of the object store do not match the snapshot's manifest, twice
 * (lambdas/http/error-mapping.ts: `metric: 'IntegrityFailure'`; the request got 503 `service_unavailable`), and its metric.
 */
export const INTEGRITY_FAILURE = {
  field: 'metric',
  value: 'IntegrityFailure',
  metricName: 'IntegrityFailures',
} as const;

/**
 * The log field and value the API writes when it refuses a call that did not come through the CDN (403
 * `cdn_required`: no origin-verify header, or a wrong one), and its metric.
 */
export const EDGE_REFUSAL = { field: 'metric', value: 'EdgeRefusal', metricName: 'EdgeRefusals' } as const;

/**
 * A call the HTTP API stage throttled, as its access log line shows it (infra/constructs/api.ts `ACCESS_LOG_FIELDS`):
 * status 429 with no invocation behind it (`integrationStatus` is `-`, or absent). The function's own 429
 * (`quota_exceeded`) has the invocation's 200 there, so it is not counted. API Gateway's 4xx metric cannot tell them
 * apart.
 */
export const STAGE_THROTTLE = {
  statusField: 'status',
  status: '429',
  integrationStatusField: 'integrationStatus',
  noIntegration: '-',
  metricName: 'StageThrottles',
} as const satisfies Record<'statusField' | 'integrationStatusField', keyof typeof ACCESS_LOG_FIELDS> &
  Record<string, string>;

/** Alarm thresholds. Each is explained in docs/deploy.md. */
export const ALARM_THRESHOLDS = {
  /** Percent of requests answered 5xx over 5 minutes, in 2 of 3 periods. */
  api5xxRatePercent: 1,
  /** Fewer requests than this in a period never make a 5xx rate (one failure of three is not an outage). */
  api5xxMinRequests: 20,
  /** p99 of API Gateway's latency (ms) over 5 minutes, in 3 of 3 periods. */
  apiLatencyP99Ms: 2500,
  /** Throttled invocations of a function in 5 minutes. */
  throttles: 1,
  /** Calls the HTTP API stage throttled (429 before the function) in 5 minutes: the account guard was reached. */
  stageThrottles: 1,
  /** Calls the function refused 403 `cdn_required` in 5 minutes: a bypass of the CDN, or a secret out of step. */
  edgeRefusals: 1,
  /** Requests the web ACL blocked in 5 minutes (rate rules and managed rules together). */
  edgeBlocked: 100,
  /** Fail-open metering calls in 5 minutes. */
  meteringFailures: 5,
  /** Failed keys-table reads in 5 minutes: cached keys are being served stale, unknown keys get 503. */
  keysTableFailures: 1,
  /** Reads refused in 5 minutes because an object's bytes did not match the manifest (docs/read-in-place.md). */
  integrityFailures: 1,
  /** Failed runs of the hourly rebuild in 2 hours (two runs). */
  rebuildErrors: 1,
} as const;

const FIVE_MINUTES = Duration.minutes(5);

/** The alarm on the web ACL's blocked requests, in the stack (and region, us-east-1) that holds the ACL. */
export function createEdgeBlockedAlarm(scope: Construct, topic: Topic, blockedRequests: IMetric): Alarm {
  return createNotifyingAlarm(scope, 'EdgeBlocked', topic, blockedRequests, {
    description:
      `The web ACL blocked ${ALARM_THRESHOLDS.edgeBlocked} or more requests in 5 minutes: addresses past the ` +
      'per-address limits (429 rate_limited) or requests the AWS common rules refused (403). Check the sampled ' +
      'requests of the ACL for a paying caller.',
    threshold: ALARM_THRESHOLDS.edgeBlocked,
    evaluationPeriods: 1,
    datapointsToAlarm: 1,
  });
}

/** Props of {@link Monitoring}. */
export interface MonitoringProps {
  readonly httpApi: IHttpApi;
  readonly apiFunction: IFunction;
  readonly apiLogGroup: ILogGroup;
  /** The HTTP API stage's access log (its stage throttles). */
  readonly accessLogGroup: ILogGroup;
  /** The web ACL's blocked requests, when the ACL is in this stack (else its own stack alarms on them). */
  readonly edgeBlocked: IMetric | null;
  readonly rebuildFunction: IFunction;
  readonly feedFunction: IFunction;
  readonly alarmEmail: string | null;
}

/** The alarm topic and alarms. */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.topic = createAlarmTopic(this, 'AlarmTopic', props.alarmEmail);

    const requests = props.httpApi.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const errors = props.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    // A Lambda throttle reaches the client as API Gateway's 500 and is counted in 5xx; it is capacity, alarmed on by
    // ApiThrottles, not a failure of the API: the rate leaves it out. FILL: no throttle is no data, not a gap.
    const throttles = props.apiFunction.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' });
    const errorRate = new MathExpression({
      label: 'API 5xx rate (%), Lambda throttles left out',
      expression:
        `IF(requests >= ${ALARM_THRESHOLDS.api5xxMinRequests}, ` +
        '100 * IF(FILL(errors, 0) > FILL(throttles, 0), FILL(errors, 0) - FILL(throttles, 0), 0) / requests, 0)',
      usingMetrics: { requests, errors, throttles },
      period: FIVE_MINUTES,
    });
    this.add('Api5xxRate', errorRate, {
      description: `More than ${ALARM_THRESHOLDS.api5xxRatePercent}% of API requests answered 5xx (internal_error or an API Gateway failure; Lambda throttles are ApiThrottles).`,
      threshold: ALARM_THRESHOLDS.api5xxRatePercent,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
    });

    this.add('ApiLatencyP99', props.httpApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }), {
      description: `API p99 latency above ${ALARM_THRESHOLDS.apiLatencyP99Ms} ms for 15 minutes.`,
      threshold: ALARM_THRESHOLDS.apiLatencyP99Ms,
      evaluationPeriods: 3,
      datapointsToAlarm: 3,
    });

    const throttled: [string, IFunction][] = [
      ['ApiThrottles', props.apiFunction],
      ['RebuildThrottles', props.rebuildFunction],
      ['FeedEtlThrottles', props.feedFunction],
    ];
    for (const [alarmId, fn] of throttled) {
      this.add(alarmId, fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }), {
        description: 'Lambda throttled invocations: the account or function concurrency limit was reached.',
        threshold: ALARM_THRESHOLDS.throttles,
        evaluationPeriods: 1,
        datapointsToAlarm: 1,
      });
    }

    // The handler writes its JSON lines to stdout, so the field is at the top level of the log event. The
    // second term matches the same line if it ever goes through console.* under Lambda's JSON log format,
    // which nests it as `message`. https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/FilterAndPatternSyntax.html
    const logMetric = (id: string, line: { field: string; value: string; metricName: string }) =>
      new MetricFilter(this, id, {
        logGroup: props.apiLogGroup,
        filterPattern: FilterPattern.any(
          FilterPattern.stringValue(`$.${line.field}`, '=', line.value),
          FilterPattern.stringValue(`$.message.${line.field}`, '=', line.value),
        ),
        metricNamespace: METRIC_NAMESPACE,
        metricName: line.metricName,
        metricValue: '1',
        // Emit 0 for lines that do not match, so the metric is continuous and "no failures" is not "no data".
        defaultValue: 0,
      }).metric({ period: FIVE_MINUTES, statistic: 'Sum' });

    this.add('MeteringFailures', logMetric('MeteringFailureFilter', METERING_FAILURE), {
      description: 'The API served requests without counting them (metering failed open: DynamoDB errors or timeouts).',
      threshold: ALARM_THRESHOLDS.meteringFailures,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
    });

    this.add('KeysTableUnavailable', logMetric('KeysTableUnavailableFilter', KEYS_UNAVAILABLE), {
      description:
        'The API could not read the keys table (DynamoDB errors or timeouts): keys seen in the last 15 minutes are ' +
        'served from the process cache, other keys get 503 service_unavailable.',
      threshold: ALARM_THRESHOLDS.keysTableFailures,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
    });

    this.add('IntegrityFailures', logMetric('IntegrityFailureFilter', INTEGRITY_FAILURE), {
      description:
        'Bytes read from the data bucket did not match the snapshot manifest twice (a rewritten or corrupted ' +
        'object): the requests that needed them got 503 service_unavailable, nothing unverified was served.',
      threshold: ALARM_THRESHOLDS.integrityFailures,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
    });

    this.add('EdgeRefusals', logMetric('EdgeRefusalFilter', EDGE_REFUSAL), {
      description:
        'The API refused calls that did not come through the CDN (403 cdn_required): someone calls the execute-api ' +
        'address directly (refused, harmless), or CloudFront and the function disagree on the origin-verify secret ' +
        '(every call refused: redeploy the stack).',
      threshold: ALARM_THRESHOLDS.edgeRefusals,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
    });

    const stageThrottles = new MetricFilter(this, 'StageThrottleFilter', {
      logGroup: props.accessLogGroup,
      filterPattern: FilterPattern.all(
        FilterPattern.stringValue(`$.${STAGE_THROTTLE.statusField}`, '=', STAGE_THROTTLE.status),
        FilterPattern.any(
          FilterPattern.stringValue(`$.${STAGE_THROTTLE.integrationStatusField}`, '=', STAGE_THROTTLE.noIntegration),
          FilterPattern.stringValue(`$.${STAGE_THROTTLE.integrationStatusField}`, '=', ''),
          FilterPattern.notExists(`$.${STAGE_THROTTLE.integrationStatusField}`),
        ),
      ),
      metricNamespace: METRIC_NAMESPACE,
      metricName: STAGE_THROTTLE.metricName,
      metricValue: '1',
      defaultValue: 0,
    }).metric({ period: FIVE_MINUTES, statistic: 'Sum' });
    this.add('ApiStageThrottles', stageThrottles, {
      description:
        'The HTTP API stage throttled calls (429 {"message":"Too Many Requests"} before the function): the traffic ' +
        'reached apiThrottleRateLimit / apiThrottleBurstLimit, the account guard.',
      threshold: ALARM_THRESHOLDS.stageThrottles,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
    });

    if (props.edgeBlocked !== null) this.alarms.push(createEdgeBlockedAlarm(this, this.topic, props.edgeBlocked));

    this.add('RebuildErrors', props.rebuildFunction.metricErrors({ period: Duration.hours(2), statistic: 'Sum' }), {
      description: 'The hourly rebuild of the public coverage and sample objects failed: they are going stale.',
      threshold: ALARM_THRESHOLDS.rebuildErrors,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
    });
  }

  private add(id: string, metric: IMetric | Metric, options: AlarmOptions): void {
    this.alarms.push(createNotifyingAlarm(this, id, this.topic, metric, options));
  }
}
