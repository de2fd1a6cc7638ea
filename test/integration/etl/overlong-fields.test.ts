/**
 * Overlong fields are row rejects in every source and every writer (etl/README.md). Two builds into one store: A
 * from the demo inputs, then B from copies of the same real files in which some rows carry a value over its
 * column's bound (etl/sources/field-bounds.ts): a 1 MiB last name and a 70,000-character organisation name (each
 * past the search index's 64 KB limit), a city, a taxonomy code and a license number one character over, an LEIE
 * exclusion type, a NUCC display name, an FDA company and letter address, a feed name and source URL. One more NPPES
 * row holds every field it reads at exactly its bound, in multi-byte characters, and is published whole.
 *
 * B must publish within the default 1% reject share, list every overlong row in rejects.csv with the field, its
 * length and the bound, and write every other row to every writer: one test per writer below.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type BuildSummary, buildSnapshot } from '../../../etl/build';
import { demoBuildInputs } from '../../../etl/cli/demo-inputs';
import { MAX_RAW_CHARS } from '../../../etl/csv/lines';
import { type CsvRecord, parseCsv } from '../../../etl/csv/read';
import { NUCC_NAME_MAX } from '../../../etl/sources/field-bounds';
import { NPPES_FIELD_BOUNDS } from '../../../etl/sources/nppes-columns';
import { formatIndividualName } from '../../../etl/transforms/names';
import { BufferSource } from '../../../platform/binary/byte-source';
import { FolderObjectStore } from '../../../platform/folder-store';
import { IdentityIndexReader } from '../../../platform/identity-index/reader';
import { NpiIndexReader } from '../../../platform/npi-index/reader';
import { SearchIndexReader } from '../../../platform/search-index/reader';
import { checkDb, REPO_ROOT, type RejectRow, rejectsOf, SOURCE_DATA, tempDir } from './helpers';

const TIME_A = new Date('2026-11-21T05:38:00Z');
const TIME_B = new Date('2026-11-22T05:38:00Z');
/** Four UTF-8 bytes, two UTF-16 units, one character. */
const WIDE = '\u{1D538}';

interface CsvFile {
  bom: boolean;
  eol: string;
  finalEol: boolean;
  head: CsvRecord;
  header: string[];
  rows: CsvRecord[];
  /** Edited rows' fields, by row. */
  edits: Map<CsvRecord, string[]>;
}

async function readCsvFile(file: string): Promise<CsvFile> {
  const text = await readFile(file, 'utf8');
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const [head, ...rows] = parseCsv(text);
  if (!head) throw new Error(`${file} is empty`);
  const header = head.fields.map((h) => h.replace(/^\uFEFF/, ''));
  return { bom: text.startsWith('\uFEFF'), eol, finalEol: text.endsWith(eol), head, header, rows, edits: new Map() };
}

/** Sets `column` of `row` to `value` (the row is written back quoted where needed; the others as they were). */
function setField(csv: CsvFile, row: CsvRecord, column: string, value: string): void {
  const at = csv.header.indexOf(column);
  if (at < 0) throw new Error(`no column ${column}`);
  const fields = csv.edits.get(row) ?? [...row.fields];
  fields[at] = value;
  csv.edits.set(row, fields);
}

