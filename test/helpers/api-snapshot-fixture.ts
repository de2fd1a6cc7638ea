/**
 * A small snapshot written exactly as data-contracts/layout.ts lays it out (Parquet through DuckDB COPY,
 * manifest last, then the pointer), for API tests that need rows with known edge cases: internal_only
 * records, formula-like text, an OIG match, a state-less online provider, a classification with several codes,
 * a code unknown to NUCC. The integration suites also run on the real ETL output when it is available.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { flattenProvider, PAID_PROVIDER_CSV_COLUMNS, toCsv } from '../../data-contracts/csv';
import {
  classificationKey,
  IDENTITY_TABLE,
  identityIndexKey,
  identityPartitionKey,
  LAYOUT_VERSION,
  type ManifestObject,
  manifestKey,
  POINTER_KEY,
  PUBLIC_KEYS,
  type SnapshotManifest,
  staticKey,
  TAXONOMY_TABLE,
  taxonomyKey,
  VERTICAL_TABLE,
  verticalPartitionKey,
} from '../../data-contracts/layout';
import { type IdentityRow, providerFromRow, type VerticalRow } from '../../data-contracts/rows';
import { createDuckDb, type DuckDb } from '../../platform/duckdb';
import type { IdentityIndexRow } from '../../platform/identity-index/format';
import { IdentityIndexWriter } from '../../platform/identity-index/writer';
import type { ObjectStore } from '../../platform/object-store';
import { sqlIdentifier, sqlStringLiteral } from '../../platform/sql';

const base = (over: Partial<VerticalRow>): VerticalRow => ({
  entity_id: 'x',
  slug: 'x',
  vertical: 'glp1',
  publish_tier: 'verified',
  name: 'x',
  city: null,
  state: null,
  business_mode: 'online',
  latitude: null,
  longitude: null,
  npi: null,
  certification_status: 'verified',
  certification_source: 'Certifying Body',
  certification_source_url: 'https://cert.example.org/x',
  certification_verified_at: '2026-05-01T00:00:00Z',
  license_status: 'verified',
  license_source: 'State Board',
  license_source_url: null,
  license_verified_at: '2026-05-02T00:00:00Z',
  license_states_count: 3,
  fda_status: 'clear',
  fda_source: 'FDA warning letters',
  fda_source_url: 'https://www.fda.gov/x',
  fda_verified_at: '2026-05-03T00:00:00Z',
  price_range: '$199-$299/mo',
  price_monthly_min: 199,
  price_monthly_max: 299,
  price_source: 'Provider website',
  price_verified_at: '2026-05-04T00:00:00Z',
  oig_excluded: false,
  oig_type: null,
  oig_date: null,
  oig_checked_at: '2026-06-01T00:00:00Z',
  sample_rank: 'x',
  ...over,
});

/** The vertical records of the fixture. `internal_only` ones are in the tracked set only. */
export const FIXTURE_VERTICAL_ROWS: VerticalRow[] = [
  base({
    entity_id: 'glp1-0001',
    slug: 'acme-weight-clinic',
    name: 'Acme Weight Clinic',
    city: 'Austin',
    state: 'TX',
    business_mode: 'physical',
    latitude: 30.27,
    longitude: -97.74,
    npi: '1234567893',
    sample_rank: '05',
  }),
  base({
    entity_id: 'glp1-0002',
    slug: 'bluebonnet-health',
    name: 'Bluebonnet Health',
    city: 'AUSTIN',
    state: 'TX',
    business_mode: 'both',
    npi: '1245319599',
    sample_rank: '03',
  }),
  base({
    entity_id: 'glp1-0003',
    slug: 'coastal-glp1',
    name: 'Coastal GLP1',
    city: 'San Diego',
    state: 'CA',
    business_mode: 'physical',
    oig_excluded: true,
    oig_type: '1128a1',
    oig_date: '2019-04-18',
    sample_rank: '01',
  }),
  base({
    entity_id: 'glp1-0004',
    slug: 'online-slim',
    name: '=HYPERLINK("http://evil.example")',
    business_mode: 'online',
    price_range: '-$5 promo',
    sample_rank: '02',
  }),
  base({
    entity_id: 'glp1-0005',
    slug: 'dallas-metabolic',
    name: 'Dallas Metabolic',
    city: 'Dallas',
    state: 'TX',
    business_mode: 'physical',
    certification_status: 'reported',
    sample_rank: '04',
  }),
  base({
    entity_id: 'glp1-0006',
    slug: 'houston-tracked',
    name: 'Houston Tracked Only',
    city: 'Houston',
    state: 'TX',
    business_mode: 'physical',
    publish_tier: 'internal_only',
    certification_status: 'unverified',
    price_monthly_min: 777.77,
    sample_rank: '06',
  }),
  base({
    entity_id: 'glp1-0007',
    slug: 'fresno-tracked',
    name: 'Fresno Tracked Only',
    city: 'Fresno',
    state: 'CA',
    business_mode: 'online',
    publish_tier: 'internal_only',
    sample_rank: '07',
  }),
  base({
    entity_id: 'glp1-0008',
    slug: 'eagle-pharmacy',
    name: 'Eagle Pharmacy',
    city: 'El Paso',
    state: 'TX',
    business_mode: 'both',
    sample_rank: '08',
  }),
];

