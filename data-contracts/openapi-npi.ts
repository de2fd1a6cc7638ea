/**
 * The NPI lookup part of the OpenAPI document (`openapi.ts` spreads it in): `GET /npi/{npi}` and the batch
 * `GET /npi?numbers=`, their schemas and examples. Kept apart so the lookups read as one addition to the contract.
 */

import { NPI_BATCH_MAX } from './constants';
import { OIG_CANDIDATE_EXAMPLE, OIG_CANDIDATES_RULES } from './openapi-candidates';
import {
  CHECK_ORDER,
  DATA_VERSION_RULES,
  dataVersionProperties,
  errorResponses,
  keyedHeaders,
  keyedResponses,
  nullable,
  ref,
} from './openapi-parts';
import { NPI_PATTERN, PARAMETER_RULES } from './parameter-rules';

const NPI = { type: 'string', pattern: NPI_PATTERN } as const;
const DATE = nullable('string', { format: 'date' });

const NPI_RULES =
  'Every plan may call it. An active NPI answers 200 with its NPPES identity record; a deactivated one 410 with ' +
  'its deactivation date; an NPI never issued (or whose registry row was rejected) 404 `not_found`; anything ' +
  'but 10 digits passing the check digit (Luhn over `80840` + the NPI) 400 `invalid_npi`. Like identity rows, ' +
  'the record carries `oig` (free), its possible matches `oig_candidates` (free; an active NPI only) and the paid ' +
  'fields as locked placeholders on every plan. Quota: one call per ' +
  `200 or 410 (both serve data); 400, 401, 403, 404, 429, 500 and 503 are not counted. ${CHECK_ORDER}`;

const EXAMPLE_ACTIVE = {
  tier: 'free',
  plan: 'free',
  snapshot_id: '20261101T000000Z-ez401deg',
  as_of: '2026-11-01T00:00:00Z',
  data: {
    npi: '1003633876',
    status: 'active',
    entity_type: 'individual',
    name: 'KYLEE FAWCETT',
    organization_name: null,
    last_name: 'FAWCETT',
    first_name: 'KYLEE',
    taxonomies: [
      {
        code: '390200000X',
        display: 'Student in an Organized Health Care Education/Training Program',
        primary: true,
        license_number: null,
        license_state: null,
      },
    ],
    city: 'PHOENIX',
    state: 'AZ',
    postal_code: '85004',
    enumeration_date: '2024-09-23',
    last_update_date: '2026-06-15',
    layer: 'identity',
    source: 'NPPES',
    oig: { npi_match: 'none', note: 'No match by NPI in the OIG LEIE. This is not a clearance: …' },
    oig_candidates: [OIG_CANDIDATE_EXAMPLE],
    certification: { locked: true, unlock: 'Paid field: …' },
    license: { locked: true, unlock: 'Paid field: …' },
    fda: { locked: true, unlock: 'Paid field: …' },
    price: { locked: true, unlock: 'Paid field: …' },
  },
};

const npiParameter = {
  name: 'npi',
  in: 'path',
  required: true,
  description: 'A 10-digit NPI.',
  schema: { type: 'string', ...PARAMETER_RULES.npi },
};

const npiOperation = {
  operationId: 'getNpi',
  summary: 'One NPI: its NPPES identity record, or its deactivation',
  description: `${NPI_RULES} ${DATA_VERSION_RULES}`,
  tags: ['npi'],
  parameters: [
    npiParameter,
    { $ref: '#/components/parameters/key' },
    { $ref: '#/components/parameters/If-None-Match' },
  ],
  responses: keyedResponses(
    {
      description: 'An active NPI.',
      content: { 'application/json': { schema: ref('NpiResponse'), example: EXAMPLE_ACTIVE } },
    },
    {
      // Every plan may look NPIs up: a 403 comes only from the edge.
      ...errorResponses({ 403: 'EdgeForbidden', 404: 'NotFound' }),
      '410': {
        description: 'A deactivated NPI: its deactivation date and the OIG screen.',
        headers: keyedHeaders,
        content: {
          'application/json': {
            schema: ref('NpiDeactivatedResponse'),
            example: {
              tier: 'paid',
              plan: 'developer',
              snapshot_id: '20261101T000000Z-ez401deg',
              as_of: '2026-11-01T00:00:00Z',
              usage: { used: 12, quota: 25000 },
              data: {
                npi: '1114636115',
                status: 'deactivated',
                deactivation_date: '2026-06-15',
                layer: 'identity',
                source: 'NPPES',
                oig: { npi_match: 'none', note: 'No match by NPI in the OIG LEIE. This is not a clearance: …' },
              },
            },
          },
        },
      },
    },
  ),
};

