/**
 * CloudFront in front of everything: the public coverage and sample objects from the bucket (cached in step with
 * the hourly rebuild), every other `/api/v1/*` request to the HTTP API (never cached, credentials forwarded, with the
 * origin-verify header), `/favicon.ico` answered at the edge, security headers on every answer, and the web ACL.
 */
import { Annotations, Duration, Fn } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  type BehaviorOptions,
  CacheCookieBehavior,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  type ResponseSecurityHeadersBehavior,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { API_BASE_PATH } from '../../data-contracts/constants';
import { COVERAGE_PAGE_CSP, FAVICON_PATH, ORIGIN_VERIFY_HEADER } from '../../data-contracts/edge';
import {
  COVERAGE_PAGE_PATH_PATTERN,
  FAVICON_FUNCTION_CODE,
  STATIC_PATH_PATTERNS,
  STATIC_REQUEST_FUNCTION_CODE,
  STATIC_RESPONSE_FUNCTION_CODE,
} from '../cdn-functions';

/** How often the public objects are rebuilt; the static cache TTL follows it. */
export const REBUILD_INTERVAL = Duration.hours(1);

/** The prefix of the public objects: the only part of the bucket CloudFront may read. */
export const PUBLIC_PREFIX = 'public/' as const;

/**
 * `Strict-Transport-Security` of every answer: two years (the preload list's minimum is one), subdomains included.
 * No `preload`: it asks browsers to hard-code HTTPS for the whole registrable domain, a commitment for the domain's
 * owner to make (and submit), not for this stack; `*.cloudfront.net` is not ours to preload at all.
 */
export const HSTS = { maxAgeSeconds: 2 * 365 * 24 * 60 * 60, includeSubdomains: true, preload: false } as const;

/**
 * `Referrer-Policy` of every answer: `no-referrer`, as the docs page already sends. A `key=` query parameter must not
 * leave in a Referer, and nothing served here needs one.
 */
export const REFERRER_POLICY = HeadersReferrerPolicy.NO_REFERRER;

/** Props of {@link Cdn}. */
export interface CdnProps {
  readonly bucket: IBucket;
  readonly httpApi: IHttpApi;
  /** Custom domain and its us-east-1 certificate, or null. */
  readonly domainName: string | null;
  readonly certificateArn: string | null;
  /** The origin-verify secret (a dynamic reference) sent to the API origin, or null to send none. */
  readonly originVerifySecret: string | null;
  /** The web ACL (WAFv2, CloudFront scope) to attach, or null for none. */
  readonly webAclArn: string | null;
}

/** The CloudFront distribution and its policies. */
export class Cdn extends Construct {
  readonly distribution: Distribution;
  readonly staticCachePolicy: CachePolicy;
  /** Security headers of every behaviour but the coverage page's. */
  readonly securityHeaders: ResponseHeadersPolicy;
  /** The same, with the coverage page's Content-Security-Policy and X-Frame-Options. */
  readonly pageHeaders: ResponseHeadersPolicy;

  constructor(scope: Construct, id: string, props: CdnProps) {
    super(scope, id);

    // The HTTP API's host name, without scheme: `<id>.execute-api.<region>.amazonaws.com`.
    const apiDomain = Fn.select(2, Fn.split('/', props.httpApi.apiEndpoint));
    const apiOrigin = new HttpOrigin(apiDomain, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      // Lambda answers within 28 s; CloudFront's default read timeout is 30 s.
      readTimeout: Duration.seconds(30),
      // Proves to the function that the call came through CloudFront (and its web ACL). CloudFront overwrites a
      // header of that name sent by the viewer, so it cannot be forged through the CDN.
      // https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/forward-custom-headers.html
      customHeaders:
        props.originVerifySecret === null ? undefined : { [ORIGIN_VERIFY_HEADER]: props.originVerifySecret },
    });

    // OAC on an imported reference of the bucket: CDK then leaves the bucket policy alone, and the statement
    // below grants CloudFront `s3:GetObject` on `public/*` only, instead of the whole bucket (CDK's default).
    // https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/private-content-restricting-access-to-s3.html
    const bucketRef = Bucket.fromBucketAttributes(this, 'BucketRef', {
      bucketArn: props.bucket.bucketArn,
      bucketName: props.bucket.bucketName,
      bucketRegionalDomainName: props.bucket.bucketRegionalDomainName,
    });
    const staticOrigin = S3BucketOrigin.withOriginAccessControl(bucketRef);

