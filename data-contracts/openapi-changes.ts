/**
 * The change feed part of the OpenAPI document (`openapi.ts` spreads it in): `GET /changes?since=`, its schemas and
 * examples. What a change is and how long changes are kept: data-contracts/changes.ts.
 */
import {
  CHANGE_FIELDS,
  CHANGE_KINDS,
  CHANGE_STEP_MEMBERS,
  CHANGE_WHAT_MEMBERS,
  CHANGES_RETENTION_MONTHS,
} from './changes';
import { NPI_BATCH_MAX, OIG_CANDIDATE_NOTE, OIG_EXCLUDED_NOTE, PAGE_LIMIT, VERTICALS } from './constants';
import { OIG_CANDIDATE_EXAMPLE } from './openapi-candidates';
import {
  CHECK_ORDER,
  DATA_VERSION_RULES,
  dataVersionProperties,
  keyedResponses,
  nullable,
  pagingParameters,
  ref,
} from './openapi-parts';
import { NPI_PATTERN } from './parameter-rules';

const CHANGES_RULES =
  `Every change between the snapshot \`since\` names (or the last snapshot at or before the date \`since\` names) ` +
  'and the current snapshot, oldest step first. A snapshot keeps the changes of the last ' +
  `${CHANGES_RETENTION_MONTHS} months; a \`since\` older than that is refused with 400 \`since_too_old\`, whose ` +
  'hint names the oldest `since` answered (re-screen the whole roster with `/npi?numbers=` from there), never ' +
  'answered with a partial list. `span` states exactly which snapshots the answer covers. Identity changes ' +
  '(`oig_*`, `npi_*`, `*_changed` of name, primary taxonomy, state) are keyed by NPI; vertical changes ' +
  '(`verified_added`, `verified_removed`, `signal_changed`) by `entity_id`, for verified records only ' +
  '(`internal_only` records never appear). `oig_excluded` and `oig_removed` inherit the NPI-only matching rule: ' +
  'the LEIE carries an NPI for about 10.5% of its records, so `oig_removed` is never a clearance; its `new` says ' +
  'why: `{"reason":"reinstated","date":"YYYY-MM-DD"}` when a monthly supplement reinstated the exclusion, else ' +
  '`{"reason":"not_listed"}`. Exclusions without an NPI appear only as possible matches: ' +
  '`oig_candidate_added` (`new` the OigCandidate) and `oig_candidate_removed` (`old` the OigCandidate); a ' +
  'candidate is not a finding, its removal is not a clearance, and a change of its strength alone is not a ' +
  'change. Paid values: a free key sees a `signal_changed` entry with `old` and `new` locked. A key bound to one ' +
  'vertical sees the identity changes and its own vertical\u2019s changes (another `vertical` is 403). Quota: one ' +
  `call per 200, like a list. ${CHECK_ORDER} ${DATA_VERSION_RULES}`;

const STEP_A = { snapshot: '20261001T000000Z-a1b2c3d4', as_of: '2026-10-01T00:00:00Z' };
const STEP_B = { snapshot: '20261101T000000Z-ez401deg', as_of: '2026-11-01T00:00:00Z' };
const STEP_IDS = {
  from_snapshot: STEP_A.snapshot,
  from_as_of: STEP_A.as_of,
  to_snapshot: STEP_B.snapshot,
  to_as_of: STEP_B.as_of,
};