const taxonomy = (code: string, classification: string, specialization: string | null) => ({
  code,
  grouping: 'Physician Assistants & Advanced Practice Nursing Providers',
  classification,
  specialization,
  display_name: specialization ? `${specialization} ${classification}` : classification,
  section: 'Individual',
  classification_key: classificationKey(classification),
});

/** The taxonomy map of the fixture (a few real NUCC codes). */
export const FIXTURE_TAXONOMY = [
  taxonomy('363L00000X', 'Nurse Practitioner', null),
  taxonomy('363LF0000X', 'Nurse Practitioner', 'Family'),
  taxonomy('363LP0808X', 'Nurse Practitioner', 'Psychiatric/Mental Health'),
  taxonomy('101Y00000X', 'Counselor', null),
  taxonomy('183500000X', 'Pharmacist', null),
];

const identity = (over: Partial<IdentityRow>): IdentityRow => ({
  npi: '0000000000',
  name: 'x',
  taxonomy_code: '363L00000X',
  taxonomy_display: 'Nurse Practitioner',
  classification_key: 'nurse-practitioner',
  is_primary: true,
  class_rep: true,
  city: 'Austin',
  state: 'TX',
  checked_at: '2026-01-15',
  oig_excluded: false,
  oig_type: null,
  oig_date: null,
  oig_checked_at: '2026-06-01T00:00:00Z',
  ...over,
});

/** Identity rows: 1500000003 holds two NP codes (one `class_rep`), 1500000011 is OIG-excluded. */
export const FIXTURE_IDENTITY_ROWS: IdentityRow[] = [
  identity({
    npi: '1500000003',
    name: 'ANA LOPEZ',
    taxonomy_code: '363LF0000X',
    taxonomy_display: 'Family Nurse Practitioner',
    class_rep: true,
  }),
  identity({ npi: '1500000003', name: 'ANA LOPEZ', taxonomy_code: '363L00000X', is_primary: false, class_rep: false }),
  identity({
    npi: '1500000011',
    name: 'BEN CHU',
    city: 'Dallas',
    oig_excluded: true,
    oig_type: '1128b4',
    oig_date: '2020-02-20',
  }),
  identity({
    npi: '1500000029',
    name: 'CARA DIAZ',
    city: 'los angeles',
    state: 'CA',
    taxonomy_code: '363LP0808X',
    taxonomy_display: 'Psychiatric/Mental Health Nurse Practitioner',
  }),
  identity({ npi: '1500000037', name: 'DAN EVANS', city: 'AUSTIN' }),
  identity({ npi: '1500000045', name: '@SUM(1+1)', city: 'Houston' }),
  identity({
    npi: '1600000001',
    name: 'EVE FOX',
    taxonomy_code: '101Y00000X',
    taxonomy_display: 'Counselor',
    classification_key: 'counselor',
    state: 'NY',
    city: 'New York',
  }),
  identity({
    npi: '1700000009',
    name: 'GUS HALE',
    taxonomy_code: '999Z00000X',
    taxonomy_display: null,
    classification_key: 'unmapped',
    state: 'WA',
    city: 'Seattle',
  }),
];

