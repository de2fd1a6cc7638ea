import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import {
  FEED_OBSERVATION_COLUMNS,
  FEED_OBSERVATION_SCHEMA,
  FEED_PROVIDER_COLUMNS,
  FEED_PROVIDER_SCHEMA,
} from '../../../../data-contracts/feed';
import { isValidNpi } from '../../../../data-contracts/npi-check';
import { parseCsvRows as parseCsv } from '../../../../etl/csv/read';
import { generateVerticalFeed } from '../../../../tools/bench-data/generate-feed';
import { generateNppesFile } from '../../../../tools/bench-data/generate-nppes';
import { NPPES_COLUMN_COUNT } from '../../../../tools/bench-data/nppes-columns';
import { DEFAULT_SOURCE_DIR } from '../../../../tools/demo/source-facts';
import { US_STATES } from '../../../../tools/demo/us-geography';

const ROWS = 3000;
const MMDDYYYY = /^(0[1-9]|1[0-2])\/(0[1-9]|[12][0-9]|3[01])\/(200[5-9]|201[0-9]|202[0-6])$/;

describe('generateNppesFile', () => {
  let tmp: string;
  let text: string;
  let header: string[];
  let rows: string[][];
  let at: (name: string) => number;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'bench-nppes-'));
    await generateNppesFile({ rows: ROWS, outFile: join(tmp, 'npidata.csv'), seed: 7, progress: false });
    text = readFileSync(join(tmp, 'npidata.csv'), 'utf8');
    [header = [], ...rows] = parseCsv(text);
    at = (name) => header.indexOf(name);
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('starts with the CMS header line byte for byte and ends every line with LF', () => {
    const fixture = readFileSync(join(DEFAULT_SOURCE_DIR, 'nppes_fileheader_v2.csv'), 'utf8');
    expect(text.startsWith(fixture.replace(/\r?\n$/, '\n'))).toBe(true);
    expect(text.includes('\r')).toBe(false);
    expect(text.endsWith('\n')).toBe(true);
    expect(header).toHaveLength(NPPES_COLUMN_COUNT);
  });

  it('writes the requested rows, 330 fields each, every field double-quoted', () => {
    expect(rows).toHaveLength(ROWS);
    expect(rows.every((r) => r.length === NPPES_COLUMN_COUNT)).toBe(true);
    // With every field quoted and no quote inside a value, each line is `"` + fields joined by `","` + `"`.
    const lines = text.split('\n').slice(1, -1);
    expect(
      lines.every((l) => l.startsWith('"') && l.endsWith('"') && l.split('","').length === NPPES_COLUMN_COUNT),
    ).toBe(true);
  });

  it('gives unique, increasing, check-digit-valid NPIs', () => {
    const npis = rows.map((r) => r[0] as string);
    expect(npis.filter((n) => !isValidNpi(n))).toEqual([]);
    expect(npis.every((n, i) => i === 0 || n > (npis[i - 1] as string))).toBe(true);
  });

  it('blanks deactivated rows except NPI and deactivation date, as CMS does', () => {
    const deactivation = at('NPI Deactivation Date');
    const deactivated = rows.filter((r) => r[at('Entity Type Code')] === '');
    expect(deactivated.length).toBeGreaterThan(ROWS * 0.005);
    expect(deactivated.length).toBeLessThan(ROWS * 0.03);
    for (const r of deactivated) {
      expect(r[deactivation]).toMatch(MMDDYYYY);
      expect(r.filter((v, i) => i !== 0 && i !== deactivation && v !== '')).toEqual([]);
    }
  });

  it('keeps reactivated rows full, with a reactivation date after the deactivation date', () => {
    const reactivated = rows.filter((r) => r[at('NPI Reactivation Date')] !== '');
    expect(reactivated.length).toBeGreaterThan(0);
    const toIso = (d: string) => `${d.slice(6)}-${d.slice(0, 2)}-${d.slice(3, 5)}`;
    for (const r of reactivated) {
      expect(['1', '2']).toContain(r[at('Entity Type Code')]);
      expect(toIso(r[at('NPI Reactivation Date')] as string) > toIso(r[at('NPI Deactivation Date')] as string)).toBe(
        true,
      );
    }
  });

  it('has about 80% individuals and 20% organisations among active rows', () => {
    const active = rows.filter((r) => r[at('Entity Type Code')] !== '');
    const organisations = active.filter((r) => r[at('Entity Type Code')] === '2').length / active.length;
    expect(organisations).toBeGreaterThan(0.15);
    expect(organisations).toBeLessThan(0.25);
  });

  it('gives every active row exactly one primary taxonomy switch Y, not always in slot 1', () => {
    const switches = Array.from({ length: 15 }, (_, i) => at(`Healthcare Provider Primary Taxonomy Switch_${i + 1}`));
    const active = rows.filter((r) => r[at('Entity Type Code')] !== '');
    const primarySlots = active.map((r) => switches.filter((c) => r[c] === 'Y').map((c) => switches.indexOf(c)));
    expect(primarySlots.every((slots) => slots.length === 1)).toBe(true);
    expect(primarySlots.some((slots) => slots[0] !== 0)).toBe(true);
  });

  it('draws taxonomy codes from NUCC and fills licences for individuals', () => {
    const nucc = new Set(
      parseCsv(readFileSync(join(DEFAULT_SOURCE_DIR, 'nucc_taxonomy.csv'), 'utf8')).map((r) => r[0]),
    );
    const codeColumns = Array.from({ length: 15 }, (_, i) => at(`Healthcare Provider Taxonomy Code_${i + 1}`));
    const codes = rows.flatMap((r) => codeColumns.map((c) => r[c] as string)).filter((c) => c !== '');
    expect(codes.filter((c) => !nucc.has(c))).toEqual([]);
    const individuals = rows.filter((r) => r[at('Entity Type Code')] === '1');
    const licensed = individuals.filter(
      (r) => r[at('Provider License Number_1')] !== '' && r[at('Provider License Number State Code_1')] !== '',
    );
    expect(licensed.length / individuals.length).toBeGreaterThan(0.7);
  });

  it('writes MM/DD/YYYY dates, 9-digit ZIPs and ~55 practice states', () => {
    const dateColumns = [
      'Provider Enumeration Date',
      'Last Update Date',
      'NPI Deactivation Date',
      'NPI Reactivation Date',
      'Certification Date',
    ].map(at);
    const badDates = rows
      .flatMap((r) => dateColumns.map((c) => r[c] as string))
      .filter((d) => d !== '' && !MMDDYYYY.test(d));
    expect(badDates).toEqual([]);
    const active = rows.filter((r) => r[at('Entity Type Code')] !== '');
    expect(
      active.every((r) =>
        /^[0-9]{9}$/.test(r[at('Provider Business Practice Location Address Postal Code')] as string),
      ),
    ).toBe(true);
    expect(
      new Set(active.map((r) => r[at('Provider Business Practice Location Address State Name')])).size,
    ).toBeGreaterThanOrEqual(45);
    const years = new Set(active.map((r) => (r[at('Last Update Date')] as string).slice(6)));
    expect(years.has('2008') && years.has('2026')).toBe(true);
  });

  it('writes upper-case practice cities, a third real ones and the rest towns, mostly the same mailing city', () => {
    const active = rows.filter((r) => r[at('Entity Type Code')] !== '');
    const practice = active.map((r) => r[at('Provider Business Practice Location Address City Name')] as string);
    const mailing = active.map((r) => r[at('Provider Business Mailing Address City Name')] as string);
    const elsewhere = mailing.filter((c, i) => c !== practice[i]).length / active.length;
    // NPPES: a mailing address in another city of the state for some providers (./nppes-row.ts: a tenth, less the
    // draws that land on the same city).
    expect(elsewhere).toBeGreaterThan(0.05);
    expect(elsewhere).toBeLessThan(0.1);
    const states = (name: string) => active.map((r) => r[at(name)]);
    expect(states('Provider Business Mailing Address State Name')).toEqual(
      states('Provider Business Practice Location Address State Name'),
    );
    expect(practice.every((c) => c !== '' && c === c.toUpperCase())).toBe(true);
    const real = new Set(US_STATES.flatMap((s) => s.cities.map((c) => c.name.toUpperCase())));
    const inReal = practice.filter((c) => real.has(c)).length / practice.length;
    // CMS's sample: 35% of the rows are in one of the cities us-geography lists (tools/bench-data/check-places.ts).
    expect(inReal).toBeGreaterThan(0.3);
    expect(inReal).toBeLessThan(0.45);
    expect(new Set(practice).size).toBeGreaterThan(real.size);
  });

  it('gives a fifth of the organisations an other organisation name, of type 3', () => {
    const orgs = rows.filter((r) => r[at('Entity Type Code')] === '2');
    const named = orgs.filter((r) => r[at('Provider Other Organization Name')] !== '');
    expect(named.length / orgs.length).toBeGreaterThan(0.14);
    expect(named.length / orgs.length).toBeLessThan(0.26);
    expect(named.every((r) => r[at('Provider Other Organization Name Type Code')] === '3')).toBe(true);
    expect(
      rows
        .filter((r) => r[at('Entity Type Code')] === '1')
        .every((r) => r[at('Provider Other Organization Name')] === ''),
    ).toBe(true);
  });

  it('is deterministic for a seed', async () => {
    const again = join(tmp, 'again.csv');
    await generateNppesFile({ rows: 200, outFile: again, seed: 7, progress: false });
    const first = join(tmp, 'first.csv');
    await generateNppesFile({ rows: 200, outFile: first, seed: 7, progress: false });
    expect(readFileSync(again).equals(readFileSync(first))).toBe(true);
  });
});

