/**
 * The CloudFront distribution's web ACL (WAFv2, CloudFront scope: it must live in us-east-1). Abuse and capacity
 * limits only: the API's contract has no per-second cap for a keyed caller within its monthly quota, so no rule may
 * refuse a paying caller's burst that its quota allows (docs/deploy.md).
 *
 * Rules, in order:
 * 1. {@link EDGE_RULES.addressVolume}: one address past `edgeAddressLimit` requests in the window, keyed or not.
 * 2. {@link EDGE_RULES.keyless}: one address past `edgeKeylessLimit` requests without a well-formed key in the window
 *    (CORS preflights aside: a browser sends them without the key, one per distinct URL).
 * 3. {@link EDGE_RULES.common}: AWS's common rule set, with the rules that would refuse contract-valid calls counted
 *    instead ({@link COMMON_RULE_SET_COUNTED}).
 * Both rate rules block with the contract's JSON body and `Retry-After` (data-contracts/edge.ts `EDGE_BLOCK`).
 */
import { Duration } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { CORS } from '../../data-contracts/constants';
import { EDGE_BLOCK, WELL_FORMED_KEY_PATTERN } from '../../data-contracts/edge';
import { KEY_PARAMETER } from '../../data-contracts/query-parameters';
import type { RateWindowSeconds } from '../config';

/** The ACL's rules: names double as their CloudWatch metric names (`Rule` dimension of `AWS/WAFV2`). */
export const EDGE_RULES = {
  addressVolume: { name: 'RateLimitPerAddress', priority: 0 },
  keyless: { name: 'RateLimitKeyless', priority: 1 },
  common: { name: 'AWSManagedRulesCommonRuleSet', priority: 2 },
} as const;

/**
 * Rules of AWSManagedRulesCommonRuleSet set to count (reported, never blocking), and why: each would refuse calls the
 * contract allows. https://docs.aws.amazon.com/waf/latest/developerguide/aws-managed-rule-groups-baseline.html
 */
export const COMMON_RULE_SET_COUNTED = {
  /**
   * Blocks a query string over 2,048 bytes. A contract-valid `/providers` query reaches it: a roster of 100 NPIs is
   * 1,297 bytes with its commas encoded, `taxonomy` takes 200 characters, `name` and `city` 100 each (three times
   * that encoded), plus the key. The function validates every parameter, and CloudFront caps the URL at 8,192 bytes.
   */
  SizeRestrictions_QUERYSTRING: 'contract-valid queries exceed 2,048 bytes (a 100-NPI roster with other filters)',
  /** Blocks a request without `User-Agent`. The contract asks for none; a paying caller's HTTP client may send none. */
  NoUserAgent_HEADER: 'the contract does not require a User-Agent; HTTP clients may send none',
} as const;

/** The key of the ACL's custom response body of a rate-based block. */
export const EDGE_BLOCK_BODY_KEY = EDGE_BLOCK.code;

/**
 * Where a well-formed key may come from, as WAF regex match statements: the three places the API reads it
 * (lambdas/core/authenticate.ts: `Authorization: Bearer` with the scheme in any case, `x-api-key`, the `key` query
 * parameter; surrounding blanks trimmed). The patterns are written in the subset of PCRE that WAF and JavaScript
 * share, so the tests run them as JavaScript regular expressions.
 */
export const WELL_FORMED_KEY_PLACES = [
  {
    place: 'authorization',
    fieldToMatch: { singleHeader: { Name: 'authorization' } },
    regex: `^[ \\t]*[Bb][Ee][Aa][Rr][Ee][Rr][ \\t]+${WELL_FORMED_KEY_PATTERN}[ \\t]*$`,
    transformation: 'NONE',
  },
  {
    place: 'x-api-key',
    fieldToMatch: { singleHeader: { Name: 'x-api-key' } },
    regex: `^[ \\t]*${WELL_FORMED_KEY_PATTERN}[ \\t]*$`,
    transformation: 'NONE',
  },
  {
    place: KEY_PARAMETER,
    fieldToMatch: { singleQueryArgument: { Name: KEY_PARAMETER } },
    // The API reads the parameter decoded; a key needs no escaping, but a client may escape it anyway.
    regex: `^[ \\t]*${WELL_FORMED_KEY_PATTERN}[ \\t]*$`,
    transformation: 'URL_DECODE',
  },
] as const;