const EXAMPLE = {
  tier: 'paid',
  plan: 'developer',
  usage: { used: 41, quota: 25000 },
  snapshot_id: STEP_B.snapshot,
  as_of: STEP_B.as_of,
  span: {
    since: STEP_A.snapshot,
    from_snapshot: STEP_A.snapshot,
    from_as_of: STEP_A.as_of,
    to_snapshot: STEP_B.snapshot,
    to_as_of: STEP_B.as_of,
    oldest_snapshot: STEP_A.snapshot,
    oldest_as_of: STEP_A.as_of,
    retention_months: CHANGES_RETENTION_MONTHS,
  },
  pagination: { total: 4, limit: 50, offset: 0, returned: 4 },
  filters: { kind: null, npi: ['1003633876', '1114636115', '1245319599'], vertical: null },
  data: [
    {
      kind: 'oig_excluded',
      npi: '1245319599',
      entity_id: null,
      vertical: null,
      field: null,
      old: null,
      new: { type: '1128a1', date: '2026-10-20' },
      note: OIG_EXCLUDED_NOTE,
      ...STEP_IDS,
    },
    {
      kind: 'npi_deactivated',
      npi: '1114636115',
      entity_id: null,
      vertical: null,
      field: null,
      old: null,
      new: { deactivation_date: '2026-10-14' },
      ...STEP_IDS,
    },
    {
      kind: 'oig_candidate_added',
      npi: '1003633876',
      entity_id: null,
      vertical: null,
      field: null,
      old: null,
      new: OIG_CANDIDATE_EXAMPLE,
      note: OIG_CANDIDATE_NOTE,
      ...STEP_IDS,
    },
    {
      kind: 'name_changed',
      npi: '1003633876',
      entity_id: null,
      vertical: null,
      field: 'name',
      old: 'KYLEE FAWCETT',
      new: 'KYLEE FAWCETT-LANE',
      ...STEP_IDS,
    },
  ],
};

const changesOperation = {
  operationId: 'listChanges',
  summary: 'What changed since a snapshot or a date (new exclusions, deactivations, signal changes)',
  description: CHANGES_RULES,
  tags: ['changes'],
  parameters: [
    {
      name: 'since',
      in: 'query',
      required: true,
      description:
        'A snapshot id (`snapshot_id` of an earlier answer: the changes after it) or an ISO 8601 date or date-time ' +
        'in UTC (the changes published after it).',
      schema: { type: 'string', maxLength: 64 },
      example: STEP_A.snapshot,
    },
    {
      name: 'kind',
      in: 'query',
      required: false,
      description: 'Only these kinds: repeat the parameter or list them comma-separated.',
      schema: { type: 'string' },
      example: 'oig_excluded,npi_deactivated',
    },
    {
      name: 'npi',
      in: 'query',
      required: false,
      description: `A roster: up to ${NPI_BATCH_MAX} comma-separated NPIs (each a valid NPI, else 400 \`invalid_npi\`).`,
      schema: { type: 'string' },
      example: '1003633876,1114636115',
    },
    {
      name: 'vertical',
      in: 'query',
      required: false,
      description: 'Only the vertical changes of this vertical (no identity changes).',
      schema: { type: 'string', enum: [...VERTICALS] },
    },
    ...pagingParameters,
    {
      name: 'format',
      in: 'query',
      required: false,
      description: '`csv`: an RFC 4180 attachment, `old` and `new` as JSON text (`locked` for a locked value).',
      schema: { type: 'string', enum: ['json', 'csv'], default: 'json' },
    },
    { $ref: '#/components/parameters/key' },
    { $ref: '#/components/parameters/If-None-Match' },
  ],
  responses: keyedResponses({
    description: 'The changes, oldest step first.',
    content: {
      'application/json': { schema: ref('ChangeListResponse'), example: EXAMPLE },
      'text/csv': {
        schema: { type: 'string' },
        example:
          'kind,npi,entity_id,vertical,field,old,new,note,from_snapshot,from_as_of,to_snapshot,to_as_of\r\n' +
          `npi_deactivated,1114636115,,,,,"{""deactivation_date"":""2026-10-14""}",,${STEP_A.snapshot},` +
          `${STEP_A.as_of},${STEP_B.snapshot},${STEP_B.as_of}\r\n`,
      },
    },
  }),
};

/** The change feed's operations, by operationId (openapi.ts puts them on the route table's paths). */
export const changesOperations = {
  listChanges: changesOperation,
} as const;

