/**
 * The vertical curation feed: two CSV files (RFC 4180, UTF-8, header row, any column order) that the data team
 * hands to the ETL for a vertical.
 *
 * - `providers.csv`: one row per provider record.
 * - `observations.csv`: any number of signal observations per provider; for each (entity_id, signal) the row
 *   with the latest `observed_at` wins (ties: the later line in the file).
 *
 * The ETL turns empty cells into null and the numeric columns into numbers, then validates every row against
 * the JSON Schemas below (draft 2020-12). A row that fails goes to the snapshot's rejects file with its line
 * number and the schema's reason; a file without a required column fails the run.
 *
 * Cross-row rules, applied after the schema:
 * - `entity_id` and `slug` are unique across the whole feed (a later duplicate is rejected);
 * - an observation for an unknown `entity_id` is rejected;
 * - a record with `publish_tier = verified` needs at least one sourced signal: a curated observation whose
 *   status is `verified`, `clear`, `flagged` or `reported` and whose `source` is set. Otherwise the record is
 *   rejected (it is not silently demoted).
 * - `npi`, when set, must pass the NPI check digit (Luhn over `80840` + the first nine digits).
 */
import { BUSINESS_MODES, PUBLISH_TIERS, SIGNAL_STATUSES, SIGNALS, VERTICALS } from './constants';

export type FeedCellType = 'string' | 'number' | 'integer';

export const FEED_PROVIDER_COLUMNS = {
  entity_id: 'string',
  slug: 'string',
  vertical: 'string',
  name: 'string',
  legal_name: 'string',
  city: 'string',
  state: 'string',
  business_mode: 'string',
  latitude: 'number',
  longitude: 'number',
  npi: 'string',
  publish_tier: 'string',
} as const satisfies Record<string, FeedCellType>;
export const FEED_PROVIDER_REQUIRED_COLUMNS = [
  'entity_id',
  'slug',
  'vertical',
  'name',
  'business_mode',
  'publish_tier',
] as const;

export const FEED_OBSERVATION_COLUMNS = {
  entity_id: 'string',
  signal: 'string',
  status: 'string',
  source: 'string',
  source_url: 'string',
  verified_at: 'string',
  observed_at: 'string',
  states_count: 'integer',
  price_range: 'string',
  price_monthly_min: 'number',
  price_monthly_max: 'number',
} as const satisfies Record<string, FeedCellType>;
export const FEED_OBSERVATION_REQUIRED_COLUMNS = ['entity_id', 'signal', 'status', 'observed_at'] as const;

/**
 * Length bounds of the feed's text (characters), shared by the schemas below and by the ETL's bounds of the
 * screening lists whose values end up in the same vertical columns (etl/sources/field-bounds.ts).
 * - `text`: a name, a legal name or a source's name;
 * - `url`: 2,048 characters, the longest URL the sitemaps protocol allows (https://www.sitemaps.org/protocol.html)
 *   and a common client limit;
 * - `dateTime`: an ISO date-time with nanoseconds and an offset, `2026-03-01T10:00:00.123456789+05:30`;
 * - `entityId`: the `entity_id` pattern's 64 characters;
 * - `numberText`: the text of a numeric cell (a schema bounds a number's value, not its text); a double prints in at
 *   most 24 characters (`Number.prototype.toString`), so 32 leaves room for zeros a spreadsheet adds.
 */
export const FEED_MAX_LENGTH = { text: 300, url: 2048, dateTime: 35, entityId: 64, numberText: 32 } as const;

const nullableString = (extra: Record<string, unknown> = {}) => ({
  anyOf: [{ type: 'string', minLength: 1, ...extra }, { type: 'null' }],
});
const nullableNumber = (extra: Record<string, unknown> = {}) => ({
  anyOf: [{ type: 'number', ...extra }, { type: 'null' }],
});
const ISO_DATE_TIME = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:[0-9]{2})$';

