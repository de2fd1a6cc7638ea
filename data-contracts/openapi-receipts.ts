/**
 * The receipts part of the OpenAPI document (`openapi.ts` spreads it in): the `receipt` parameter that the three
 * batch screens take ({@link withReceipt}), the public key's route, and the receipt schemas. What a receipt holds and
 * how it is signed: data-contracts/receipts.ts.
 */
import { NPI_BATCH_MAX, PLANS } from './constants';
import { errorResponses, nullable, REFUSALS, ref, requestIdHeader } from './openapi-parts';
import {
  RECEIPT_ALGORITHM,
  RECEIPT_CSV_COLUMNS,
  RECEIPT_OUTCOMES,
  RECEIPT_PARAMETER,
  RECEIPT_STATUSES,
  RECEIPT_VERSION,
} from './receipts';

/** The path of the public key, relative to the base path (data-contracts/routes.ts). */
export const RECEIPT_PUBLIC_KEY_PATH = '/receipts/public-key' as const;

const KEY_ID = { type: 'string', pattern: '^[0-9a-f]{16}$' } as const;
const BASE64 = { type: 'string', contentEncoding: 'base64', pattern: '^[A-Za-z0-9+/]+={0,2}$' } as const;
/** The candidates inside a receipt: the NPI records' own schema. */
const CANDIDATE_SCHEMA = 'OigCandidate';

export const RECEIPT_RULES =
  '`receipt=true` answers a signed receipt of the screen instead of the usual body: the NPIs asked, each with its ' +
  'NPPES status and the outcome of the OIG screen (`match` by NPI, possible matches by name as `candidates`, ' +
  '`none`, or `not_screened` for an NPI without a record), the snapshot and the LEIE files it was screened with, ' +
  'the time, the key\u2019s id (never the key) and the plan, signed with Ed25519 by the deployment\u2019s key ' +
  `(\`GET ${RECEIPT_PUBLIC_KEY_PATH}\`). JSON: \`{ receipt, signature }\`, the signature over the UTF-8 bytes of ` +
  'the RFC 8785 (JCS) canonical JSON of `receipt`. CSV (`format=csv`): one line per NPI and candidate, each line ' +
  'signed alone over its bytes before its last comma (the `signature` cell). A receipt is metered exactly as the ' +
  'same call without it, is never answered 304, carries no `ETag` and is never stored (`Cache-Control: no-store`). ' +
  '`none` is not a clearance, and a candidate is not a finding: confirm or dismiss it with the OIG\u2019s own search.';

/** The `receipt` parameter (a component, so each operation names it once). */
export const receiptParameters = {
  receipt: {
    name: RECEIPT_PARAMETER,
    in: 'query',
    required: false,
    description:
      '`true` answers a signed receipt of the screen (ReceiptResponse, or receipt lines with `format=csv`); ' +
      '`false` (the default) the usual body. Any other value, or a receipt asked on a shape that has none, is 400 ' +
      '`invalid_parameter`.',
    schema: { type: 'string', enum: ['true', 'false'], default: 'false' },
  },
} as const;

const EXAMPLE_KEY_ID = '3b6a27bcceb6a42d';
const EXAMPLE_SIGNATURE = `${'u7Zk3fV0m9QeXo1t4d2cR8pLw6yHnB5sJ'.repeat(2)}AbCdEfGhIjKlMnOpQr==`;

const EXAMPLE_RECEIPT = {
  receipt: {
    version: RECEIPT_VERSION,
    receipt_id: '6f1c2a4e-8b3d-4f5a-9c7e-0d1b2a3c4e5f',
    issued_at: '2026-11-02T14:03:11.052Z',
    request: { path: '/api/v1/npi', query: { numbers: '1003633876,1234567893' } },
    api_key_id: 'key_3f1c9a0b7d2e4f65',
    plan: 'developer',
    snapshot: { id: '20261101T000000Z-ez401deg', as_of: '2026-11-01T00:00:00Z' },
    leie_files: [
      {
        file: 'UPDATED.csv',
        kind: 'list',
        release: '2026-10-01T00:00:00Z',
        sha256: '9f2b5c1d0e3a4b6c8d7e9f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e',
        rows: 81234,
      },
    ],
    answers: [
      {
        npi: '1003633876',
        status: 'active',
        outcome: 'none',
        oig: { npi_match: 'none', note: 'No match by NPI in the OIG LEIE. This is not a clearance: …' },
        candidates: [],
      },
      { npi: '1234567893', status: 'not_found', outcome: 'not_screened', oig: null, candidates: [] },
    ],
  },
  signature: { algorithm: RECEIPT_ALGORITHM, key_id: EXAMPLE_KEY_ID, value: EXAMPLE_SIGNATURE },
};