/** A snapshot id of the ETL's form for a time and a tag. */
export function fixtureSnapshotId(time: Date, tag = 'fixture'): string {
  const stamp = time
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return `${stamp}-${tag}`;
}

async function writeParquet(
  db: DuckDb,
  columns: Record<string, string>,
  rows: Record<string, unknown>[],
  file: string,
  orderBy: string,
): Promise<void> {
  const table = `t_${createHash('sha256').update(file).digest('hex').slice(0, 12)}`;
  const names = Object.keys(columns);
  await db.execute(
    `CREATE TABLE ${sqlIdentifier(table)} (${names.map((n) => `${sqlIdentifier(n)} ${columns[n]}`).join(', ')})`,
  );
  try {
    for (const row of rows) {
      await db.query(
        `INSERT INTO ${sqlIdentifier(table)} VALUES (${names.map(() => '?').join(', ')})`,
        names.map((n) => (row[n] ?? null) as string | number | boolean | null),
      );
    }
    await db.execute(
      `COPY (SELECT * FROM ${sqlIdentifier(table)} ORDER BY ${orderBy}) TO ${sqlStringLiteral(file)} (FORMAT parquet)`,
    );
  } finally {
    await db.execute(`DROP TABLE ${sqlIdentifier(table)}`);
  }
}

/** Options of {@link publishFixtureSnapshot}. */
export interface FixtureOptions {
  store: ObjectStore;
  snapshotTime?: Date;
  tag?: string;
  /** Extra or replaced vertical rows (a second snapshot that differs from the first). */
  verticalRows?: VerticalRow[];
}

