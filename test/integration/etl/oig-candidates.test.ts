/**
 * The OIG possible matches and the LEIE supplements on the real samples: the matcher over the real NPPES samples
 * and LEIE slices (staged by the ETL's own readers), a record respelled from a real LEIE row, and a full build with
 * a supplement made from the real header and rows of leie.csv that reinstates one exclusion.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { buildSnapshot } from '../../../etl/build';
import { DEMO_LEIE_AS_OF, demoBuildInputs } from '../../../etl/cli/demo-inputs';
import { parseCsvRows } from '../../../etl/csv/read';
import { REJECTS_TABLE } from '../../../etl/csv/rejects';
import { createLeieStage, stageLeieFile } from '../../../etl/sources/leie';
import { applyLeieReinstatements } from '../../../etl/sources/leie-reinstatements';
import { stageNppesFile } from '../../../etl/sources/nppes';
import { createNppesStage } from '../../../etl/sources/nppes-staged';
import { buildOigCandidates } from '../../../etl/sources/oig-candidates';
import { createTable, queryRows } from '../../../platform/duckdb/statements';
import { FolderObjectStore } from '../../../platform/folder-store';
import { checkDb, currentOf, REPO_ROOT, SOURCE_DATA, tempDir } from './helpers';

const LEIE_FILES = [path.join(SOURCE_DATA, 'leie.csv'), path.join(SOURCE_DATA, 'leie_head.csv')];

let dir: string;
beforeAll(async () => {
  dir = await tempDir('pf-oig-');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Stages the LEIE slices and `nppes` with the ETL's readers in a fresh DuckDB, then runs the matcher. */