/** The receipt lines of the example, as CSV. */
const EXAMPLE_CSV =
  `${RECEIPT_CSV_COLUMNS.join(',')}\r\n` +
  '6f1c2a4e-8b3d-4f5a-9c7e-0d1b2a3c4e5f,2026-11-02T14:03:11.052Z,20261101T000000Z-ez401deg,2026-11-01T00:00:00Z,' +
  'key_3f1c9a0b7d2e4f65,UPDATED.csv@2026-10-01T00:00:00Z#9f2b…,1,2,1003633876,active,none,,,,,,,,,,,,' +
  `${EXAMPLE_KEY_ID},${EXAMPLE_SIGNATURE}\r\n`;

/** The receipt's media types, added beside an operation's own. */
export const receiptContent = {
  json: { schema: ref('ReceiptResponse'), example: EXAMPLE_RECEIPT },
  csv: {
    schema: {
      type: 'string',
      description:
        `RFC 4180, header row first, columns ${RECEIPT_CSV_COLUMNS.map((c) => `\`${c}\``).join(', ')}. One line ` +
        'per NPI and candidate (one line for an NPI without candidates); `row` numbers the lines from 1, `rows` ' +
        'counts them. `leie_files` is `file@release#sha256` joined by `;`, `candidate_evidence` the agreeing ' +
        'members as `member=value` joined by `;`. Each line is signed alone: `signature` (base64, last) is Ed25519 ' +
        'over the line\u2019s UTF-8 bytes before its last comma, by the key `key_id` names.',
    },
    example: EXAMPLE_CSV,
  },
} as const;

interface ReceiptableOperation {
  description: string;
  parameters: readonly unknown[];
  responses: { '200': { description: string; headers: unknown; content: Record<string, unknown> } };
}

/**
 * An operation that can answer a receipt: the `receipt` parameter (and `format`, when the operation had none: its
 * CSV is the receipt's only), and the receipt's media types beside its 200's own (JSON as a second choice).
 */
export function withReceipt<O extends ReceiptableOperation>(operation: O) {
  const ok = operation.responses['200'];
  const json = ok.content['application/json'] as { schema: Record<string, unknown> } & Record<string, unknown>;
  const csv = ok.content['text/csv'] as ({ schema: Record<string, unknown> } & Record<string, unknown>) | undefined;
  const hasFormat = operation.parameters.some((p) => (p as { name?: string }).name === 'format');
  const keyAt = operation.parameters.findIndex((p) => (p as { $ref?: string }).$ref === '#/components/parameters/key');
  if (keyAt < 0) throw new Error(`${String((operation as { operationId?: unknown }).operationId)} takes no key`);
  const formatParameter = {
    name: 'format',
    in: 'query',
    required: false,
    description: '`csv` only with `receipt=true`: the receipt as signed lines.',
    schema: { type: 'string', enum: ['json', 'csv'], default: 'json' },
  };
  const schemasOf = (schema: Record<string, unknown>) =>
    Array.isArray(schema.oneOf) ? (schema.oneOf as unknown[]) : [schema];
  return {
    ...operation,
    description: `${operation.description} ${RECEIPT_RULES}`,
    // Beside the operation's own parameters, before `key` (and the headers after it).
    parameters: [
      ...operation.parameters.slice(0, keyAt),
      ...(hasFormat ? [] : [formatParameter]),
      { $ref: '#/components/parameters/receipt' },
      ...operation.parameters.slice(keyAt),
    ],
    responses: {
      ...operation.responses,
      '200': {
        ...ok,
        description: `${ok.description} With \`receipt=true\`: the signed receipt (no ETag).`,
        content: {
          ...ok.content,
          'application/json': { ...json, schema: { oneOf: [...schemasOf(json.schema), receiptContent.json.schema] } },
          'text/csv':
            csv === undefined
              ? receiptContent.csv
              : {
                  ...csv,
                  schema: {
                    ...csv.schema,
                    description: `${String(csv.schema.description ?? '')} With \`receipt=true\`: ${receiptContent.csv.schema.description}`,
                  },
                },
        },
      },
    },
  };
}

const publicKeyOperation = {
  operationId: 'getReceiptPublicKey',
  summary: 'The public key that verifies receipts',
  description:
    'Public, no key. The Ed25519 public key of the deployment\u2019s receipts, in three forms (raw base64, PEM ' +
    'SubjectPublicKeyInfo, JWK), with its `key_id`: the first 16 hex digits of the SHA-256 of the 32 raw key ' +
    'bytes, which every receipt\u2019s signature names. Cacheable for an hour.',
  tags: ['public'],
  security: [],
  responses: {
    '200': {
      description: 'The public key.',
      headers: requestIdHeader,
      content: {
        'application/json': {
          schema: ref('ReceiptPublicKey'),
          example: {
            algorithm: RECEIPT_ALGORITHM,
            key_id: EXAMPLE_KEY_ID,
            public_key: 'GbzE9bFu1Wcq2H7WXDEZg2dlkX0URpfj3WrGY6Ym2Ms=',
            public_key_pem:
              '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGbzE9bFu1Wcq2H7WXDEZg2dlkX0URpfj3WrGY6Ym2Ms=\n-----END PUBLIC KEY-----\n',
            jwk: { kty: 'OKP', crv: 'Ed25519', x: 'GbzE9bFu1Wcq2H7WXDEZg2dlkX0URpfj3WrGY6Ym2Ms' },
          },
        },
      },
    },
    ...REFUSALS,
    ...errorResponses({ 500: 'InternalError' }),
  },
};