/** Writes a whole snapshot into `store` and points `current.json` at it. Returns the snapshot id. */
export async function publishFixtureSnapshot(options: FixtureOptions): Promise<string> {
  const time = options.snapshotTime ?? new Date('2026-06-15T00:00:00Z');
  const id = fixtureSnapshotId(time, options.tag);
  const work = await mkdtemp(path.join(tmpdir(), 'pf-fixture-'));
  const db = await createDuckDb({ threads: 1, connections: 1 });
  const objects: ManifestObject[] = [];
  const verticalRows = options.verticalRows ?? FIXTURE_VERTICAL_ROWS;
  const put = async (key: string, file: string, kind: ManifestObject['kind'], extra: Partial<ManifestObject>) => {
    const info = await options.store.upload(key, file, 'application/octet-stream');
    const bytes = await readFile(file);
    objects.push({
      key,
      kind,
      bytes: (await stat(file)).size,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      ...extra,
    });
    return info;
  };
  try {
    let n = 0;
    for (const boundary of ['verified', 'tracked'] as const) {
      const inBoundary = verticalRows.filter((r) => boundary === 'tracked' || r.publish_tier === 'verified');
      const states = [...new Set(inBoundary.map((r) => r.state as string | null))];
      for (const state of states) {
        const rows = inBoundary.filter((r) => r.state === state);
        n += 1;
        const file = path.join(work, `v${n}.parquet`);
        await writeParquet(db, VERTICAL_TABLE, rows, file, 'name, entity_id');
        await put(verticalPartitionKey(id, boundary, 'glp1', state), file, 'vertical', {
          rows: rows.length,
          boundary,
          vertical: 'glp1',
          state,
        });
      }
    }
    for (const key of [...new Set(FIXTURE_IDENTITY_ROWS.map((r) => String(r.classification_key)))]) {
      const rows = FIXTURE_IDENTITY_ROWS.filter((r) => r.classification_key === key);
      const file = path.join(work, `i-${key}.parquet`);
      await writeParquet(db, IDENTITY_TABLE, rows, file, 'taxonomy_code, state, npi');
      await put(identityPartitionKey(id, key), file, 'identity', { rows: rows.length, classification_key: key });
      const writer = new IdentityIndexWriter(key);
      const ordered = [...rows].sort((a, b) =>
        a.taxonomy_code === b.taxonomy_code
          ? String(a.npi).localeCompare(String(b.npi))
          : String(a.taxonomy_code).localeCompare(String(b.taxonomy_code)),
      );
      for (const r of ordered) writer.add(r as unknown as IdentityIndexRow);
      const indexFile = path.join(work, `i-${key}.idx`);
      await writeFile(indexFile, writer.finish());
      await put(identityIndexKey(id, key), indexFile, 'identity_index', {
        rows: rows.length,
        classification_key: key,
      });
    }
    const taxFile = path.join(work, 'taxonomy.parquet');
    await writeParquet(db, TAXONOMY_TABLE, FIXTURE_TAXONOMY, taxFile, 'code');
    await put(taxonomyKey(id), taxFile, 'taxonomy', { rows: FIXTURE_TAXONOMY.length });

    const verified = verticalRows.filter((r) => r.publish_tier === 'verified');
    const sampleRows = [...verified]
      .sort((a, b) => String(a.sample_rank).localeCompare(String(b.sample_rank)))
      .slice(0, 50);
    const sampleData = sampleRows.map((r) => providerFromRow(r, { withPublishTier: false }));
    const createdAt = time.toISOString().replace(/\.\d{3}Z$/, 'Z');
    const statics: Record<string, string> = {
      'coverage.json': JSON.stringify(coverageOf(verticalRows, createdAt, id)),
      'sample.json': JSON.stringify({
        sample: true,
        size: sampleData.length,
        schema: 'paid',
        publish_boundary: 'verified',
        generated_at: createdAt,
        data: sampleData,
      }),
      'sample.csv': toCsv(PAID_PROVIDER_CSV_COLUMNS, sampleData.map(flattenProvider)),
    };
    for (const [name, body] of Object.entries(statics)) {
      const file = path.join(work, name);
      await import('node:fs/promises').then((fs) => fs.writeFile(file, body));
      await put(staticKey(id, name as 'coverage.json'), file, 'static', {});
    }
    await options.store.put(PUBLIC_KEYS.coverage, statics['coverage.json'] as string, 'application/json');
    await options.store.put(PUBLIC_KEYS.sampleJson, statics['sample.json'] as string, 'application/json');
    await options.store.put(PUBLIC_KEYS.sampleCsv, statics['sample.csv'] as string, 'text/csv');

    const manifest: SnapshotManifest = {
      layout_version: LAYOUT_VERSION,
      snapshot_id: id,
      created_at: createdAt,
      sources: {},
      counts: {
        identity: FIXTURE_IDENTITY_ROWS.length,
        tracked: verticalRows.length,
        verified: verified.length,
        taxonomies: FIXTURE_TAXONOMY.length,
        rejects: 0,
      },
      objects,
    };
    await options.store.put(manifestKey(id), JSON.stringify(manifest), 'application/json');
    await options.store.put(
      POINTER_KEY,
      JSON.stringify({ snapshot_id: id, manifest_key: manifestKey(id), published_at: createdAt }),
      'application/json',
    );
    return id;
  } finally {
    db.close();
    await rm(work, { recursive: true, force: true });
  }
}

function coverageOf(rows: VerticalRow[], generatedAt: string, snapshotId: string) {
  const slice = (set: VerticalRow[]) => {
    const states = new Map<string, number>();
    for (const r of set) if (r.state) states.set(String(r.state), (states.get(String(r.state)) ?? 0) + 1);
    return {
      total: set.length,
      states: states.size,
      cities: new Set(set.filter((r) => r.city).map((r) => `${r.state}|${String(r.city).toLowerCase()}`)).size,
      business_mode: {
        online: set.filter((r) => r.business_mode === 'online').length,
        physical: set.filter((r) => r.business_mode === 'physical').length,
        both: set.filter((r) => r.business_mode === 'both').length,
      },
      by_state: [...states].map(([state, count]) => ({ state, count })),
      signals: {
        legitscript_verified: set.filter((r) => r.certification_status === 'verified').length,
        license_on_file: set.filter((r) => r.license_status === 'verified').length,
        fda_screened: set.filter((r) => r.fda_status !== 'not_screened').length,
        npi_present: set.filter((r) => r.npi).length,
        price_published: set.filter((r) => r.price_range).length,
      },
    };
  };
  return {
    tracked: slice(rows),
    verified: slice(rows.filter((r) => r.publish_tier === 'verified')),
    identity_layer: { total: 7, states: 4, taxonomies: 5 },
    verticals_live: 1,
    snapshot_id: snapshotId,
    generated_at: generatedAt,
  };
}
