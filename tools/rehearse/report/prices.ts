/**
 * AWS public list prices (USD, us-east-1) the rehearsal's cost figure uses, each with the date it took effect and
 * its page. No AWS site is reachable from this machine: these are the published prices as the team last read them
 * (docs/deployment-rehearsal.md says when), not fetched at run time. Update them here, in one place.
 */
export interface Price {
  usd: number;
  /** What one `usd` buys. */
  per: string;
  /** The date the price took effect (or was last confirmed), and where it is published. */
  since: string;
  source: string;
}

export const PRICES = {
  lambdaGbSecond: {
    x86_64: {
      usd: 0.0000166667,
      per: 'GB-second (first 6 billion GB-s a month)',
      since: '2020-12-01 (1 ms billing)',
      source: 'https://aws.amazon.com/lambda/pricing/',
    },
    arm64: {
      usd: 0.0000133334,
      per: 'GB-second (first 7.5 billion GB-s a month)',
      since: '2021-09-29 (Graviton2)',
      source: 'https://aws.amazon.com/lambda/pricing/',
    },
  },
  lambdaRequest: {
    usd: 0.2,
    per: 'million requests',
    since: '2014-11-13',
    source: 'https://aws.amazon.com/lambda/pricing/',
  },
  /** On-demand functions on managed runtimes are billed for their INIT phase too. */
  lambdaInitBilled: {
    usd: 0,
    per: 'init billed as duration',
    since: '2025-08-01',
    source: 'https://aws.amazon.com/blogs/compute/aws-lambda-standardizes-billing-for-init-phase/',
  },
  httpApiRequest: {
    usd: 1.0,
    per: 'million requests (first 300 million a month, up to 512 KB each)',
    since: '2020-03-12',
    source: 'https://aws.amazon.com/api-gateway/pricing/',
  },
  s3Get: {
    usd: 0.0004,
    per: 'thousand GET (and HEAD) requests, S3 Standard',
    since: '2018',
    source: 'https://aws.amazon.com/s3/pricing/',
  },
  dynamoWrite: {
    usd: 0.625,
    per: 'million write request units, on-demand',
    since: '2024-11-01',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
  },
  dynamoRead: {
    usd: 0.125,
    per: 'million read request units, on-demand',
    since: '2024-11-01',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
  },
  cloudFrontRequest: {
    usd: 1.0,
    per: 'million HTTPS requests, United States (0.0100 per 10,000)',
    since: '2020',
    source: 'https://aws.amazon.com/cloudfront/pricing/',
  },
  wafRequest: {
    usd: 0.6,
    per: 'million requests inspected (plus 5 a month per web ACL and 1 per rule)',
    since: '2019',
    source: 'https://aws.amazon.com/waf/pricing/',
  },
} as const;
