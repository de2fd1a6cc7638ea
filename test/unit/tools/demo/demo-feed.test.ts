import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { BUSINESS_MODES, SIGNAL_STATUSES } from '../../../../data-contracts/constants';
import {
  FEED_OBSERVATION_COLUMNS,
  FEED_OBSERVATION_SCHEMA,
  FEED_PROVIDER_COLUMNS,
  FEED_PROVIDER_SCHEMA,
  type FeedCellType,
  type FeedObservationRow,
  type FeedProviderRow,
} from '../../../../data-contracts/feed';
import { isValidNpi, makeNpi } from '../../../../data-contracts/npi-check';
import { parseCsvRows as parseCsv } from '../../../../etl/csv/read';
import { formatCsv } from '../../../../tools/demo/csv-write';
import { OBSERVATION_HEADER, PROVIDER_HEADER } from '../../../../tools/demo/feed-csv';
import { isSourcedObservation, latestBySignal } from '../../../../tools/demo/feed-observations';
import {
  DEMO_FEED_DIR,
  type DemoFeedReport,
  HISTORY_CASES,
  writeDemoFeed,
} from '../../../../tools/demo/generate-demo-feed';
import { DEFAULT_SOURCE_DIR } from '../../../../tools/demo/source-facts';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures');

/** Reads a feed CSV the way the contract describes: empty cell -> null, numeric columns -> numbers. */
function readFeedFile(file: string, columns: Record<string, FeedCellType>): Record<string, unknown>[] {
  const [header, ...records] = parseCsv(readFileSync(file, 'utf8'));
  if (header === undefined) throw new Error(`${file} is empty`);
  return records.map((cells) => {
    const row: Record<string, unknown> = {};
    header.forEach((name, i) => {
      const cell = cells[i] ?? '';
      row[name] = cell === '' ? null : columns[name] === 'string' ? cell : Number(cell);
    });
    return row;
  });
}

function createAjv() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv;
}

function readNpiColumn(file: string): Set<string> {
  const [header, ...records] = parseCsv(readFileSync(join(DEFAULT_SOURCE_DIR, file), 'utf8'));
  const at = header?.indexOf('NPI') ?? -1;
  return new Set(records.map((r) => r[at] ?? '').filter((npi) => npi !== '' && npi !== '0000000000'));
}

/** The FDA company names of both fixture files, by column. */
function readFdaCompanies(): Set<string> {
  const names = new Set<string>();
  for (const [file, column] of [
    ['fda_warning_letters_scraped_2026.csv', 'company'],
    ['fda_warning_letters.csv', 'Company Name'],
  ] as const) {
    const [header, ...records] = parseCsv(readFileSync(join(DEFAULT_SOURCE_DIR, file), 'utf8'));
    const at = header?.indexOf(column) ?? -1;
    for (const r of records) names.add((r[at] ?? '').trim());
  }
  return names;
}