async function stageAndMatch(nppes: string[]) {
  const instance = await DuckDBInstance.create(':memory:', { preserve_insertion_order: 'true', threads: '1' });
  const connection: DuckDBConnection = await instance.connect();
  try {
    await createTable(connection, 'rejects', REJECTS_TABLE);
    await createLeieStage(connection);
    for (const [i, file] of LEIE_FILES.entries())
      await stageLeieFile(connection, file, i, path.basename(file), { workDir: dir, snapshotDate: '2026-10-15' });
    await applyLeieReinstatements(connection);
    await createNppesStage(connection);
    let records = 0;
    for (const [i, file] of nppes.entries()) records += (await stageNppesFile(connection, file, i, file, dir)).read;
    const counts = await buildOigCandidates(connection);
    const rows = await queryRows(connection, 'SELECT npi, candidates FROM oig_candidate ORDER BY npi');
    return { counts, records, rows };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const quoteCsv = (fields: readonly string[]) => fields.map((f) => `"${f.replace(/"/g, '""')}"`).join(',');

describe('OIG possible matches on the real samples', () => {
  it.each([['nppes_sample.csv'], ['nppes_sample_alt_pandas_mangled.csv']])(
    'finds no candidate in %s against leie.csv + leie_head.csv (0 per 1,000 records)',
    async (name) => {
      const { counts, records, rows } = await stageAndMatch([path.join(SOURCE_DATA, name)]);
      // The LEIE rows looked for: no NPI, or an NPI the sample lacks (all 352 here: the slices' NPIs are not in it).
      expect(counts.leie_rows).toBe(352);
      expect(records).toBeGreaterThan(900);
      // The samples share last names with LEIE (KIM) but no full first name: no candidate.
      expect(rows).toEqual([]);
      expect((1000 * counts.candidates) / records).toBe(0);
    },
  );

  it('finds a real LEIE row in an NPPES record respelled from it, through the real staging of both', async () => {
    const [header = [], ...records] = parseCsvRows(await readFile(path.join(SOURCE_DATA, 'nppes_sample.csv'), 'utf8'));
    const [leieHeader = [], ...leieRows] = parseCsvRows(await readFile(LEIE_FILES[0] as string, 'utf8'));
    const at = (h: string[], column: string) => h.indexOf(column);
    const leie = leieRows.find((r) => r[at(leieHeader, 'NPI')] === '0000000000' && r[at(leieHeader, 'MIDNAME')]);
    const record = records.find(
      (r) => r[at(header, 'Entity Type Code')] === '1' && !r[at(header, 'NPI Deactivation Date')],
    );
    if (!leie || !record) throw new Error('no such rows in the samples');
    const L = (column: string) => leie[at(leieHeader, column)] as string;
    const set = (column: string, value: string) => {
      record[at(header, column)] = value;
    };
    // Mixed case and punctuation, the middle initial only, the LEIE address as the mailing address.
    set('Provider Last Name (Legal Name)', `${L('LASTNAME').toLowerCase()}, Jr.`);
    set('Provider First Name', L('FIRSTNAME'));
    set('Provider Middle Name', `${L('MIDNAME').slice(0, 1)}.`);
    set('Provider Business Practice Location Address City Name', 'ELSEWHERE');
    set('Provider Business Mailing Address City Name', L('CITY'));
    set('Provider Business Mailing Address State Name', L('STATE'));
    set('Provider Business Mailing Address Postal Code', `${L('ZIP')}1234`);
    const file = path.join(dir, 'nppes_respelled.csv');
    await writeFile(file, `${quoteCsv(header)}\n${quoteCsv(record)}\n`);
    const { rows } = await stageAndMatch([file]);
    expect(rows).toHaveLength(1);
    const [candidate] = JSON.parse(String(rows[0]?.candidates));
    expect(candidate).toMatchObject({
      strength: 'strong',
      evidence: { last_name: 'exact', first_name: 'exact', middle_name: 'initial', city: 'mailing', zip: 'mailing' },
      leie: { entity: 'individual', last_name: L('LASTNAME'), first_name: L('FIRSTNAME'), npi: null, zip: L('ZIP') },
    });
  });
});

describe('LEIE supplements in a build', () => {
  it('reinstates an earlier exclusion, counts the unmatched one, rejects a REINDATE before EXCLDATE', async () => {
    const text = await readFile(LEIE_FILES[0] as string, 'utf8');
    const [header = [], ...rows] = parseCsvRows(text);
    const col = (name: string) => header.indexOf(name);
    const npis = rows.map((r) => r[col('NPI')]);
    // An NPI listed once in leie.csv and not in leie_head.csv: its only exclusion is reinstated.
    const headText = await readFile(LEIE_FILES[1] as string, 'utf8');
    const row = rows.find(
      (r) =>
        r[col('NPI')] !== '0000000000' &&
        npis.filter((n) => n === r[col('NPI')]).length === 1 &&
        !headText.includes(r[col('NPI')] as string),
    ) as string[];
    const reinstated = row.map((v, i) => (i === col('REINDATE') ? '20261101' : v));
    const unmatched =
      rows[1]?.map((v, i) => (i === col('REINDATE') ? '20261101' : i === col('DOB') ? '19000101' : v)) ?? [];
    const early = rows[2]?.map((v, i) => (i === col('REINDATE') ? '19000101' : v)) ?? [];
    const supplement = path.join(dir, '2610REIN.csv');
    await writeFile(supplement, [header.join(','), ...[reinstated, unmatched, early].map(quoteCsv)].join('\n'));
    const store = new FolderObjectStore(path.join(dir, 'store'));
    await mkdir(path.join(dir, 'work'), { recursive: true });
    const summary = await buildSnapshot({
      store,
      inputs: {
        ...demoBuildInputs(REPO_ROOT),
        leie: [...LEIE_FILES, supplement],
        leieAsOf: [DEMO_LEIE_AS_OF, DEMO_LEIE_AS_OF, '2026-11-01T00:00:00Z'],
      },
      snapshotTime: new Date('2026-11-21T00:00:00Z'),
      workDir: path.join(dir, 'work'),
      maxRejectShare: 0.5,
    });
    const leieSources = summary.sources.filter((s) => s.source === 'leie');
    expect(leieSources[2]).toMatchObject({
      read: 3,
      accepted: 2,
      rejected: 1,
      reinstatements: 2,
      reinstatements_unmatched: 1,
    });
    expect(leieSources[0]).toMatchObject({ reinstatements: 0, reinstatements_unmatched: 0 });
    expect(summary.oig_candidates).toMatchObject({ npis: expect.any(Number), leie_rows: expect.any(Number) });

    const { manifest } = await currentOf(store);
    expect(manifest.leie_files).toEqual([
      {
        file: 'leie.csv',
        kind: 'list',
        release: DEMO_LEIE_AS_OF,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        rows: 260,
      },
      { file: 'leie_head.csv', kind: 'supplement', release: DEMO_LEIE_AS_OF, sha256: expect.any(String), rows: 92 },
      {
        file: '2610REIN.csv',
        kind: 'supplement',
        release: '2026-11-01T00:00:00Z',
        sha256: expect.any(String),
        rows: 3,
      },
    ]);
    const db = await checkDb();
    try {
      const screen = path.join(store.location, 'snapshots', summary.snapshot_id, 'screens', 'oig-leie.parquet');
      const matches = await db.rows(`SELECT npi, oig_checked_at FROM read_parquet('${screen}')`);
      expect(matches.map((m) => m.npi)).not.toContain(row[col('NPI')]);
      expect(matches.length).toBeGreaterThan(0);
      expect(new Set(matches.map((m) => m.oig_checked_at))).toEqual(new Set(['2026-11-01T00:00:00Z']));
    } finally {
      db.close();
    }
  });

  it('refuses as-ofs that decrease in file order, naming the file', async () => {
    await expect(
      buildSnapshot({
        store: new FolderObjectStore(path.join(dir, 'refused')),
        inputs: { ...demoBuildInputs(REPO_ROOT), leieAsOf: [DEMO_LEIE_AS_OF, '2026-09-01T00:00:00Z'] },
      }),
    ).rejects.toThrow(/LEIE as-ofs must not decrease in file order: leie_head\.csv/);
  });
});