export const FEED_PROVIDER_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://providerfacts.example.com/schemas/feed-provider.json',
  title: 'Curation feed: provider row',
  type: 'object',
  additionalProperties: false,
  required: [...FEED_PROVIDER_REQUIRED_COLUMNS],
  properties: {
    entity_id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{1,63}$', maxLength: FEED_MAX_LENGTH.entityId },
    slug: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 120 },
    vertical: { enum: [...VERTICALS] },
    name: { type: 'string', minLength: 1, maxLength: FEED_MAX_LENGTH.text },
    legal_name: nullableString({ maxLength: FEED_MAX_LENGTH.text }),
    city: nullableString({ maxLength: 100 }),
    state: { anyOf: [{ type: 'string', pattern: '^[A-Za-z]{2}$', maxLength: 2 }, { type: 'null' }] },
    business_mode: { enum: [...BUSINESS_MODES] },
    latitude: nullableNumber({ minimum: -90, maximum: 90 }),
    longitude: nullableNumber({ minimum: -180, maximum: 180 }),
    npi: { anyOf: [{ type: 'string', pattern: '^[0-9]{10}$', maxLength: 10 }, { type: 'null' }] },
    publish_tier: { enum: [...PUBLISH_TIERS] },
  },
} as const;

export const FEED_OBSERVATION_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://providerfacts.example.com/schemas/feed-observation.json',
  title: 'Curation feed: signal observation row',
  type: 'object',
  additionalProperties: false,
  required: [...FEED_OBSERVATION_REQUIRED_COLUMNS],
  properties: {
    entity_id: { type: 'string', minLength: 1, maxLength: FEED_MAX_LENGTH.entityId },
    signal: { enum: [...SIGNALS] },
    status: { enum: [...SIGNAL_STATUSES] },
    source: nullableString({ maxLength: FEED_MAX_LENGTH.text }),
    source_url: {
      anyOf: [{ type: 'string', pattern: '^https?://[^\\s]+$', maxLength: FEED_MAX_LENGTH.url }, { type: 'null' }],
    },
    verified_at: {
      anyOf: [{ type: 'string', pattern: ISO_DATE_TIME, maxLength: FEED_MAX_LENGTH.dateTime }, { type: 'null' }],
    },
    observed_at: { type: 'string', pattern: ISO_DATE_TIME, maxLength: FEED_MAX_LENGTH.dateTime },
    states_count: { anyOf: [{ type: 'integer', minimum: 0, maximum: 60 }, { type: 'null' }] },
    price_range: nullableString({ maxLength: 100 }),
    price_monthly_min: nullableNumber({ minimum: 0 }),
    price_monthly_max: nullableNumber({ minimum: 0 }),
  },
  allOf: [
    {
      description: 'states_count belongs to license observations only.',
      if: { properties: { signal: { not: { const: 'license' } } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword
      then: { properties: { states_count: { type: 'null' } } },
    },
    {
      description: 'price fields belong to price observations only.',
      if: { properties: { signal: { not: { const: 'price' } } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword
      then: {
        properties: {
          price_range: { type: 'null' },
          price_monthly_min: { type: 'null' },
          price_monthly_max: { type: 'null' },
        },
      },
    },
  ],
} as const;

export type FeedProviderRow = {
  entity_id: string;
  slug: string;
  vertical: (typeof VERTICALS)[number];
  name: string;
  legal_name?: string | null;
  city?: string | null;
  state?: string | null;
  business_mode: (typeof BUSINESS_MODES)[number];
  latitude?: number | null;
  longitude?: number | null;
  npi?: string | null;
  publish_tier: (typeof PUBLISH_TIERS)[number];
};

export type FeedObservationRow = {
  entity_id: string;
  signal: (typeof SIGNALS)[number];
  status: (typeof SIGNAL_STATUSES)[number];
  source?: string | null;
  source_url?: string | null;
  verified_at?: string | null;
  observed_at: string;
  states_count?: number | null;
  price_range?: string | null;
  price_monthly_min?: number | null;
  price_monthly_max?: number | null;
};