describe('demo curation feed (tools/demo/glp1)', () => {
  let tmp: string;
  let report: DemoFeedReport;
  let providers: FeedProviderRow[];
  let observations: FeedObservationRow[];

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'demo-feed-'));
    report = writeDemoFeed(tmp).report;
    providers = readFeedFile(join(DEMO_FEED_DIR, 'providers.csv'), FEED_PROVIDER_COLUMNS) as FeedProviderRow[];
    observations = readFeedFile(
      join(DEMO_FEED_DIR, 'observations.csv'),
      FEED_OBSERVATION_COLUMNS,
    ) as FeedObservationRow[];
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('regenerates byte-identical to the committed files', () => {
    for (const file of ['providers.csv', 'observations.csv']) {
      expect(readFileSync(join(tmp, file)).equals(readFileSync(join(DEMO_FEED_DIR, file)))).toBe(true);
    }
  });

  it('writes the contract columns in order, with a header row', () => {
    const firstLine = (file: string) => readFileSync(join(DEMO_FEED_DIR, file), 'utf8').split('\r\n')[0];
    expect(firstLine('providers.csv')).toBe(Object.keys(FEED_PROVIDER_COLUMNS).join(','));
    expect(firstLine('observations.csv')).toBe(Object.keys(FEED_OBSERVATION_COLUMNS).join(','));
    expect(PROVIDER_HEADER).toEqual(Object.keys(FEED_PROVIDER_COLUMNS));
    expect(OBSERVATION_HEADER).toEqual(Object.keys(FEED_OBSERVATION_COLUMNS));
  });

  it('has >= 320 tracked and >= 170 verified providers in >= 20 states, every business mode', () => {
    expect(providers.length).toBeGreaterThanOrEqual(320);
    expect(providers.filter((p) => p.publish_tier === 'verified').length).toBeGreaterThanOrEqual(170);
    expect(new Set(providers.map((p) => p.state).filter((s) => s !== null)).size).toBeGreaterThanOrEqual(20);
    expect(new Set(providers.map((p) => p.business_mode))).toEqual(new Set(BUSINESS_MODES));
    // Only online providers may lack a location, and some of them do.
    const placeless = providers.filter((p) => p.state === null);
    expect(placeless.length).toBeGreaterThan(0);
    expect(placeless.every((p) => p.business_mode === 'online' && p.city === null && p.latitude === null)).toBe(true);
  });

  it('has every signal status among the observations', () => {
    expect(new Set(observations.map((o) => o.status))).toEqual(new Set(SIGNAL_STATUSES));
  });

  it('validates every row against the feed JSON Schemas (draft 2020-12)', () => {
    const ajv = createAjv();
    const validateProvider = ajv.compile(FEED_PROVIDER_SCHEMA);
    const validateObservation = ajv.compile(FEED_OBSERVATION_SCHEMA);
    const bad: string[] = [];
    // Validate copies: the validators are type guards and would narrow the typed rows.
    for (const p of providers) {
      if (!validateProvider({ ...p })) bad.push(`${p.entity_id}: ${ajv.errorsText(validateProvider.errors)}`);
    }
    for (const o of observations) {
      if (!validateObservation({ ...o })) {
        bad.push(`${o.entity_id}/${o.signal}: ${ajv.errorsText(validateObservation.errors)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('keeps entity ids and slugs unique and every observation on a known provider', () => {
    expect(new Set(providers.map((p) => p.entity_id)).size).toBe(providers.length);
    expect(new Set(providers.map((p) => p.slug)).size).toBe(providers.length);
    const ids = new Set(providers.map((p) => p.entity_id));
    expect(observations.filter((o) => !ids.has(o.entity_id))).toEqual([]);
    expect(providers.every((p) => /^glp1-\d{6}$/.test(p.entity_id) && p.vertical === 'glp1')).toBe(true);
  });

  it('gives every verified provider a sourced signal among its latest observations', () => {
    const byEntity = new Map<string, FeedObservationRow[]>();
    for (const o of observations) byEntity.set(o.entity_id, [...(byEntity.get(o.entity_id) ?? []), o]);
    const missing = providers
      .filter((p) => p.publish_tier === 'verified')
      .filter((p) => ![...latestBySignal(byEntity.get(p.entity_id) ?? []).values()].some(isSourcedObservation))
      .map((p) => p.entity_id);
    expect(missing).toEqual([]);
  });

  it('gives every NPI a valid check digit, and leaves some providers without one', () => {
    const npis = providers.map((p) => p.npi).filter((n): n is string => n !== null && n !== undefined);
    expect(npis.filter((n) => !isValidNpi(n))).toEqual([]);
    expect(npis.length).toBeLessThan(providers.length);
    expect(new Set(npis).size).toBe(npis.length);
  });

  it('carries real LEIE NPIs on verified and internal-only providers', () => {
    const leie = new Set([...readNpiColumn('leie.csv'), ...readNpiColumn('leie_head.csv')]);
    const carriers = providers.filter((p) => p.npi !== null && p.npi !== undefined && leie.has(p.npi));
    expect(carriers.length).toBeGreaterThanOrEqual(5);
    expect(new Set(carriers.map((p) => p.publish_tier))).toEqual(new Set(['verified', 'internal_only']));
    expect(carriers.map((p) => p.entity_id).sort()).toEqual(report.leieProviders.map((l) => l.entityId).sort());
  });

  it('carries real active NPPES NPIs on some providers', () => {
    const nppes = readNpiColumn('nppes_sample.csv');
    expect(
      providers.filter((p) => p.npi !== null && p.npi !== undefined && nppes.has(p.npi)).length,
    ).toBeGreaterThanOrEqual(5);
  });

  it('gives >= 6 providers, verified and internal-only, the legal name of a GLP-1-relevant FDA warning-letter company', () => {
    const companies = readFdaCompanies();
    const matching = providers.filter((p) => typeof p.legal_name === 'string' && companies.has(p.legal_name));
    expect(matching.length).toBeGreaterThanOrEqual(6);
    expect(new Set(matching.map((p) => p.publish_tier))).toEqual(new Set(['verified', 'internal_only']));
    expect(report.fdaProviders.every((f) => /compounding|glp-1|semaglutide|tirzepatide/i.test(f.subject))).toBe(true);
    // A curated `clear` would override the ETL's automated flag, so none of them carries one.
    const ids = new Set(matching.map((p) => p.entity_id));
    expect(observations.filter((o) => ids.has(o.entity_id) && o.signal === 'fda' && o.status !== 'flagged')).toEqual(
      [],
    );
  });

  it('has several observations of one signal for the history cases, the newest being the documented one', () => {
    for (const h of HISTORY_CASES) {
      const rows = observations.filter((o) => o.entity_id === h.entityId && o.signal === h.signal);
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(latestBySignal(rows).get(h.signal)?.status).toBe(h.newer);
      if (h.order === 'newer-first')
        expect((rows[0] as FeedObservationRow).observed_at > (rows[1] as FeedObservationRow).observed_at).toBe(true);
    }
  });

  it('dates every observation in 2025-2026 (a curated FDA flag is checked as of its letter date)', () => {
    expect(observations.every((o) => /^202[56]-/.test(o.observed_at))).toBe(true);
    const checked = observations.filter((o) => !(o.signal === 'fda' && o.status === 'flagged'));
    expect(checked.filter((o) => typeof o.verified_at === 'string' && !/^202[56]-/.test(o.verified_at))).toEqual([]);
  });
});

describe('CSV writer', () => {
  it('quotes only the fields that need it and doubles inner quotes', () => {
    expect(formatCsv(['a', 'b', 'c'], [['x,y', 'say "hi"', 'plain']])).toBe('a,b,c\r\n"x,y","say ""hi""",plain\r\n');
    expect(parseCsv(formatCsv(['a'], [['line\nbreak'], ['']]))).toEqual([['a'], ['line\nbreak'], ['']]);
  });
});

describe('NPI check digit', () => {
  it('matches the CMS example 123456789 -> 1234567893', () => {
    expect(makeNpi('123456789')).toBe('1234567893');
    expect(isValidNpi('1234567893')).toBe(true);
    expect(isValidNpi('1234567890')).toBe(false);
  });
});

describe('bad-feed fixtures', () => {
  const ajv = createAjv();
  const validateProvider = ajv.compile(FEED_PROVIDER_SCHEMA);
  const validateObservation = ajv.compile(FEED_OBSERVATION_SCHEMA);

  it('fails the schema exactly on the lines its README lists as schema failures', () => {
    const providers = readFeedFile(join(FIXTURES, 'feed-bad', 'providers.csv'), FEED_PROVIDER_COLUMNS);
    const observations = readFeedFile(join(FIXTURES, 'feed-bad', 'observations.csv'), FEED_OBSERVATION_COLUMNS);
    // +2: one for the header, one because file lines are 1-based.
    expect(providers.flatMap((p, i) => (validateProvider(p) ? [] : [i + 2]))).toEqual([5, 6]);
    expect(observations.flatMap((o, i) => (validateObservation(o) ? [] : [i + 2]))).toEqual([10, 11, 12, 13]);
    expect(providers.flatMap((p, i) => (typeof p.npi === 'string' && !isValidNpi(p.npi) ? [i + 2] : []))).toEqual([7]);
  });

  it('lacks business_mode in feed-missing-column/providers.csv only', () => {
    const header = (file: string) => parseCsv(readFileSync(join(FIXTURES, 'feed-missing-column', file), 'utf8'))[0];
    expect(header('providers.csv')).not.toContain('business_mode');
    expect(header('providers.csv')).toEqual(Object.keys(FEED_PROVIDER_COLUMNS).filter((c) => c !== 'business_mode'));
    expect(header('observations.csv')).toEqual(Object.keys(FEED_OBSERVATION_COLUMNS));
  });
});