async function writeCsvFile(file: string, csv: CsvFile): Promise<void> {
  const quote = (f: string) => (/[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f);
  const lines = [csv.head.raw, ...csv.rows.map((r) => csv.edits.get(r)?.map(quote).join(',') ?? r.raw)];
  await writeFile(file, `${csv.bom ? '\uFEFF' : ''}${lines.join(csv.eol)}${csv.finalEol ? csv.eol : ''}`);
}

const cell = (csv: CsvFile, row: CsvRecord, column: string) => row.fields[csv.header.indexOf(column)] ?? '';

describe('overlong fields: row rejects in every source, never a writer’s limit', () => {
  let dir: string;
  let store: FolderObjectStore;
  let a: BuildSummary;
  let b: BuildSummary;
  let rejects: RejectRow[];
  let db: Awaited<ReturnType<typeof checkDb>>;
  let snapA: string;
  let snapB: string;
  /** What the edits did, for the tests to look for. */
  const picked = {
    nppes: [] as { npi: string; line: number; reason: string }[],
    atBound: { npi: '', name: '', state: '', code: '' },
    leie: { npi: '', line: 0 },
    nucc: { code: '', line: 0 },
    fda: { company: '', line: 0, scrapedLine: 0 },
    feed: { entity: '', line: 0, observationLine: 0, observationEntity: '', ownObservations: 0 },
  };

  beforeAll(async () => {
    dir = await tempDir('pf-etl-overlong-');
    store = new FolderObjectStore(path.join(dir, 'store'));
    const demo = demoBuildInputs(REPO_ROOT);
    const out = (name: string) => path.join(dir, name);

    // NPPES: five rows over a bound, one at every bound.
    const nppes = await readCsvFile(path.join(SOURCE_DATA, 'nppes_sample.csv'));
    const active = (type: string) =>
      nppes.rows.filter(
        (r) =>
          cell(nppes, r, 'Entity Type Code') === type &&
          cell(nppes, r, 'NPI Deactivation Date') === '' &&
          /^[A-Z]{2}$/.test(cell(nppes, r, 'Provider Business Practice Location Address State Name')) &&
          cell(nppes, r, 'Healthcare Provider Taxonomy Code_1') !== '',
      );
    const [ind0, ind1, ind2, ind3, ind4] = active('1') as [CsvRecord, CsvRecord, CsvRecord, CsvRecord, CsvRecord];
    const [org0] = active('2') as [CsvRecord];
    const over: [CsvRecord, string, string][] = [
      [ind0, 'Provider Last Name (Legal Name)', 'A'.repeat(1 << 20)],
      [org0, 'Provider Organization Name (Legal Business Name)', 'B'.repeat(70_000)],
      [ind1, 'Provider Business Practice Location Address City Name', 'C'.repeat(41)],
      [ind2, 'Healthcare Provider Taxonomy Code_1', '163W00000XX'],
      [ind3, 'Provider License Number_1', 'L'.repeat(21)],
    ];
    for (const [row, column, value] of over) {
      setField(nppes, row, column, value);
      picked.nppes.push({
        npi: cell(nppes, row, 'NPI'),
        line: row.line,
        reason: `overlong field: ${column} has ${[...value].length} characters, over its bound of ${NPPES_FIELD_BOUNDS[column]}`,
      });
    }
    const bound = (column: string) => NPPES_FIELD_BOUNDS[column] as number;
    const parts = {
      first: 'É'.repeat(bound('Provider First Name')),
      middle: WIDE.repeat(bound('Provider Middle Name')),
      last: 'Ø'.repeat(bound('Provider Last Name (Legal Name)')),
      suffix: 'Ж'.repeat(bound('Provider Name Suffix Text')),
      credential: WIDE.repeat(bound('Provider Credential Text')),
    };
    setField(nppes, ind4, 'Provider First Name', parts.first);
    setField(nppes, ind4, 'Provider Middle Name', parts.middle);
    setField(nppes, ind4, 'Provider Last Name (Legal Name)', parts.last);
    setField(nppes, ind4, 'Provider Name Suffix Text', parts.suffix);
    setField(nppes, ind4, 'Provider Credential Text', parts.credential);
    setField(nppes, ind4, 'Provider Business Practice Location Address City Name', WIDE.repeat(40));
    setField(nppes, ind4, 'Provider Business Practice Location Address Postal Code', '1234567890'.repeat(2));
    for (let s = 1; s <= 15; s += 1) setField(nppes, ind4, `Provider License Number_${s}`, 'Ñ'.repeat(20));
    picked.atBound = {
      npi: cell(nppes, ind4, 'NPI'),
      name: formatIndividualName(parts) as string,
      state: cell(nppes, ind4, 'Provider Business Practice Location Address State Name'),
      code: cell(nppes, ind4, 'Healthcare Provider Taxonomy Code_1'),
    };
    await writeCsvFile(out('nppes_sample.csv'), nppes);

    // LEIE: one exclusion type over the layout's 9 characters, on a row with a real NPI of its own.
    const leie = await readCsvFile(path.join(SOURCE_DATA, 'leie.csv'));
    const npis = leie.rows.map((r) => cell(leie, r, 'NPI'));
    const leieRow = leie.rows.find((r) => {
      const npi = cell(leie, r, 'NPI');
      return npi !== '0000000000' && npis.indexOf(npi) === npis.lastIndexOf(npi);
    }) as CsvRecord;
    setField(leie, leieRow, 'EXCLTYPE', '1128a1XXXX');
    picked.leie = { npi: cell(leie, leieRow, 'NPI'), line: leieRow.line };
    await writeCsvFile(out('leie.csv'), leie);

    // NUCC: a display name one over on a code no NPPES row holds; the at-bound row's code gets one at its bound.
    const nucc = await readCsvFile(demo.nucc);
    const used = new Set(
      nppes.rows.flatMap((r) =>
        Array.from({ length: 15 }, (_, i) => cell(nppes, r, `Healthcare Provider Taxonomy Code_${i + 1}`)),
      ),
    );
    const nuccRow = nucc.rows.find((r) => !used.has(cell(nucc, r, 'Code'))) as CsvRecord;
    setField(nucc, nuccRow, 'Display Name', 'D'.repeat(NUCC_NAME_MAX + 1));
    picked.nucc = { code: cell(nucc, nuccRow, 'Code'), line: nuccRow.line };
    const atBoundCode = nucc.rows.find((r) => cell(nucc, r, 'Code') === picked.atBound.code) as CsvRecord;
    setField(nucc, atBoundCode, 'Display Name', WIDE.repeat(NUCC_NAME_MAX));
    await writeCsvFile(out('nucc_taxonomy.csv'), nucc);

    // FDA: a company over the feed's text bound in the export, a letter address over the URL bound in the listing.
    const fda = await readCsvFile(path.join(SOURCE_DATA, 'fda_warning_letters.csv'));
    const fdaRow = fda.rows[0] as CsvRecord;
    picked.fda.company = cell(fda, fdaRow, 'Company Name');
    setField(fda, fdaRow, 'Company Name', 'C'.repeat(301));
    picked.fda.line = fdaRow.line;
    await writeCsvFile(out('fda_warning_letters.csv'), fda);
    const scraped = await readCsvFile(path.join(SOURCE_DATA, 'fda_warning_letters_scraped_2026.csv'));
    const scrapedRow = scraped.rows[0] as CsvRecord;
    setField(scraped, scrapedRow, 'url', `/${'u'.repeat(2028)}`);
    picked.fda.scrapedLine = scrapedRow.line;
    await writeCsvFile(out('fda_warning_letters_scraped_2026.csv'), scraped);

    // Feed: an internal_only provider's name over 300, another provider's unsourced observation's URL over 2,048.
    const feedDir = out('glp1');
    const [demoFeed] = demo.feeds as [string];
    const providers = await readCsvFile(path.join(demoFeed, 'providers.csv'));
    const observations = await readCsvFile(path.join(demoFeed, 'observations.csv'));
    const provider = providers.rows.find((r) => cell(providers, r, 'publish_tier') === 'internal_only') as CsvRecord;
    const entity = cell(providers, provider, 'entity_id');
    setField(providers, provider, 'name', 'N'.repeat(301));
    const observation = observations.rows.find(
      (r) => cell(observations, r, 'entity_id') !== entity && cell(observations, r, 'status') === 'unverified',
    ) as CsvRecord;
    setField(observations, observation, 'source_url', `https://example.org/${'p'.repeat(2029)}`);
    picked.feed = {
      entity,
      line: provider.line,
      observationLine: observation.line,
      observationEntity: cell(observations, observation, 'entity_id'),
      ownObservations: observations.rows.filter((r) => cell(observations, r, 'entity_id') === entity).length,
    };
    await mkdir(feedDir);
    await writeCsvFile(path.join(feedDir, 'providers.csv'), providers);
    await writeCsvFile(path.join(feedDir, 'observations.csv'), observations);

    a = await buildSnapshot({ store, inputs: demo, snapshotTime: TIME_A });
    b = await buildSnapshot({
      store,
      inputs: {
        ...demo,
        nppes: [out('nppes_sample.csv'), ...demo.nppes.slice(1)],
        nucc: out('nucc_taxonomy.csv'),
        leie: [out('leie.csv'), ...demo.leie.slice(1)],
        fda: [out('fda_warning_letters.csv'), out('fda_warning_letters_scraped_2026.csv')],
        feeds: [feedDir],
      },
      snapshotTime: TIME_B,
    });
    rejects = await rejectsOf(store, b.snapshot_id);
    db = await checkDb();
    snapA = path.join(dir, 'store', 'snapshots', a.snapshot_id);
    snapB = path.join(dir, 'store', 'snapshots', b.snapshot_id);
  }, 180_000);

  afterAll(async () => {
    db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const rejectedNpis = () => picked.nppes.map((p) => p.npi);
  const identity = (snap: string) => `read_parquet('${snap}/identity/*/data.parquet', hive_partitioning = false)`;
  const npisOf = async (sql: string) => new Set((await db.rows(sql)).map((r) => String(r.npi)));
  /** Every `<leaf>` file under `<snap>/<folder>/<partition>/`. */
  const objectFiles = async (snap: string, folder: string, leaf: string) =>
    (await readdir(path.join(snap, folder))).map((p) => path.join(snap, folder, p, leaf));

  it('publishes B under the default reject share, each file counting its overlong rows', () => {
    const counts = Object.fromEntries(b.sources.map((s) => [path.basename(s.file), [s.source, s.rejected]]));
    expect(counts).toMatchObject({
      'nppes_sample.csv': ['nppes', 5],
      'nppes_pristine_excerpt_v2.csv': ['nppes', 0],
      'nucc_taxonomy.csv': ['nucc', 1],
      'leie.csv': ['leie', 1],
      'leie_head.csv': ['leie', 0],
      'fda_warning_letters.csv': ['fda', 1],
      'fda_warning_letters_scraped_2026.csv': ['fda', 1],
      'providers.csv': ['feed_providers', 1],
      'observations.csv': ['feed_observations', 1 + picked.feed.ownObservations],
    });
    const nppes = b.sources.find((s) => path.basename(s.file) === 'nppes_sample.csv');
    expect(nppes?.top_reasons?.[0]).toEqual({ reason: 'overlong field', rows: 5 });
    expect(b.counts.identity).toBe(a.counts.identity - 5);
  });

  it('lists every overlong row in rejects.csv with the field, its length and the bound, its raw text capped', () => {
    const of = (source: string) => rejects.filter((r) => r.source === source).map((r) => [r.line, r.reason, r.raw]);
    expect(of('nppes')).toEqual(
      [...picked.nppes].sort((x, y) => x.line - y.line).map((p) => [p.line, p.reason, `NPI=${p.npi}`]),
    );
    expect(of('leie')).toEqual([
      [picked.leie.line, 'overlong field: EXCLTYPE has 10 characters, over its bound of 9', `NPI=${picked.leie.npi}`],
    ]);
    expect(of('nucc').map(([l, r]) => [l, r])).toEqual([
      [picked.nucc.line, 'overlong field: Display Name has 201 characters, over its bound of 200'],
    ]);
    expect(of('fda').map(([l, r]) => [l, r])).toEqual([
      [picked.fda.line, 'overlong field: Company Name has 301 characters, over its bound of 300'],
      [picked.fda.scrapedLine, 'overlong field: url has 2029 characters, over its bound of 2028'],
    ]);
    expect(of('feed_providers').map(([l, r]) => [l, r])).toEqual([
      [picked.feed.line, 'overlong field: name has 301 characters, over its bound of 300'],
    ]);
    expect(of('feed_observations').map(([l, r]) => [l, r])).toContainEqual([
      picked.feed.observationLine,
      'overlong field: source_url has 2049 characters, over its bound of 2048',
    ]);
    const url = rejects.find((r) => r.line === picked.fda.scrapedLine && r.source === 'fda');
    expect(url?.raw.length).toBeLessThanOrEqual(MAX_RAW_CHARS + 1);
    for (const r of rejects) expect(r.raw.length).toBeLessThanOrEqual(MAX_RAW_CHARS + 1);
  });

  it('search index: holds every other NPI with a state, and the at-bound name whole', async () => {
    const expected = await npisOf(
      `SELECT DISTINCT npi FROM ${identity(snapB)} WHERE regexp_full_match(state, '[A-Z]{2}')`,
    );
    const got = new Set<string>();
    for (const file of await objectFiles(snapB, 'search', 'index.bin')) {
      const reader = SearchIndexReader.open(new BufferSource(await readFile(file)));
      for (let i = 0; i < reader.entries; i += 1) got.add(reader.entryAt(i).npi);
      if (reader.state === picked.atBound.state) {
        const found = reader.search({
          name: 'øø',
          postalCode: null,
          entityType: null,
          city: null,
          taxonomy: null,
          limit: 5,
          offset: 0,
        });
        expect(found.total).toBe(1);
        expect(found.rows.row(0)).toMatchObject({ npi: picked.atBound.npi, name: picked.atBound.name });
      }
    }
    expect(got).toEqual(expected);
    for (const npi of rejectedNpis()) expect(got.has(npi)).toBe(false);
    expect(got.size).toBeGreaterThan(900);
  });

  it('identity serving index: holds the rows of the identity Parquet, none of the rejected NPIs', async () => {
    const [{ n: parquetRows } = { n: 0 }] = await db.rows(`SELECT count(*)::INTEGER AS n FROM ${identity(snapB)}`);
    let rows = 0;
    const npis = new Set<string>();
    for (const file of await objectFiles(snapB, 'identity-index', 'index.bin')) {
      const reader = IdentityIndexReader.open(new BufferSource(await readFile(file)));
      rows += reader.header.rows;
      const limit = Math.max(1, reader.header.rep_rows);
      const reps = reader.query({ code: null, state: null, city: null, limit, offset: 0 });
      for (let i = 0; i < reps.rows.length; i += 1) {
        const row = reps.rows.row(i);
        npis.add(String(row.npi));
        if (row.npi === picked.atBound.npi) expect(row.name).toBe(picked.atBound.name);
      }
    }
    expect(rows).toBe(parquetRows);
    expect(npis).toEqual(await npisOf(`SELECT DISTINCT npi FROM ${identity(snapB)}`));
    expect(npis.has(picked.atBound.npi)).toBe(true);
    for (const npi of rejectedNpis()) expect(npis.has(npi)).toBe(false);
  });

  it('identity Parquet: every NPI of A but the rejected ones, no value past its bound', async () => {
    const before = await npisOf(`SELECT DISTINCT npi FROM ${identity(snapA)}`);
    const after = await npisOf(`SELECT DISTINCT npi FROM ${identity(snapB)}`);
    expect([...before].filter((n) => !after.has(n)).sort()).toEqual([...rejectedNpis()].sort());
    const [longest] = await db.rows(
      `SELECT max(length(name))::INTEGER AS name, max(length(city))::INTEGER AS city,
        max(length(taxonomy_code))::INTEGER AS code FROM ${identity(snapB)}`,
    );
    expect(longest).toEqual({ name: [...picked.atBound.name].length, city: 40, code: 10 });
  });

  it('NPI lookup buckets: no record of a rejected NPI, the at-bound record whole', async () => {
    const buckets = async (snap: string) => {
      const npis = new Set<string>();
      const atBound: Buffer[] = [];
      for (const file of await objectFiles(snap, 'npi', 'records.npi')) {
        const reader = NpiIndexReader.open(new BufferSource(await readFile(file)));
        for (let i = 0; i < reader.count; i += 1) npis.add(reader.npiAt(i));
        const record = reader.findBytes(picked.atBound.npi);
        if (record !== null) atBound.push(record);
      }
      return { npis, atBound };
    };
    const before = (await buckets(snapA)).npis;
    const { npis: after, atBound } = await buckets(snapB);
    expect([...before].filter((n) => !after.has(n)).sort()).toEqual([...rejectedNpis()].sort());
    expect(after.size).toBe(before.size - 5);
    expect(atBound).toHaveLength(1);
    const bytes = atBound[0] as Buffer;
    const record = JSON.parse(bytes.toString('utf8')) as { name: string; taxonomies: { license_number: string }[] };
    expect(record.name).toBe(picked.atBound.name);
    expect(record.taxonomies[0]?.license_number).toBe('Ñ'.repeat(20));
    // A record at every bound is a few KB: a bucket's 4 GiB would take a million of them (buckets hold ~450).
    expect(bytes.length).toBeLessThan(16 * 1024);
  });

  it('taxonomy map: every NUCC code but the rejected one, the at-bound display whole', async () => {
    const rows = await db.rows(`SELECT code, display_name FROM read_parquet('${snapB}/taxonomy/taxonomy.parquet')`);
    expect(rows).toHaveLength(882);
    expect(rows.some((r) => r.code === picked.nucc.code)).toBe(false);
    expect(rows.find((r) => r.code === picked.atBound.code)?.display_name).toBe(WIDE.repeat(NUCC_NAME_MAX));
  });

  it('screening lists: the LEIE and FDA rows but the rejected ones', async () => {
    const count = async (snap: string, name: string) =>
      Number(
        (await db.rows(`SELECT count(*)::INTEGER AS n FROM read_parquet('${snap}/screens/${name}.parquet')`))[0]?.n,
      );
    expect(await count(snapB, 'oig-leie')).toBe((await count(snapA, 'oig-leie')) - 1);
    expect(await npisOf(`SELECT npi FROM read_parquet('${snapB}/screens/oig-leie.parquet')`)).not.toContain(
      picked.leie.npi,
    );
    expect(await count(snapB, 'fda-letters')).toBe((await count(snapA, 'fda-letters')) - 2);
    const [longest] = await db.rows(
      `SELECT max(length(company))::INTEGER AS company, max(length(url))::INTEGER AS url
       FROM read_parquet('${snapB}/screens/fda-letters.parquet')`,
    );
    expect(Number(longest?.company)).toBeLessThanOrEqual(300);
    expect(Number(longest?.url)).toBeLessThanOrEqual(2048);
  });

  it('vertical Parquet: every record but the rejected provider, no source URL past 2,048', async () => {
    const tracked = (snap: string) =>
      `read_parquet('${snap}/vertical/tracked/*/*/data.parquet', hive_partitioning = false)`;
    const ids = async (snap: string) =>
      new Set((await db.rows(`SELECT entity_id FROM ${tracked(snap)}`)).map((r) => String(r.entity_id)));
    const before = await ids(snapA);
    const after = await ids(snapB);
    expect([...before].filter((id) => !after.has(id))).toEqual([picked.feed.entity]);
    expect(after.has(picked.feed.observationEntity)).toBe(true);
    const [longest] = await db.rows(
      `SELECT max(greatest(length(name), length(coalesce(fda_source, '')), length(coalesce(certification_source_url, '')),
        length(coalesce(license_source_url, '')), length(coalesce(fda_source_url, ''))))::INTEGER AS n FROM ${tracked(snapB)}`,
    );
    expect(Number(longest?.n)).toBeLessThanOrEqual(2048);
  });

  it('change feed: no change of a rejected NPI, the at-bound name change whole', async () => {
    const months = await readdir(path.join(snapB, 'changes'));
    const files = months
      .filter((m) => m.startsWith('month='))
      .map((m) => path.join(snapB, 'changes', m, 'data.parquet'));
    const rows = await db.rows(
      `SELECT kind, npi, new_value FROM read_parquet([${files.map((f) => `'${f}'`).join(', ')}])
       WHERE to_snapshot = '${b.snapshot_id}'`,
    );
    for (const npi of rejectedNpis()) expect(rows.some((r) => r.npi === npi)).toBe(false);
    expect(rows).toContainEqual({
      kind: 'name_changed',
      npi: picked.atBound.npi,
      new_value: JSON.stringify(picked.atBound.name),
    });
    const basis = await npisOf(`SELECT npi FROM read_parquet('${snapB}/changes/basis.parquet')`);
    for (const npi of rejectedNpis()) expect(basis.has(npi)).toBe(false);
    expect(basis.has(picked.atBound.npi)).toBe(true);
  });
});