const batchOperation = {
  operationId: 'listNpis',
  summary: `Up to ${NPI_BATCH_MAX} NPIs in one call`,
  description:
    `One entry per NPI asked, in the order asked (duplicates included), each with its \`status\`. ` +
    `More than ${NPI_BATCH_MAX} NPIs, or none: 400 \`invalid_parameter\`. A malformed NPI does not refuse the ` +
    'batch: its entry says `invalid`. Quota: one call per NPI asked, whatever its status (the same NPIs cost the ' +
    'same through `/providers?npi=`); the charge is made before the lookup: when the month has fewer calls left ' +
    'than the batch asks, the whole batch is refused with 429, nothing is counted and nothing is read, and if the ' +
    'lookup then fails (500, 503) the calls are given back. ' +
    `${CHECK_ORDER} ${DATA_VERSION_RULES}`,
  tags: ['npi'],
  parameters: [
    {
      name: 'numbers',
      in: 'query',
      required: true,
      description: `Comma-separated NPIs, 1 to ${NPI_BATCH_MAX}.`,
      schema: { type: 'string' },
      example: '1003633876,1114636115,1234567893',
    },
    { $ref: '#/components/parameters/key' },
    { $ref: '#/components/parameters/If-None-Match' },
  ],
  responses: keyedResponses(
    {
      description: 'One entry per NPI asked.',
      content: {
        'application/json': {
          schema: ref('NpiBatchResponse'),
          example: {
            tier: 'paid',
            plan: 'enterprise',
            snapshot_id: '20261101T000000Z-ez401deg',
            as_of: '2026-11-01T00:00:00Z',
            data: [
              { npi: '1003633876', status: 'active', record: EXAMPLE_ACTIVE.data },
              { npi: '1234567893', status: 'not_found', reason: 'No NPPES record has this NPI.' },
              { npi: '12345', status: 'invalid', reason: 'An NPI is 10 digits.' },
            ],
          },
        },
      },
    },
    // Every plan may look NPIs up: a 403 comes only from the edge.
    { ...errorResponses({ 403: 'EdgeForbidden' }) },
  ),
};

/** The lookup operations, by operationId (openapi.ts puts them on the route table's paths). */
export const npiOperations = {
  listNpis: batchOperation,
  getNpi: npiOperation,
} as const;

const envelope = {
  tier: { type: 'string', enum: ['free', 'paid'] },
  plan: { type: 'string', enum: ['free', 'builder', 'developer', 'enterprise'] },
  usage: ref('Usage'),
  notice: { type: 'string' },
};

/** The lookups' schemas. */
export const npiSchemas = {
  NpiTaxonomy: {
    type: 'object',
    additionalProperties: false,
    description: 'One taxonomy slot of the NPPES record, in slot order.',
    required: ['code', 'display', 'primary', 'license_number', 'license_state'],
    properties: {
      code: { type: 'string' },
      display: nullable('string', { description: 'NUCC display name; null for a code NUCC does not know.' }),
      primary: { type: 'boolean' },
      license_number: nullable('string'),
      license_state: nullable('string'),
    },
  },
  NpiRecord: {
    type: 'object',
    additionalProperties: false,
    required: [
      'npi',
      'status',
      'entity_type',
      'name',
      'taxonomies',
      'layer',
      'source',
      'oig',
      'oig_candidates',
      'certification',
      'license',
      'fda',
      'price',
    ],
    properties: {
      npi: NPI,
      status: { const: 'active' },
      entity_type: { type: 'string', enum: ['individual', 'organization'] },
      name: { type: 'string', description: 'As on identity rows.' },
      organization_name: nullable('string'),
      last_name: nullable('string'),
      first_name: nullable('string'),
      taxonomies: { type: 'array', items: ref('NpiTaxonomy') },
      city: nullable('string'),
      state: nullable('string'),
      postal_code: nullable('string', { pattern: PARAMETER_RULES.postal_code.pattern }),
      enumeration_date: DATE,
      last_update_date: DATE,
      layer: { const: 'identity' },
      source: { const: 'NPPES' },
      oig: ref('OigField'),
      oig_candidates: {
        type: 'array',
        items: ref('OigCandidate'),
        description: `Always present, [] when none. ${OIG_CANDIDATES_RULES}`,
      },
      certification: ref('LockedField'),
      license: ref('LockedField'),
      fda: ref('LockedField'),
      price: ref('LockedField'),
    },
  },
  NpiDeactivated: {
    type: 'object',
    additionalProperties: false,
    description:
      'A deactivated NPI. It has no `oig_candidates`: NPPES blanks a deactivated NPI\u2019s names, so there is ' +
      'nothing to compare.',
    required: ['npi', 'status', 'deactivation_date', 'layer', 'source', 'oig'],
    properties: {
      npi: NPI,
      status: { const: 'deactivated' },
      deactivation_date: { type: 'string', format: 'date' },
      layer: { const: 'identity' },
      source: { const: 'NPPES' },
      oig: ref('OigField'),
    },
  },
  NpiResponse: {
    type: 'object',
    additionalProperties: false,
    required: ['tier', 'plan', 'snapshot_id', 'as_of', 'data'],
    properties: { ...envelope, ...dataVersionProperties, data: ref('NpiRecord') },
  },
  NpiDeactivatedResponse: {
    type: 'object',
    additionalProperties: false,
    required: ['tier', 'plan', 'snapshot_id', 'as_of', 'data'],
    properties: { ...envelope, ...dataVersionProperties, data: ref('NpiDeactivated') },
  },
  NpiBatchEntry: {
    type: 'object',
    additionalProperties: false,
    required: ['npi', 'status'],
    description: '`record` for `active` (NpiRecord) and `deactivated` (NpiDeactivated); `reason` otherwise.',
    properties: {
      npi: { type: 'string', description: 'As asked.' },
      status: { type: 'string', enum: ['active', 'deactivated', 'not_found', 'invalid'] },
      record: { oneOf: [ref('NpiRecord'), ref('NpiDeactivated')] },
      reason: { type: 'string' },
    },
  },
  NpiBatchResponse: {
    type: 'object',
    additionalProperties: false,
    required: ['tier', 'plan', 'snapshot_id', 'as_of', 'data'],
    properties: {
      ...envelope,
      ...dataVersionProperties,
      data: { type: 'array', maxItems: NPI_BATCH_MAX, items: ref('NpiBatchEntry') },
    },
  },
} as const;
