import type { FeedObservationRow, FeedProviderRow } from '../../../../data-contracts/feed';
import { FEED_OBSERVATION_COLUMNS, FEED_PROVIDER_COLUMNS } from '../../../../data-contracts/feed';
import { indexLetters } from '../../../../etl/sources/fda';
import { convertFeedCells } from '../../../../etl/sources/feed';
import { isSourcedSignal, latestObservations } from '../../../../etl/sources/feed-rules';
import { buildVerticalRecord, sampleRank } from '../../../../etl/sources/vertical-record';

describe('feed cell conversion', () => {
  it('turns empty cells into null and numeric columns into numbers', () => {
    const header = Object.keys(FEED_PROVIDER_COLUMNS);
    const cells = convertFeedCells(
      header,
      ['glp1-1', 'a-b', 'glp1', 'A', '', ' Austin ', 'tx', 'physical', '30.25', '-97.5', '', 'verified'],
      FEED_PROVIDER_COLUMNS,
    );
    expect(cells).toEqual({
      entity_id: 'glp1-1',
      slug: 'a-b',
      vertical: 'glp1',
      name: 'A',
      legal_name: null,
      city: 'Austin',
      state: 'tx',
      business_mode: 'physical',
      latitude: 30.25,
      longitude: -97.5,
      npi: null,
      publish_tier: 'verified',
    });
  });

  it('keeps a non-numeric cell of a numeric column as text so the schema rejects it by name', () => {
    const cells = convertFeedCells(['states_count', 'price_monthly_min'], ['two', '1e2'], FEED_OBSERVATION_COLUMNS);
    expect(cells).toEqual({ states_count: 'two', price_monthly_min: 100 });
  });

  it('keeps NPIs as text (leading zeros matter)', () => {
    expect(convertFeedCells(['npi'], ['0123456789'], FEED_PROVIDER_COLUMNS)).toEqual({ npi: '0123456789' });
  });
});

const obs = (
  o: Partial<FeedObservationRow> & Pick<FeedObservationRow, 'signal' | 'observed_at'>,
): FeedObservationRow => ({
  entity_id: 'e1',
  status: 'verified',
  source: 'Board',
  ...o,
});

describe('the latest observation per provider and signal', () => {
  it('wins by observed_at, whatever the line order', () => {
    const rows = [
      obs({ signal: 'license', observed_at: '2026-03-01T00:00:00Z', status: 'verified' }),
      obs({ signal: 'license', observed_at: '2026-01-01T00:00:00Z', status: 'unverified' }),
      obs({ signal: 'fda', observed_at: '2026-02-01T00:00:00+05:00', status: 'clear' }),
      obs({ signal: 'fda', observed_at: '2026-01-31T20:00:00Z', status: 'flagged' }),
    ];
    const latest = latestObservations(rows).get('e1');
    expect(latest?.get('license')?.status).toBe('verified');
    // 2026-02-01T00:00+05:00 is 2026-01-31T19:00Z: the flagged row is later.
    expect(latest?.get('fda')?.status).toBe('flagged');
  });

  it('gives a tie to the later line', () => {
    const rows = [
      obs({ signal: 'price', observed_at: '2026-01-01T00:00:00Z', source: 'first' }),
      obs({ signal: 'price', observed_at: '2026-01-01T00:00:00Z', source: 'second' }),
    ];
    expect(latestObservations(rows).get('e1')?.get('price')?.source).toBe('second');
  });
});

describe('sourced signals', () => {
  it('needs a sourcing status and a source', () => {
    expect(isSourcedSignal({ status: 'verified', source: 'Board' })).toBe(true);
    expect(isSourcedSignal({ status: 'reported', source: 'Self-report' })).toBe(true);
    expect(isSourcedSignal({ status: 'reported', source: null })).toBe(false);
    expect(isSourcedSignal({ status: 'unverified', source: 'Board' })).toBe(false);
    expect(isSourcedSignal({ status: 'not_screened', source: 'Board' })).toBe(false);
  });
});

describe('vertical records', () => {
  const provider: FeedProviderRow = {
    entity_id: 'glp1-1',
    slug: 'acme',
    vertical: 'glp1',
    name: 'Acme Clinic',
    legal_name: 'Acme Health LLC',
    city: 'Austin',
    state: 'tx',
    business_mode: 'physical',
    npi: '1255407482',
    publish_tier: 'verified',
  };
  const letters = indexLetters([
    { normalised: 'ACME HEALTH', company: 'Acme Health', letter_date: '2025-03-01', issuing_office: 'CDER', url: null },
  ]);
  const ctx = {
    snapshotTime: '2026-11-21T00:00:00Z',
    letters,
    newestLetterDate: '2026-03-12',
    oig: new Map([
      ['1255407482', { oig_type: '1128b4', oig_date: '2013-12-19', oig_checked_at: '2026-10-03T00:00:00Z' }],
    ]),
  };

  it('fills unobserved signals as unverified with a zero license state count and no price', () => {
    const r = buildVerticalRecord(provider, undefined, ctx);
    expect(r).toMatchObject({
      state: 'TX',
      certification_status: 'unverified',
      certification_source: null,
      license_status: 'unverified',
      license_states_count: 0,
      price_range: null,
      price_monthly_min: null,
      oig_excluded: true,
      oig_type: '1128b4',
      oig_date: '2013-12-19',
      sample_rank: sampleRank('glp1-1'),
    });
  });

  it('flags the legal name on the FDA list, and lets a curated observation win only when newer than the letter', () => {
    expect(buildVerticalRecord(provider, undefined, ctx).fda_status).toBe('flagged');
    const older = new Map([
      ['fda', obs({ signal: 'fda', status: 'clear', observed_at: '2025-02-01T00:00:00Z' })],
    ] as const);
    expect(buildVerticalRecord(provider, older, ctx).fda_status).toBe('flagged');
    const newer = new Map([
      ['fda', obs({ signal: 'fda', status: 'clear', observed_at: '2025-04-01T00:00:00Z' })],
    ] as const);
    expect(buildVerticalRecord(provider, newer, ctx)).toMatchObject({ fda_status: 'clear', fda_source: 'Board' });
  });

  it('lets a curated observation beat a clear screen only when newer than the newest letter in the lists', () => {
    const clean = { ...provider, legal_name: 'Other Clinic' };
    const older = new Map([
      ['fda', obs({ signal: 'fda', status: 'flagged', observed_at: '2026-01-01T00:00:00Z' })],
    ] as const);
    expect(buildVerticalRecord(clean, older, ctx)).toMatchObject({
      fda_status: 'clear',
      fda_verified_at: '2026-11-21T00:00:00Z',
    });
    const newer = new Map([
      ['fda', obs({ signal: 'fda', status: 'flagged', observed_at: '2026-04-01T00:00:00Z' })],
    ] as const);
    expect(buildVerticalRecord(clean, newer, ctx).fda_status).toBe('flagged');
  });

  it('ranks the sample by a stable hash of entity_id', () => {
    expect(sampleRank('glp1-1')).toBe(sampleRank('glp1-1'));
    expect(sampleRank('glp1-1')).toMatch(/^[0-9a-f]{64}$/);
  });
});