describe('generateVerticalFeed', () => {
  it('writes a schema-valid glp1 feed of 10,000 providers, mostly verified, in every state', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'bench-feed-'));
    try {
      const result = generateVerticalFeed({ providers: 10_000, outDir: tmp, seed: 1 });
      expect(result.providers).toBe(10_000);
      expect(result.verified / result.providers).toBeGreaterThan(0.85);
      const [pHeader = [], ...providers] = parseCsv(readFileSync(result.providersFile, 'utf8'));
      const [oHeader = [], ...observations] = parseCsv(readFileSync(result.observationsFile, 'utf8'));
      expect(pHeader).toEqual(Object.keys(FEED_PROVIDER_COLUMNS));
      expect(oHeader).toEqual(Object.keys(FEED_OBSERVATION_COLUMNS));
      expect(
        new Set(providers.map((p) => p[pHeader.indexOf('state')]).filter((s) => s !== '')).size,
      ).toBeGreaterThanOrEqual(51);
      expect(new Set(providers.map((p) => p[pHeader.indexOf('slug')])).size).toBe(providers.length);

      const ajv = new Ajv2020({ strict: false });
      const validateProvider = ajv.compile(FEED_PROVIDER_SCHEMA);
      const validateObservation = ajv.compile(FEED_OBSERVATION_SCHEMA);
      const toRow = (h: string[], columns: Record<string, string>, cells: string[]) =>
        Object.fromEntries(
          h.map((name, i) => {
            const cell = cells[i] ?? '';
            return [name, cell === '' ? null : columns[name] === 'string' ? cell : Number(cell)];
          }),
        );
      expect(providers.filter((p) => !validateProvider(toRow(pHeader, FEED_PROVIDER_COLUMNS, p)))).toEqual([]);
      expect(observations.filter((o) => !validateObservation(toRow(oHeader, FEED_OBSERVATION_COLUMNS, o)))).toEqual([]);
      const npis = providers.map((p) => p[pHeader.indexOf('npi')] as string).filter((n) => n !== '');
      expect(npis.filter((n) => !isValidNpi(n))).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