const SNAPSHOT = { type: 'string', pattern: '^[0-9]{8}T[0-9]{6}Z-[a-z0-9]{6,16}$' } as const;
const TIME = { type: 'string', format: 'date-time' } as const;
/** An old or new value: a JSON value (string, object) or null; a LockedField for a paid field on a free key. */
const CHANGE_VALUE = {
  description:
    'The value before (`old`) or after (`new`): a string for name, primary taxonomy, state and signal statuses; an ' +
    'object for OIG (`type`, `date`; `oig_removed`\u2019s `new`: `reason` and, when reinstated, `date`), an ' +
    'OigCandidate for the candidate kinds, deactivation (`deactivation_date`), enumeration (`name`, `primary_taxonomy`, ' +
    '`state`), verified-set entries (`name`, `state`) and price (`range`, `monthly_min`, `monthly_max`); null when ' +
    'there is none; a LockedField for a paid field on a free key.',
  type: ['string', 'object', 'null'],
  additionalProperties: true,
} as const;

/** The change feed's schemas. */
export const changesSchemas = {
  ChangeEntry: {
    type: 'object',
    additionalProperties: false,
    required: [...CHANGE_WHAT_MEMBERS, ...CHANGE_STEP_MEMBERS],
    properties: {
      kind: { type: 'string', enum: [...CHANGE_KINDS] },
      npi: nullable('string', { pattern: NPI_PATTERN }),
      entity_id: nullable('string', { description: 'Vertical changes only.' }),
      vertical: { type: ['string', 'null'], enum: [...VERTICALS, null] },
      field: { type: ['string', 'null'], enum: [...CHANGE_FIELDS, null] },
      old: CHANGE_VALUE,
      new: CHANGE_VALUE,
      note: {
        type: 'string',
        description: 'On OIG changes: what an NPI-only match, or a possible match by name, can and cannot say.',
      },
      from_snapshot: SNAPSHOT,
      from_as_of: TIME,
      to_snapshot: SNAPSHOT,
      to_as_of: TIME,
    },
  },
  ChangeSpan: {
    type: 'object',
    additionalProperties: false,
    description:
      'What the answer covers: every change after `from_*` up to `to_*` (the current snapshot). `oldest_*` is the ' +
      'earliest `since` answered.',
    required: [
      'since',
      'from_snapshot',
      'from_as_of',
      'to_snapshot',
      'to_as_of',
      'oldest_snapshot',
      'oldest_as_of',
      'retention_months',
    ],
    properties: {
      since: { type: 'string', description: 'As asked.' },
      from_snapshot: SNAPSHOT,
      from_as_of: TIME,
      to_snapshot: SNAPSHOT,
      to_as_of: TIME,
      oldest_snapshot: SNAPSHOT,
      oldest_as_of: TIME,
      retention_months: { const: CHANGES_RETENTION_MONTHS },
    },
  },
  ChangeFilters: {
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'npi', 'vertical'],
    properties: {
      kind: { type: ['array', 'null'], items: { type: 'string', enum: [...CHANGE_KINDS] } },
      npi: { type: ['array', 'null'], items: { type: 'string', pattern: NPI_PATTERN } },
      vertical: { type: ['string', 'null'], enum: [...VERTICALS, null] },
    },
  },
  ChangeListResponse: {
    type: 'object',
    additionalProperties: false,
    required: ['tier', 'plan', 'snapshot_id', 'as_of', 'span', 'pagination', 'filters', 'data'],
    properties: {
      tier: { type: 'string', enum: ['free', 'paid'] },
      plan: { type: 'string', enum: ['free', 'builder', 'developer', 'enterprise'] },
      usage: ref('Usage'),
      notice: { type: 'string' },
      ...dataVersionProperties,
      span: ref('ChangeSpan'),
      pagination: ref('Pagination'),
      filters: ref('ChangeFilters'),
      data: { type: 'array', maxItems: PAGE_LIMIT.max, items: ref('ChangeEntry') },
    },
  },
} as const;