/** Props of {@link EdgeAcl}. */
export interface EdgeAclProps {
  /** The ACL's name and metric name (the `WebACL` dimension of its metrics). */
  readonly name: string;
  readonly windowSeconds: RateWindowSeconds;
  readonly keylessLimit: number;
  readonly addressLimit: number;
}

/** The web ACL and the metric of the requests it blocks. */
export class EdgeAcl extends Construct {
  readonly acl: CfnWebACL;
  /** The ARN that a distribution's `webAclId` takes. */
  readonly arn: string;
  /**
   * Requests blocked by any rule, per 5 minutes. A CloudFront ACL's metrics are in us-east-1 without the `Region`
   * dimension (it is "required for all protected resource types except CloudFront distributions").
   * https://docs.aws.amazon.com/waf/latest/developerguide/waf-metrics.html
   */
  readonly blockedRequests: Metric;

  constructor(scope: Construct, id: string, props: EdgeAclProps) {
    super(scope, id);

    const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    // WAF prefixes only the headers it inserts into a forwarded request (`x-amzn-waf-`); a custom response's headers
    // reach the client as named. https://docs.aws.amazon.com/waf/latest/APIReference/API_CustomHTTPHeader.html
    const block: CfnWebACL.RuleActionProperty = {
      block: {
        customResponse: {
          responseCode: EDGE_BLOCK.status,
          customResponseBodyKey: EDGE_BLOCK_BODY_KEY,
          responseHeaders: [
            // The window: by then the address's count has dropped below the limit, if it stopped.
            { name: 'Retry-After', value: String(props.windowSeconds) },
            { name: 'Cache-Control', value: 'no-store' },
            // So that a browser client may read the answer and its Retry-After, as it reads the API's.
            { name: 'Access-Control-Allow-Origin', value: '*' },
            { name: 'Access-Control-Expose-Headers', value: CORS.exposeHeaders },
          ],
        },
      },
    };
    const rateRule = (
      rule: { name: string; priority: number },
      limit: number,
      scopeDownStatement?: CfnWebACL.StatementProperty,
    ): CfnWebACL.RuleProperty => ({
      name: rule.name,
      priority: rule.priority,
      action: block,
      statement: {
        rateBasedStatement: {
          limit,
          evaluationWindowSec: props.windowSeconds,
          aggregateKeyType: 'IP',
          ...(scopeDownStatement === undefined ? {} : { scopeDownStatement }),
        },
      },
      visibilityConfig: visibility(rule.name),
    });

    const hasWellFormedKey: CfnWebACL.StatementProperty = {
      orStatement: {
        statements: WELL_FORMED_KEY_PLACES.map((place) => ({
          regexMatchStatement: {
            fieldToMatch: place.fieldToMatch,
            regexString: place.regex,
            textTransformations: [{ priority: 0, type: place.transformation }],
          },
        })),
      },
    };
    const isPreflight: CfnWebACL.StatementProperty = {
      byteMatchStatement: {
        fieldToMatch: { method: {} },
        positionalConstraint: 'EXACTLY',
        searchString: 'OPTIONS',
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    };

    this.acl = new CfnWebACL(this, 'WebAcl', {
      name: props.name,
      description: 'Provider Facts API edge - per-address abuse limits and the AWS common rule set',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(props.name),
      customResponseBodies: {
        [EDGE_BLOCK_BODY_KEY]: { contentType: 'APPLICATION_JSON', content: JSON.stringify(EDGE_BLOCK.body) },
      },
      rules: [
        rateRule(EDGE_RULES.addressVolume, props.addressLimit),
        rateRule(EDGE_RULES.keyless, props.keylessLimit, {
          andStatement: {
            statements: [
              { notStatement: { statement: hasWellFormedKey } },
              { notStatement: { statement: isPreflight } },
            ],
          },
        }),
        {
          name: EDGE_RULES.common.name,
          priority: EDGE_RULES.common.priority,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: Object.keys(COMMON_RULE_SET_COUNTED).map((name) => ({
                name,
                actionToUse: { count: {} },
              })),
            },
          },
          visibilityConfig: visibility(EDGE_RULES.common.name),
        },
      ],
    });
    this.arn = this.acl.attrArn;
    this.blockedRequests = new Metric({
      namespace: 'AWS/WAFV2',
      metricName: 'BlockedRequests',
      dimensionsMap: { WebACL: props.name, Rule: 'ALL' },
      statistic: 'Sum',
      period: Duration.minutes(5),
    });
  }
}
