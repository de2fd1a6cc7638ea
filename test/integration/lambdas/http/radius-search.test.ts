/**
 * Radius search (`near`, `radius_miles` on GET /providers) over the real ETL's output of the real samples, through
 * the node adapter, against brute force: DuckDB reads the snapshot's identity Parquet partitions (npi, code,
 * class_rep, postal_code, entity_type), the snapshot's own ZIP table places them, and the distance is the same
 * formula computed here. Totals, every page, the order (distance, then NPI) and the rounded distances must agree;
 * also the vertical path (rows placed at their coordinates) and the errors.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { roundedMiles } from '../../../../data-contracts/near';
import { milesBetween } from '../../../../platform/geo/distance';
import { ZipTable } from '../../../../platform/geo/zip-table';
import { readCurrentSnapshot } from '../../../../platform/snapshot-protocol';
import { type ApiTestEnv, startApiTestEnv } from '../../../helpers/api-test-env';
import { parseCsvTable } from '../../../helpers/csv-body';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

interface PartitionRow {
  npi: string;
  taxonomy_code: string;
  classification_key: string;
  class_rep: boolean;
  postal_code: string | null;
  entity_type: string | null;
}

interface Expected {
  npi: string;
  miles: number;
}

describe('radius search on the real samples', () => {
  let env: ApiTestEnv;
  let rows: PartitionRow[];
  let zips: ZipTable;
  let work: string;

  const get = async (query: string, key = '') => {
    const res = await env.get(`/api/v1/providers?${query}`, bearer(key || env.keys.enterprise));
    return { res, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    env = await startApiTestEnv({ storage: 'folder' });
    const current = await readCurrentSnapshot(env.store);
    if (current === null) throw new Error('no snapshot');
    const zipObject = current.manifest.objects.find((o) => o.kind === 'zip_table');
    zips = ZipTable.decode((await env.store.getBytes(zipObject?.key as string))?.body as Buffer);
    work = await mkdtemp(path.join(tmpdir(), 'pf-radius-'));
    const files: string[] = [];
    for (const [i, object] of current.manifest.objects.filter((o) => o.kind === 'identity').entries()) {
      const file = path.join(work, `${i}.parquet`);
      await writeFile(file, (await env.store.getBytes(object.key))?.body as Buffer);
      files.push(file);
    }
    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    rows = [];
    for (const file of files) {
      const reader = await connection.runAndReadAll(
        'SELECT npi, taxonomy_code, classification_key, class_rep, postal_code, entity_type FROM read_parquet($1)',
        [file],
      );
      rows.push(...(reader.getRowObjectsJS() as unknown as PartitionRow[]));
    }
    connection.closeSync();
    db.closeSync();
  }, 180_000);
  afterAll(async () => {
    await env?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** Brute force: the rows of a code (or a classification's class_rep rows) within the circle. */
  function expected(
    select: (r: PartitionRow) => boolean,
    lat: number,
    lon: number,
    radius: number,
    entity: string | null = null,
  ): Expected[] {
    const out: Expected[] = [];
    for (const r of rows) {
      if (!select(r) || r.postal_code === null || (entity !== null && r.entity_type !== entity)) continue;
      const place = zips.find(r.postal_code);
      if (place === null) continue;
      const miles = milesBetween(lat, lon, place.latitude, place.longitude);
      if (miles <= radius) out.push({ npi: r.npi, miles });
    }
    return out.sort((a, b) => a.miles - b.miles || (a.npi < b.npi ? -1 : a.npi > b.npi ? 1 : 0));
  }

  /** The drawn queries: centred on the samples' own ZIPs, in proportion to their rows. */
  function drawnQueries(): { zip: string; code: string; radius: number }[] {
    const placed = rows.filter((r) => r.postal_code !== null && zips.find(r.postal_code) !== null);
    const out: { zip: string; code: string; radius: number }[] = [];
    for (let i = 0; i < 36; i += 1) {
      const r = placed[(i * 7919) % placed.length] as PartitionRow;
      out.push({ zip: r.postal_code as string, code: r.taxonomy_code, radius: [5, 25, 100, 12.5][i % 4] as number });
    }
    return out;
  }

  it('places most identity rows and answers every drawn query as brute force does, page by page', async () => {
    const placed = rows.filter((r) => r.postal_code !== null && zips.find(r.postal_code) !== null).length;
    expect(placed / rows.length).toBeGreaterThan(0.9);
    let nonEmpty = 0;
    for (const q of drawnQueries()) {
      const centre = zips.find(q.zip) as { latitude: number; longitude: number };
      const want = expected((r) => r.taxonomy_code === q.code, centre.latitude, centre.longitude, q.radius);
      if (want.length > 0) nonEmpty += 1;
      for (const [limit, offset] of [
        [50, 0],
        [3, 1],
        [2, Math.max(0, want.length - 1)],
      ] as const) {
        const { res, body } = await get(
          `taxonomy=${q.code}&near=${q.zip}&radius_miles=${q.radius}&limit=${limit}&offset=${offset}`,
        );
        expect(res.status).toBe(200);
        const data = body.data as { npi: string; distance_miles: number; taxonomy_code: string }[];
        expect((body.pagination as { total: number }).total).toBe(want.length);
        const page = want.slice(offset, offset + limit);
        expect(data.map((d) => d.npi)).toEqual(page.map((w) => w.npi));
        data.forEach((d, i) => {
          expect(Math.abs(d.distance_miles - (page[i] as Expected).miles)).toBeLessThanOrEqual(0.05);
          expect(d.distance_miles).toBe(roundedMiles((page[i] as Expected).miles));
          expect(d.taxonomy_code).toBe(q.code);
        });
        expect(body.near).toEqual({
          latitude: centre.latitude,
          longitude: centre.longitude,
          zip: q.zip,
          radius_miles: q.radius,
        });
      }
    }
    expect(nonEmpty).toBeGreaterThan(30);
  }, 120_000);

  it('narrows by entity_type as brute force does', async () => {
    // The partitions hold the entity type as the API names it (NPPES's 1 and 2 mapped): both occur.
    expect(new Set(rows.map((r) => r.entity_type))).toEqual(new Set(['individual', 'organization']));
    let individuals = 0;
    for (const q of drawnQueries().slice(0, 12)) {
      const centre = zips.find(q.zip) as { latitude: number; longitude: number };
      for (const entity of ['individual', 'organization']) {
        const want = expected((r) => r.taxonomy_code === q.code, centre.latitude, centre.longitude, q.radius, entity);
        const { body } = await get(
          `taxonomy=${q.code}&near=${q.zip}&radius_miles=${q.radius}&limit=1000&entity_type=${entity}`,
        );
        expect((body.data as { npi: string }[]).map((d) => d.npi)).toEqual(want.map((w) => w.npi));
        expect((body.pagination as { total: number }).total).toBe(want.length);
        if (entity === 'individual') individuals += want.length;
      }
    }
    expect(individuals).toBeGreaterThan(0);
    // Organisations are rarer: a wide circle around a drawn organisation's ZIP holds at least that one.
    const org = rows.find(
      (r) => r.entity_type === 'organization' && r.postal_code !== null && zips.find(r.postal_code),
    );
    if (org === undefined) throw new Error('no placed organisation in the samples');
    const { body } = await get(
      `taxonomy=${org.taxonomy_code}&near=${org.postal_code}&radius_miles=5&entity_type=organization&limit=1000`,
    );
    expect((body.data as { npi: string }[]).map((d) => d.npi)).toContain(org.npi);
  }, 120_000);

  it('answers a lat,lon point as the same circle around it', async () => {
    const q = drawnQueries()[1] as { zip: string; code: string };
    const centre = zips.find(q.zip) as { latitude: number; longitude: number };
    const lat = Math.round((centre.latitude + 0.05) * 1e4) / 1e4;
    const lon = Math.round((centre.longitude - 0.05) * 1e4) / 1e4;
    const want = expected((r) => r.taxonomy_code === q.code, lat, lon, 40);
    const { res, body } = await get(`taxonomy=${q.code}&near=${lat},${lon}&radius_miles=40&limit=1000`);
    expect(res.status).toBe(200);
    expect((body.data as { npi: string }[]).map((d) => d.npi)).toEqual(want.map((w) => w.npi));
    expect(body.near).toEqual({ latitude: lat, longitude: lon, zip: null, radius_miles: 40 });
  });

  it('writes distance_miles as the last CSV column', async () => {
    const q = drawnQueries().find((x) => x.radius === 100) as { zip: string; code: string };
    const centre = zips.find(q.zip) as { latitude: number; longitude: number };
    const want = expected((r) => r.taxonomy_code === q.code, centre.latitude, centre.longitude, 100);
    const res = await env.get(
      `/api/v1/providers?taxonomy=${q.code}&near=${q.zip}&radius_miles=100&limit=1000&format=csv`,
      bearer(env.keys.enterprise),
    );
    expect(res.status).toBe(200);
    const { header, rows: cells } = parseCsvTable(await res.text());
    expect(header[header.length - 1]).toBe('distance_miles');
    expect(cells.map((c) => c[0])).toEqual(want.map((w) => w.npi));
    expect(cells.map((c) => Number(c[header.length - 1]))).toEqual(want.map((w) => roundedMiles(w.miles)));
  });

  it('finds names within the circle across states, nearest first', async () => {
    const q = drawnQueries()[2] as { zip: string };
    const { res, body } = await get(`name=a&near=${q.zip}&radius_miles=100&limit=1000`);
    expect(res.status).toBe(400);
    expect(body.code).toBe('invalid_parameter');
    const named = await get(`name=ma&near=${q.zip}&radius_miles=100&limit=1000`);
    expect(named.res.status).toBe(200);
    const data = named.body.data as { npi: string; distance_miles: number }[];
    for (let i = 1; i < data.length; i += 1) {
      expect((data[i] as { distance_miles: number }).distance_miles).toBeGreaterThanOrEqual(
        (data[i - 1] as { distance_miles: number }).distance_miles,
      );
    }
    expect((named.body.pagination as { total: number }).total).toBe(data.length);
  });

  it('answers the vertical path by the rows\u2019 coordinates', async () => {
    const all = await get('vertical=glp1&limit=1000');
    const data = all.body.data as { entity_id: string; latitude?: number; longitude?: number; business_mode: string }[];
    const withPlace = data.find((d) => typeof d.latitude === 'number' && d.business_mode !== 'online');
    if (withPlace === undefined) throw new Error('the demo glp1 layer has no placed row');
    const { res, body } = await get(
      `vertical=glp1&near=${withPlace.latitude},${withPlace.longitude}&radius_miles=100&limit=1000`,
    );
    expect(res.status).toBe(200);
    const near = body.data as { entity_id: string; distance_miles: number }[];
    expect(near[0]?.distance_miles).toBe(0);
    const wanted = data
      .filter((d) => typeof d.latitude === 'number' && d.business_mode !== 'online')
      .map((d) => ({
        id: d.entity_id,
        miles: milesBetween(
          withPlace.latitude as number,
          withPlace.longitude as number,
          d.latitude as number,
          d.longitude as number,
        ),
      }))
      .filter((d) => d.miles <= 100)
      .sort((a, b) => a.miles - b.miles || (a.id < b.id ? -1 : 1));
    expect(near.map((d) => d.entity_id)).toEqual(wanted.map((w) => w.id));
  });

  it('refuses what near cannot answer, each with its own code', async () => {
    const cases: [string, number, string][] = [
      ['taxonomy=363L00000X&near=99999', 400, 'unknown_zip'],
      ['taxonomy=363L00000X&near=51.5,-0.12', 400, 'invalid_near'],
      ['taxonomy=363L00000X&near=10001&radius_miles=101', 400, 'invalid_radius'],
      ['taxonomy=363L00000X&near=10001&state=NY', 400, 'near_conflict'],
    ];
    for (const [query, status, code] of cases) {
      const { res, body } = await get(query);
      expect({ query, status: res.status, code: body.code }).toEqual({ query, status, code });
      expect(typeof body.hint).toBe('string');
    }
  });
});
