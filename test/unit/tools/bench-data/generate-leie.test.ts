/**
 * The national-size LEIE list (tools/bench-data/generate-leie.ts): UPDATED.csv's form, its size and NPI share, NPIs
 * of the bench's NPPES file, and the drawn distributions held against the real samples': the total variation
 * distance (half the sum of the absolute differences of the shares) of states and exclusion types, per entity type,
 * stays under 0.05, and the middle-name share within 3 points. The individuals whose full name the bench NPPES
 * file's name tables hold (each such pair is shared by ~950 NPPES individuals at 9M rows) stay a small share:
 * the common-name share times the share of first names taken from the tables, not the samples' own overlap.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isValidNpi } from '../../../../data-contracts/npi-check';
import { parseCsvRows } from '../../../../etl/csv/read';
import { generateLeieFile, SHARES } from '../../../../tools/bench-data/generate-leie';
import { generateNppesFile } from '../../../../tools/bench-data/generate-nppes';
import { FEMALE_NAMES, LAST_NAMES, MALE_NAMES } from '../../../../tools/bench-data/nppes-tables';
import { DEFAULT_SOURCE_DIR } from '../../../../tools/demo/source-facts';
import { readLeieRows } from '../../../../tools/oig/labelled-set';

const ROWS = 20_000;
const real = ['leie.csv', 'leie_head.csv']
  .flatMap((f) => readLeieRows(join(DEFAULT_SOURCE_DIR, f)))
  .map((r) => r.fields);

/** Total variation distance between the value shares of two lists. */
function distance(a: readonly string[], b: readonly string[]): number {
  const shares = (xs: readonly string[]) => {
    const m = new Map<string, number>();
    for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1 / xs.length);
    return m;
  };
  const [sa, sb] = [shares(a), shares(b)];
  let sum = 0;
  for (const k of new Set([...sa.keys(), ...sb.keys()])) sum += Math.abs((sa.get(k) ?? 0) - (sb.get(k) ?? 0));
  return sum / 2;
}

describe('generateLeieFile', () => {
  let tmp: string;
  let header: string[];
  let rows: Record<string, string>[];
  let nppesNpis: Set<string>;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'bench-leie-'));
    const nppes = join(tmp, 'npidata.csv');
    await generateNppesFile({ rows: 3000, outFile: nppes, seed: 7, progress: false });
    nppesNpis = new Set(
      readFileSync(nppes, 'utf8')
        .split('\n')
        .slice(1)
        .map((l) => l.slice(1, 11)),
    );
    await generateLeieFile({ nppesFile: nppes, outFile: join(tmp, 'leie.csv'), rows: ROWS, seed: 5 });
    const text = readFileSync(join(tmp, 'leie.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe(readFileSync(join(DEFAULT_SOURCE_DIR, 'leie.csv'), 'utf8').split('\n')[0]);
    const [head = [], ...body] = parseCsvRows(text);
    header = head;
    rows = body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
  });

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("writes UPDATED.csv's 18 quoted columns, the placeholders where OIG writes them", () => {
    expect(header).toHaveLength(18);
    expect(rows).toHaveLength(ROWS);
    const text = readFileSync(join(tmp, 'leie.csv'), 'utf8').trimEnd().split('\n').slice(1);
    expect(text.every((l) => l.startsWith('"') && l.endsWith('"') && l.split('","').length === 18)).toBe(true);
    expect(rows.every((r) => r.REINDATE === '00000000' && r.WAIVERDATE === '00000000')).toBe(true);
    expect(rows.every((r) => /^[0-9]{8}$/.test(r.EXCLDATE ?? ''))).toBe(true);
  });

  it('gives about 11% of the rows an NPI, each a distinct NPI of the NPPES file', () => {
    const carried = rows.map((r) => r.NPI as string).filter((n) => n !== '0000000000');
    expect(Math.abs(carried.length / ROWS - SHARES.npi)).toBeLessThan(0.01);
    expect(new Set(carried).size).toBe(carried.length);
    expect(carried.every((n) => isValidNpi(n) && nppesNpis.has(n))).toBe(true);
  });

  it('draws states and exclusion types per entity type as the real samples have them', () => {
    for (const organisation of [false, true]) {
      const drawn = rows.filter((r) => (r.BUSNAME !== '') === organisation);
      const sample = real.filter((r) => (r.BUSNAME !== '') === organisation);
      for (const column of ['STATE', 'EXCLTYPE', 'GENERAL']) {
        const d = distance(
          drawn.map((r) => r[column] ?? ''),
          sample.map((r) => r[column] ?? ''),
        );
        expect({ organisation, column, d: d < 0.05 }).toEqual({ organisation, column, d: true });
      }
    }
    expect(Math.abs(rows.filter((r) => r.BUSNAME !== '').length / ROWS - SHARES.organisation)).toBeLessThan(0.01);
  });

  it('keeps the share of individuals with a middle name, and draws every business name with a name', () => {
    const people = rows.filter((r) => r.BUSNAME === '');
    const share = (xs: readonly Record<string, string>[]) => xs.filter((r) => r.MIDNAME !== '').length / xs.length;
    expect(Math.abs(share(people) - share(real.filter((r) => !r.BUSNAME) as Record<string, string>[]))).toBeLessThan(
      0.03,
    );
    expect(people.every((r) => r.LASTNAME !== '' && r.FIRSTNAME !== '')).toBe(true);
  });

  it('shares a full name with the bench NPPES tables only through the common-name share', () => {
    const lasts = new Set(LAST_NAMES.map((n) => n.toUpperCase()));
    const firsts = new Set([...FEMALE_NAMES, ...MALE_NAMES].map((n) => n.toUpperCase()));
    const people = rows.filter((r) => r.BUSNAME === '');
    const sharedLast = people.filter((r) => lasts.has((r.LASTNAME ?? '').toUpperCase()));
    const sharedFull = sharedLast.filter((r) => firsts.has((r.FIRSTNAME ?? '').toUpperCase()));
    expect(Math.abs(sharedLast.length / people.length - SHARES.commonName)).toBeLessThan(0.005);
    expect(sharedFull.length / people.length).toBeLessThanOrEqual(SHARES.commonName);
    expect(sharedFull.length).toBeGreaterThan(0);
  });
});