    this.staticCachePolicy = new CachePolicy(this, 'StaticCachePolicy', {
      comment: 'Public coverage and sample objects: keyed on format, cached for one rebuild interval',
      // A copy is never older than one rebuild interval past the rebuild that replaced it.
      defaultTtl: REBUILD_INTERVAL,
      maxTtl: REBUILD_INTERVAL,
      minTtl: Duration.seconds(0),
      queryStringBehavior: CacheQueryStringBehavior.allowList('format'),
      headerBehavior: CacheHeaderBehavior.none(),
      cookieBehavior: CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    const staticRequestFunction = new CloudFrontFunction(this, 'StaticRequestFunction', {
      comment: 'Maps /api/v1/coverage[.html] and /api/v1/sample[?format=csv] to the public objects',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(STATIC_REQUEST_FUNCTION_CODE),
    });
    const staticResponseFunction = new CloudFrontFunction(this, 'StaticResponseFunction', {
      comment: 'Serves the CSV sample as an attachment',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(STATIC_RESPONSE_FUNCTION_CODE),
    });

    // Every answer's security headers. They override an origin's value of the same header (the API sends nosniff
    // and, on the docs page, the same Referrer-Policy); CORS headers are not touched (the API and the functions set
    // them). No Content-Security-Policy here: the docs page (from the API) carries its own, and JSON needs none.
    const common: ResponseSecurityHeadersBehavior = {
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(HSTS.maxAgeSeconds),
        includeSubdomains: HSTS.includeSubdomains,
        preload: HSTS.preload,
        override: true,
      },
      contentTypeOptions: { override: true },
      referrerPolicy: { referrerPolicy: REFERRER_POLICY, override: true },
    };
    this.securityHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Provider Facts API: HSTS, nosniff, no-referrer on every answer',
      securityHeadersBehavior: common,
    });
    // The coverage page from S3 (no headers of its own there): the CSP the API sends with the same page.
    this.pageHeaders = new ResponseHeadersPolicy(this, 'CoveragePageHeaders', {
      comment: 'Provider Facts coverage page: the common headers, its CSP and no framing',
      securityHeadersBehavior: {
        ...common,
        contentSecurityPolicy: { contentSecurityPolicy: COVERAGE_PAGE_CSP, override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      },
    });

    const staticBehavior: BehaviorOptions = {
      origin: staticOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      // OPTIONS for CORS preflights, which the viewer-request function answers (S3 would refuse them).
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
      cachePolicy: this.staticCachePolicy,
      compress: true,
      functionAssociations: [
        { function: staticRequestFunction, eventType: FunctionEventType.VIEWER_REQUEST },
        { function: staticResponseFunction, eventType: FunctionEventType.VIEWER_RESPONSE },
      ],
      responseHeadersPolicy: this.securityHeaders,
    };
    // The coverage page: the same origin, cache and functions, its own headers. CSP on coverage.json would be harmless
    // (a browser applies it only to a document), but a behaviour of its own keeps the data objects' headers those of
    // every other answer and lets the page's policy change alone.
    const pageBehavior: BehaviorOptions = { ...staticBehavior, responseHeadersPolicy: this.pageHeaders };

    // `/favicon.ico`: 204 from a viewer-request function; the origin is never reached (any origin will do).
    const faviconFunction = new CloudFrontFunction(this, 'FaviconFunction', {
      comment: 'Answers /favicon.ico with 204 at the edge',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(FAVICON_FUNCTION_CODE),
    });
    const faviconBehavior: BehaviorOptions = {
      origin: staticOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      functionAssociations: [{ function: faviconFunction, eventType: FunctionEventType.VIEWER_REQUEST }],
      responseHeadersPolicy: this.securityHeaders,
    };

    // The API behaviour: never cached, and everything the viewer sent except Host reaches API Gateway (which
    // routes on its own Host). An origin request policy cannot list `Authorization` (CloudFront rejects it, so
    // a cache could never serve one caller's answer to another), but the managed AllViewerExceptHostHeader
    // policy forwards it when, as here, the cache policy is CachingDisabled. So Bearer keys, `x-api-key` and
    // the `key=` query parameter all reach the API.
    // https://repost.aws/knowledge-center/cloudfront-authorization-header
    // https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/using-managed-origin-request-policies.html
    // The same policy forwards what a CORS preflight needs (`OPTIONS`, `Origin`, `Access-Control-Request-*`; the
    // API answers it, API Gateway having no CORS configuration of its own) and the viewer's `Accept-Encoding`:
    // the API compresses (br or gzip) and CloudFront passes the coded body through. `compress` only acts on a
    // cacheable answer, and CachingDisabled keeps every keyed answer out of the cache.
    // https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/ServingCompressedFiles.html
    const apiBehavior: BehaviorOptions = {
      origin: apiOrigin,
      // HTTPS only (no redirect): a key sent over plain HTTP has already leaked; refuse rather than redirect.
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      compress: true,
      responseHeadersPolicy: this.securityHeaders,
    };

    const certificate =
      props.certificateArn === null
        ? undefined
        : Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn);
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Provider Facts Data API',
      // Anything outside /api/v1 also goes to the API, whose $default route answers a JSON 404.
      defaultBehavior: apiBehavior,
      // Order matters: CloudFront takes the first matching pattern, so the page precedes the coverage pattern, and
      // the static ones precede /api/v1/*.
      additionalBehaviors: {
        [COVERAGE_PAGE_PATH_PATTERN]: pageBehavior,
        [STATIC_PATH_PATTERNS[0]]: staticBehavior,
        [STATIC_PATH_PATTERNS[1]]: staticBehavior,
        [`${API_BASE_PATH}/*`]: apiBehavior,
        [FAVICON_PATH]: faviconBehavior,
      },
      webAclId: props.webAclArn ?? undefined,
      domainNames: props.domainName === null ? undefined : [props.domainName],
      certificate,
      // Only a custom certificate lets the security policy be chosen; the default one is fixed by CloudFront.
      minimumProtocolVersion: certificate === undefined ? undefined : SecurityPolicyProtocol.TLS_V1_2_2021,
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
    });

    // CDK warns that it cannot write the policy of the imported reference: intended, it is written here.
    Annotations.of(this.distribution).acknowledgeWarning(
      '@aws-cdk/aws-cloudfront-origins:updateImportedBucketPolicyOac',
      'The bucket policy statement for OAC is added below, scoped to public/*',
    );
    props.bucket.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudFrontReadsPublicObjects',
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal('cloudfront.amazonaws.com')],
        actions: ['s3:GetObject'],
        resources: [props.bucket.arnForObjects(`${PUBLIC_PREFIX}*`)],
        conditions: { StringEquals: { 'AWS:SourceArn': this.distribution.distributionArn } },
      }),
    );
  }
}