/** The receipts' own operations, by operationId (openapi.ts puts them on the route table's paths). */
export const receiptOperations = { getReceiptPublicKey: publicKeyOperation } as const;

/** The receipts' schemas. */
export const receiptSchemas = {
  LeieRelease: {
    type: 'object',
    additionalProperties: false,
    description: 'One OIG LEIE file the snapshot was screened with, in the order the ETL applied them.',
    required: ['file', 'kind', 'release', 'sha256', 'rows'],
    properties: {
      file: { type: 'string', description: 'The file\u2019s name.' },
      kind: { type: 'string', enum: ['list', 'supplement'] },
      release: { type: 'string', format: 'date-time', description: 'The file\u2019s release (as-of) time.' },
      sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      rows: { type: 'integer', minimum: 0 },
    },
  },
  ReceiptAnswer: {
    type: 'object',
    additionalProperties: false,
    description: 'One NPI asked, in the order asked.',
    required: ['npi', 'status', 'outcome', 'oig', 'candidates'],
    properties: {
      npi: { type: 'string', description: 'As asked.' },
      status: { type: 'string', enum: [...RECEIPT_STATUSES] },
      outcome: { type: 'string', enum: [...RECEIPT_OUTCOMES] },
      oig: { oneOf: [ref('OigField'), { type: 'null' }] },
      candidates: { type: 'array', items: ref(CANDIDATE_SCHEMA) },
    },
  },
  Receipt: {
    type: 'object',
    additionalProperties: false,
    required: [
      'version',
      'receipt_id',
      'issued_at',
      'request',
      'api_key_id',
      'plan',
      'snapshot',
      'leie_files',
      'answers',
    ],
    properties: {
      version: { const: RECEIPT_VERSION },
      receipt_id: { type: 'string', format: 'uuid' },
      issued_at: { type: 'string', format: 'date-time' },
      request: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'query'],
        properties: {
          path: { type: 'string' },
          query: {
            type: 'object',
            description: 'The query as sent, without `key` and `receipt`: a parameter sent more than once is a list.',
            additionalProperties: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
          },
        },
      },
      api_key_id: { type: 'string', pattern: '^key_[0-9a-f]{16}$', description: 'The key\u2019s id, never the key.' },
      plan: { type: 'string', enum: [...PLANS] },
      snapshot: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'as_of'],
        properties: { id: { type: 'string' }, as_of: { type: 'string', format: 'date-time' } },
      },
      leie_files: { type: 'array', items: ref('LeieRelease') },
      page: {
        type: 'object',
        additionalProperties: false,
        description: 'Change feed pages: this page\u2019s `offset`, and the next page\u2019s (null on the last).',
        required: ['cursor', 'next_cursor'],
        properties: { cursor: { type: 'string' }, next_cursor: nullable('string') },
      },
      answers: { type: 'array', maxItems: NPI_BATCH_MAX, items: ref('ReceiptAnswer') },
    },
  },
  ReceiptSignature: {
    type: 'object',
    additionalProperties: false,
    required: ['algorithm', 'key_id', 'value'],
    properties: {
      algorithm: { const: RECEIPT_ALGORITHM },
      key_id: KEY_ID,
      value: { ...BASE64, description: 'Ed25519 over the UTF-8 bytes of the RFC 8785 canonical JSON of `receipt`.' },
    },
  },
  ReceiptResponse: {
    type: 'object',
    additionalProperties: false,
    required: ['receipt', 'signature'],
    properties: { receipt: ref('Receipt'), signature: ref('ReceiptSignature') },
  },
  ReceiptPublicKey: {
    type: 'object',
    additionalProperties: false,
    required: ['algorithm', 'key_id', 'public_key', 'public_key_pem', 'jwk'],
    properties: {
      algorithm: { const: RECEIPT_ALGORITHM },
      key_id: KEY_ID,
      public_key: { ...BASE64, description: 'The 32 raw key bytes.' },
      public_key_pem: { type: 'string', description: 'SubjectPublicKeyInfo, PEM.' },
      jwk: {
        type: 'object',
        additionalProperties: false,
        required: ['kty', 'crv', 'x'],
        properties: { kty: { const: 'OKP' }, crv: { const: 'Ed25519' }, x: { type: 'string' } },
      },
    },
  },
} as const;
